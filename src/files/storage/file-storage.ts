import type { Readable } from 'node:stream';

/**
 * Where files live (user files, thumbnails, exports, templates' files): a flat key space
 * (`user_files/<name>`, `thumbnails/tiny/<name>`, `export_files/<name>`) on disk or in an
 * S3-compatible bucket. Keys are built by the server from generated names only, never from
 * what a client sent.
 */
export abstract class FileStorage {
  /**
   * Stores `body` under `key` (replacing what was there). `inline` only for images whose content
   * was decoded: everything else downloads as an attachment, whatever its type says.
   */
  abstract save(key: string, body: Buffer | Readable, serving: StoredType): Promise<void>;
  /** The stored bytes as a stream; rejects with FileNotStoredError when there is nothing under `key`. */
  abstract open(key: string): Promise<Readable>;
  abstract exists(key: string): Promise<boolean>;
  /** Removes what is under `key`; nothing there is not an error. */
  abstract delete(key: string): Promise<void>;
  /** The absolute URL clients download `key` from (a signed one when the bucket is private). */
  abstract url(key: string, options?: { downloadName?: string }): Promise<string>;
}

/** How a stored file is served: its type, and whether a browser may show it in place. */
export interface StoredType {
  contentType: string;
  inline: boolean;
}

export class FileNotStoredError extends Error {
  constructor(readonly key: string) {
    super(`Nothing is stored under ${key}.`);
  }
}

/** A key is made of generated path segments: letters, digits, `_`, `-`, `.` (not leading), separated by `/`. */
export function assertSafeKey(key: string): void {
  if (!/^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(key) || key.includes('..')) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}
