import { Inject, Injectable } from '@nestjs/common';
import type { RequestHandler, Response } from 'express';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { THUMBNAILS } from './content';
import { DiskFileStorage } from './storage/disk-file-storage';
import { FileNotStoredError, FileStorage } from './storage/file-storage';
import { UserFileRepository } from './user-file.repository';

/** Stored keys are generated segments of these characters only; anything else names nothing. */
const KEY = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** Types of the files the server writes itself (exports), by extension; always downloads. */
const GENERATED_TYPES: Readonly<Record<string, string>> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  xml: 'application/xml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  zip: 'application/zip',
};

/** Raster types a browser shows in place; only ever for content decoded as an image at upload. */
const INLINE_TYPES = /^image\/(jpeg|png|gif|webp|tiff)$/;

/**
 * Serves the disk storage at MEDIA_URL's path (`/media/…`), as Baserow's web server does:
 * GET and HEAD of stored keys only (no listing, nothing outside MEDIA_ROOT: a key is a run of
 * safe segments, so `..`, encoded slashes and NUL name nothing), with the type read at upload,
 * `Content-Disposition: attachment` for everything but images whose content was decoded (a
 * file named `.png` that is no image downloads), and `nosniff`.
 * With S3 storage the files are linked to the bucket and this route does not exist.
 */
@Injectable()
export class MediaRoute {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly storage: FileStorage,
    private readonly files: UserFileRepository,
  ) {}

  handler(): RequestHandler {
    const storage = this.storage;
    if (!(storage instanceof DiskFileStorage)) return (_req, _res, next) => next();
    const prefix = new URL(this.config.mediaUrl).pathname.replace(/\/*$/, '/');
    return (req, res, next) => {
      if (!req.path.startsWith(prefix)) return next();
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.set('Allow', 'GET, HEAD, OPTIONS');
        res.status(405).json({ detail: `Method "${req.method}" not allowed.` });
        return;
      }
      const key = req.path.slice(prefix.length);
      if (!KEY.test(key) || key.includes('..')) return notFound(res, req.path);
      this.serve(storage, key, req.method === 'HEAD', res).catch((error: unknown) => {
        if (error instanceof FileNotStoredError) return notFound(res, req.path);
        if (res.headersSent) res.destroy();
        else next(error);
      });
    };
  }

  private async serve(storage: DiskFileStorage, key: string, headOnly: boolean, res: Response): Promise<void> {
    const type = await this.typeOf(key);
    if (!type) throw new FileNotStoredError(key);
    let size: number;
    try {
      const info = await stat(storage.path(key));
      if (!info.isFile()) throw new FileNotStoredError(key);
      size = info.size;
    } catch {
      throw new FileNotStoredError(key);
    }
    res.status(200);
    res.set({
      'Content-Type': type.contentType || 'application/octet-stream',
      'Content-Length': String(size),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, max-age=3600',
    });
    if (!type.inline || !INLINE_TYPES.test(type.contentType)) res.set('Content-Disposition', attachment(type.downloadName));
    if (headOnly) {
      res.end();
      return;
    }
    await pipeline(await storage.open(key), res);
  }

  /** How a key is served (user files and thumbnails: as read at upload), or null when it names no file. */
  private async typeOf(key: string): Promise<{ contentType: string; inline: boolean; downloadName: string | null } | null> {
    const parts = key.split('/');
    const userFileName = parts[0] === 'user_files' && parts.length === 2 ? parts[1] : parts[0] === 'thumbnails' && parts.length === 3 && parts[1] in THUMBNAILS ? parts[2] : null;
    if (userFileName !== null) {
      const file = await this.files.findByName(userFileName);
      if (!file) return null;
      return { contentType: file.mimeType, inline: file.isImage, downloadName: parts[0] === 'user_files' ? file.originalName : null };
    }
    if (parts[0] === 'user_files' || parts[0] === 'thumbnails') return null;
    // Snapshots hold whole databases: read only by their restore, never served.
    if (parts[0] === 'snapshots') return null;
    const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
    return { contentType: GENERATED_TYPES[extension] ?? 'application/octet-stream', inline: false, downloadName: null };
  }
}

function attachment(name: string | null): string {
  if (!name) return 'attachment';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function notFound(res: Response, path: string): void {
  res.status(404).json({ error: 'URL_NOT_FOUND', detail: `URL ${path} not found.` });
}
