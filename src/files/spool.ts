import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileTooLargeError } from './user-files.errors';

/** How many leading bytes are kept in memory for type detection (file-type reads at most 4100). */
const HEAD_BYTES = 4100;
const PREFIX = 'rowspace-upload-';

/** An incoming file written to a temporary file while it is hashed and measured; `discard()` removes it. */
export interface SpooledFile {
  path: string;
  size: number;
  sha256: string;
  /** The first bytes, to read the real type from. */
  head: Buffer;
  discard(): Promise<void>;
}

/**
 * Streams `body` to a temporary file, stopping with FileTooLargeError as soon as more than
 * `limitBytes` arrived: an upload is never held in memory and a refused one leaves nothing.
 */
export async function spool(body: Readable, limitBytes: number, dir: string): Promise<SpooledFile> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${PREFIX}${randomBytes(12).toString('hex')}`);
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      size += chunk.length;
      if (size > limitBytes) return callback(new FileTooLargeError(limitBytes));
      hash.update(chunk);
      if (headLength < HEAD_BYTES) {
        const part = chunk.subarray(0, HEAD_BYTES - headLength);
        head.push(part);
        headLength += part.length;
      }
      callback(null, chunk);
    },
  });
  const discard = (): Promise<void> => rm(path, { force: true });
  const out = createWriteStream(path);
  try {
    await pipeline(body, meter, out);
  } catch (error) {
    // The file may still be opening: remove it only once the stream let go of it.
    if (!out.closed) await once(out, 'close').catch(() => undefined);
    await discard();
    throw error;
  }
  return { path, size, sha256: hash.digest('hex'), head: Buffer.concat(head), discard };
}

/** Removes spooled files older than `maxAgeMs` that a crashed process left in `dir`. */
export async function removeStaleSpools(dir: string, maxAgeMs: number, now = Date.now()): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  for (const name of names.filter((n) => n.startsWith(PREFIX))) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > maxAgeMs) {
      await rm(path, { force: true });
      removed += 1;
    }
  }
  return removed;
}
