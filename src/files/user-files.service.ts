import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { toApiDateTime } from '../core/database/columns';
import { UnitOfWork } from '../core/database/unit-of-work';
import type { UserEntity } from '../users/user.entity';
import { inspect, makeThumbnails, THUMBNAILS } from './content';
import { isKnownType, typeFromName } from './mime-types';
import type { SpooledFile } from './spool';
import { FileStorage } from './storage/file-storage';
import { UserFileRepository } from './user-file.repository';
import { UserFileEntity, userFileName } from './user-file.entity';
import { FileTooLargeError, UserFileErrors } from './user-files.errors';
import { fetchToSpool, UrlNotAllowedError, UrlNotReachableError } from './url-fetcher';
import { truncateMiddle } from '../core/text/truncate';

/** What both the upload answer and a file cell tell of a user file. */
export interface UserFileFacts {
  size: number;
  mime_type: string;
  is_image: boolean;
  image_width: number | null;
  image_height: number | null;
  uploaded_at: string;
}

/** The answer of the upload endpoints (Baserow's `UserFileSerializer`). */
export interface UserFileJson extends UserFileFacts {
  url: string;
  thumbnails: Record<string, { url: string; width: number | null; height: number | null }> | null;
  name: string;
  original_name: string;
}

export const userFileKey = (name: string): string => `user_files/${name}`;
export const thumbnailKey = (size: string, name: string): string => `thumbnails/${size}/${name}`;

const UNIQUE_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * A client's file name as a display name: the last path segment only (`../` and `\` gone),
 * without control characters (NUL), at most 64 characters.
 */
export function cleanOriginalName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  return truncateMiddle(base.replace(/[\u0000-\u001f\u007f]/g, '').trim(), 64);
}

/** The extension of a name as the stored name carries it: lower case letters and digits only. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return '';
  return name.slice(dot + 1).toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 64);
}

/**
 * User files (Baserow's `UserFileHandler`): stores uploads and downloads under a generated
 * name with their real type, and makes the thumbnails of images.
 */
@Injectable()
export class UserFilesService {
  private readonly logger = new Logger(UserFilesService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly files: UserFileRepository,
    private readonly storage: FileStorage,
    private readonly db: UnitOfWork,
  ) {}

  /**
   * Stores a received file (the temporary file is removed, whatever happens). `user` is null
   * for a visitor of a public form; `declaredType` is the type the client sent with the file.
   */
  async upload(user: UserEntity | null, clientName: string, spooled: SpooledFile, declaredType: string | null = null): Promise<UserFileJson> {
    try {
      return await this.serialize(await this.store(user, clientName, spooled, declaredType));
    } finally {
      await spooled.discard();
    }
  }

  async uploadViaUrl(user: UserEntity, url: string): Promise<UserFileJson> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw UserFileErrors.invalidFileUrl();
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw UserFileErrors.invalidFileUrl();
    let fetched: Awaited<ReturnType<typeof fetchToSpool>>;
    try {
      fetched = await fetchToSpool(parsed.href, {
        limitBytes: this.config.fileUploadSizeLimitBytes,
        timeoutMs: this.config.fileUploadUrlTimeoutSeconds * 1000,
        allowPrivateAddresses: this.config.fileUploadUrlAllowPrivateAddresses,
        tmpDir: this.config.uploadTmpDir,
      });
    } catch (error) {
      if (error instanceof FileTooLargeError) throw UserFileErrors.fileSizeTooLarge(this.config.fileUploadSizeLimitBytes);
      if (error instanceof UrlNotAllowedError || error instanceof UrlNotReachableError) throw UserFileErrors.urlCouldNotBeReached();
      throw error;
    }
    const clientName = decodeSafely(parsed.pathname.split('/').pop() ?? '');
    // A server's type counts only when it is a type the table knows (Baserow: `guess_extension`).
    const type = mediaType(fetched.response.headers['content-type']);
    return this.upload(user, clientName, fetched.file, type && isKnownType(type) ? type : null);
  }

  /**
   * Baserow's type of an upload: the content's when it is an image, else the name's, else the
   * type the client declared, else `application/octet-stream`. Only content decoded as an
   * image becomes `is_image` (thumbnails, served inline); a type taken from a name never does.
   */
  private async store(user: UserEntity | null, clientName: string, spooled: SpooledFile, declaredType: string | null): Promise<UserFileEntity> {
    if (spooled.size === 0) throw UserFileErrors.invalidFile();
    const originalName = cleanOriginalName(clientName);
    const same = await this.files.findSame(originalName, spooled.sha256);
    if (same) return same;

    const originalExtension = extensionOf(originalName);
    const maxPixels = this.config.fileUploadMaxImagePixels;
    const { imageType, image } = await inspect(spooled.path, spooled.head, maxPixels);
    const mimeType = imageType ?? typeFromName(originalName) ?? mediaType(declaredType) ?? 'application/octet-stream';
    let thumbnails: Map<string, Buffer> | null = null;
    if (image) {
      try {
        thumbnails = await makeThumbnails(spooled.path, image, maxPixels);
      } catch {
        thumbnails = null; // Not decodable after all (truncated): kept as a plain file, as Pillow's refusal.
      }
    }
    // Only content decoded as an image (thumbnails made) is an image: served inline, with its size.
    const isImage = thumbnails !== null;
    const unique = await this.generateUnique(spooled.sha256, originalExtension);
    const name = userFileName({ unique, sha256Hash: spooled.sha256, originalExtension });
    const keys: string[] = [];
    try {
      for (const [size, buffer] of thumbnails ?? []) {
        keys.push(thumbnailKey(size, name));
        await this.storage.save(thumbnailKey(size, name), buffer, { contentType: mimeType, inline: true });
      }
      keys.push(userFileKey(name));
      await this.storage.save(userFileKey(name), createReadStream(spooled.path), { contentType: mimeType, inline: isImage });
      return await this.db.run(() =>
        this.files.insert({
          originalName,
          originalExtension,
          unique,
          size: spooled.size,
          mimeType,
          isImage,
          imageWidth: isImage ? image!.width : null,
          imageHeight: isImage ? image!.height : null,
          uploadedAt: new Date(),
          uploadedById: user?.id ?? null,
          sha256Hash: spooled.sha256,
        }),
      );
    } catch (error) {
      // Nothing stays behind a failed upload.
      await Promise.all(keys.map((key) => this.storage.delete(key).catch((e: Error) => this.logger.warn(`Could not delete ${key}: ${e.message}`))));
      throw error;
    }
  }

  private async generateUnique(sha256Hash: string, originalExtension: string): Promise<string> {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const unique = Array.from({ length: 32 }, () => UNIQUE_ALPHABET[randomInt(UNIQUE_ALPHABET.length)]).join('');
      if (!(await this.files.nameTaken(unique, sha256Hash, originalExtension))) return unique;
    }
    throw new Error('Tried 1000 uniques, but none of them are unique.');
  }

  async serialize(file: UserFileEntity): Promise<UserFileJson> {
    const name = userFileName(file);
    return {
      size: file.size,
      mime_type: file.mimeType,
      is_image: file.isImage,
      image_width: file.imageWidth,
      image_height: file.imageHeight,
      uploaded_at: toApiDateTime(file.uploadedAt)!,
      url: await this.storage.url(userFileKey(name)),
      thumbnails: await this.thumbnails(file),
      name,
      original_name: file.originalName,
    };
  }

  /** The thumbnails object of a file (null for files that are not images). */
  async thumbnails(file: Pick<UserFileEntity, 'isImage' | 'unique' | 'sha256Hash' | 'originalExtension'>): Promise<UserFileJson['thumbnails']> {
    if (!file.isImage) return null;
    const name = userFileName(file);
    const result: NonNullable<UserFileJson['thumbnails']> = {};
    for (const [size, [width, height]] of Object.entries(THUMBNAILS)) {
      result[size] = { url: await this.storage.url(thumbnailKey(size, name)), width, height };
    }
    return result;
  }
}

/** The `type/subtype` of a Content-Type value (parameters dropped), or null when it is none or too long to store. */
function mediaType(value: string | null | undefined): string | null {
  const type = value?.split(';')[0].trim().toLowerCase() ?? '';
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(type) && type.length <= 127 ? type : null;
}

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
