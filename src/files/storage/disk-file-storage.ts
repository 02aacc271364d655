import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { assertSafeKey, FileNotStoredError, FileStorage, StoredType } from './file-storage';

/** Files under MEDIA_ROOT (`./data/media` by default), served at MEDIA_URL by the media controller. */
export class DiskFileStorage extends FileStorage {
  constructor(
    readonly root: string,
    private readonly baseUrl: string,
  ) {
    super();
  }

  path(key: string): string {
    assertSafeKey(key);
    return join(this.root, ...key.split('/'));
  }

  async save(key: string, body: Buffer | Readable, _serving: StoredType): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    // Written beside the target and renamed: a reader never sees half a file.
    const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`;
    const file = Buffer.isBuffer(body) ? null : createWriteStream(temporary);
    try {
      if (file) await pipeline(body as Readable, file);
      else await writeFile(temporary, body as Buffer);
      await rename(temporary, target);
    } catch (error) {
      // A stream given up before its file was opened still opens (and creates) it: wait until it is closed.
      if (file && !file.closed) await once(file, 'close').catch(() => undefined);
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async open(key: string): Promise<Readable> {
    const path = this.path(key);
    if (!(await this.exists(key))) throw new FileNotStoredError(key);
    return createReadStream(path);
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.path(key))).isFile();
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async url(key: string): Promise<string> {
    assertSafeKey(key);
    return `${this.baseUrl.replace(/\/+$/, '')}/${key}`;
  }
}
