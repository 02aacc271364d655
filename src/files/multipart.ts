import type { Request, Response } from 'express';
import type { StorageEngine } from 'multer';
import { lazy } from '../core/lazy';
import { PlainHttpError } from '../core/errors/api-error';
import { spool, SpooledFile } from './spool';
import { FileTooLargeError, UserFileErrors } from './user-files.errors';

export const multer = lazy(() => require('multer') as typeof import('multer'));

type SpooledUpload = Express.Multer.File & { spooled?: SpooledFile };

/** A received file part: the client's file name and type, and the spooled content. */
export interface ReceivedFile {
  name: string;
  /** The part's Content-Type (busboy reads a missing one as `text/plain`). */
  type: string | null;
  file: SpooledFile;
}

/** Multer storage that spools the part to a temporary file, hashing and measuring it. */
function spoolingStorage(limitBytes: number, dir: string): StorageEngine {
  return {
    _handleFile(_req, file, callback) {
      spool(file.stream, limitBytes, dir).then(
        (spooled) => callback(null, { spooled, size: spooled.size } as Partial<SpooledUpload>),
        (error: Error) => callback(error),
      );
    },
    _removeFile(_req, file, callback) {
      const spooled = (file as SpooledUpload).spooled;
      if (!spooled) return callback(null);
      spooled.discard().then(() => callback(null), callback);
    },
  };
}

/**
 * Reads the `file` part of a multipart upload (Baserow's `request.FILES['file']`) into a
 * temporary file. Anything but multipart is a 415 (DRF's MultiPartParser); no `file` part, a
 * second file or broken multipart is ERROR_INVALID_FILE; more than the limit is
 * ERROR_FILE_SIZE_TOO_LARGE, answered once the rest of the body has been read and dropped
 * (ApiExceptionFilter).
 */
export async function readFilePart(req: Request, res: Response, limits: { limitBytes: number; tmpDir: string }): Promise<ReceivedFile> {
  const { limitBytes, tmpDir } = limits;
  const contentType = req.headers['content-type'];
  if (!contentType) {
    throw UserFileErrors.invalidFile();
  }
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    throw new PlainHttpError(415, { detail: `Unsupported media type "${contentType}" in request.` });
  }
  const upload = multer()({
    storage: spoolingStorage(limitBytes, tmpDir),
    limits: { files: 1, fields: 20, parts: 40, fieldSize: 64 * 1024, headerPairs: 100 },
  }).single('file');
  try {
    await new Promise<void>((resolve, reject) => upload(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
  } catch (error) {
    if (error instanceof FileTooLargeError) throw UserFileErrors.fileSizeTooLarge(limitBytes);
    if (error instanceof multer().MulterError || isBusboyError(error)) throw UserFileErrors.invalidFile();
    throw error;
  }
  const file = req.file as SpooledUpload | undefined;
  if (!file?.spooled) throw UserFileErrors.invalidFile();
  return { name: file.originalname, type: file.mimetype || null, file: file.spooled };
}

/** Busboy's refusals of malformed multipart (missing boundary, unexpected end). */
function isBusboyError(error: unknown): boolean {
  const message = (error as Error)?.message ?? '';
  return /multipart|boundary|Unexpected end of form|Malformed part header/i.test(message);
}
