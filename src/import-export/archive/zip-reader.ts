import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import type { ZipBounds } from '../../database/import/zip-bounds';
import { ArchiveRefused } from '../import-export.errors';

/** Entries smaller than this inflated are not held to the ratio (a small repetitive JSON compresses well). */
const RATIO_FLOOR_BYTES = 1024 * 1024;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * A workspace export read entry by entry with yauzl: the central directory is read first and
 * every entry checked before anything is inflated: names that are relative and stay inside
 * the archive (no `..`, no absolute path, no backslash, no drive), no symbolic links, no
 * encryption, and declared sizes within the bounds (total inflated size, ratio). yauzl holds
 * each entry to its declared size as it inflates, so a lying entry fails while read.
 */
export class ZipArchive {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    readonly entries: ReadonlyMap<string, yauzl.Entry>,
  ) {}

  static async open(path: string, bounds: ZipBounds): Promise<ZipArchive> {
    let zip: yauzl.ZipFile;
    try {
      zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
        yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true, decodeStrings: true }, (error, file) => (error ? reject(error) : resolve(file))),
      );
    } catch (error) {
      throw new ArchiveRefused('not-a-zip', `Not a readable zip archive: ${(error as Error).message}`);
    }
    try {
      const entries = await readEntries(zip, bounds);
      return new ZipArchive(zip, entries);
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  get names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The inflated content of an entry as a stream (its size held to the declared one). */
  async stream(name: string): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new ArchiveRefused('missing', `The file ${name} does not exist.`);
    try {
      return await new Promise<Readable>((resolve, reject) => this.zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))));
    } catch (error) {
      throw new ArchiveRefused('invalid', `The entry ${name} cannot be read: ${(error as Error).message}`);
    }
  }

  /** An entry's whole content (manifest, signature, application JSON), refused beyond `maxBytes` (the archive's bounds hold besides). */
  async read(name: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<Buffer> {
    if ((this.entries.get(name)?.uncompressedSize ?? 0) > maxBytes) throw new ArchiveRefused('invalid', `The entry ${name} is larger than ${maxBytes} bytes.`);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await this.stream(name)) chunks.push(chunk as Buffer);
    } catch (error) {
      if (error instanceof ArchiveRefused) throw error;
      throw new ArchiveRefused('invalid', `The entry ${name} is corrupt: ${(error as Error).message}`);
    }
    return Buffer.concat(chunks);
  }

  /** The SHA-256 of an entry's content, read as a stream. */
  async sha256(name: string): Promise<string> {
    const hash = createHash('sha256');
    try {
      for await (const chunk of await this.stream(name)) hash.update(chunk as Buffer);
    } catch (error) {
      if (error instanceof ArchiveRefused) throw error;
      throw new ArchiveRefused('invalid', `The entry ${name} is corrupt: ${(error as Error).message}`);
    }
    return hash.digest('hex');
  }

  close(): void {
    this.zip.close();
  }
}

function readEntries(zip: yauzl.ZipFile, bounds: ZipBounds): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    let total = 0;
    const refuse = (reason: string) => reject(new ArchiveRefused('invalid', reason));
    zip.on('error', (error: Error) => refuse(`Not a readable zip archive: ${error.message}`));
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = entry.fileName;
      const problem = unsafeName(name) ?? unsafeEntry(entry);
      if (problem) return refuse(`The entry ${JSON.stringify(name)} is refused: ${problem}`);
      if (entries.has(name)) return refuse(`The entry ${JSON.stringify(name)} is in the archive twice.`);
      total += entry.uncompressedSize;
      if (total > bounds.maxInflatedBytes) return refuse(`The archive would inflate to more than ${bounds.maxInflatedBytes} bytes.`);
      if (entry.uncompressedSize > RATIO_FLOOR_BYTES && entry.uncompressedSize > bounds.maxRatio * Math.max(1, entry.compressedSize)) {
        return refuse(`The entry ${JSON.stringify(name)} inflates more than ${bounds.maxRatio} times.`);
      }
      entries.set(name, entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
}

/** Why a name could leave the folder an archive is read into, or null. */
export function unsafeName(name: string): string | null {
  if (!name || name.length > 1024) return 'empty or too long name';
  if (name.includes('\\') || name.includes('\0')) return 'backslash or NUL in the name';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'absolute path';
  if (name.split('/').some((part) => part === '..' || part === '.')) return 'path traversal';
  if (name.endsWith('/')) return 'a directory';
  return null;
}

function unsafeEntry(entry: yauzl.Entry): string | null {
  // Unix attributes in the high 16 bits (made by Unix: version made by >> 8 === 3).
  const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (entry.versionMadeBy >> 8 === 3 && mode === S_IFLNK) return 'a symbolic link';
  if (entry.isEncrypted()) return 'encrypted';
  if (!entry.canDecodeFileData()) return `compression method ${entry.compressionMethod}`;
  return null;
}
