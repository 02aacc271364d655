import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGunzip, createGzip } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import type { ApplicationDocument, ApplicationPart } from '../applications/application-type';
import { FileStorage } from '../files/storage/file-storage';

const FORMAT = 'rowspace.snapshot';
const VERSION = 1;

/** What writing a snapshot's document produced. */
export interface WrittenSnapshot {
  key: string;
  /** Bytes stored (compressed). */
  size: number;
  /** The user files its file cells name. */
  files: Set<string>;
}

/**
 * A snapshot's document in the file storage (the disk under MEDIA_ROOT, or the S3 bucket):
 * gzip-compressed JSON lines, `snapshots/<random>.jsonl.gz`. The first line is the
 * application's document without rows, each next line a batch of one table's rows, so the
 * document is written and read a batch at a time, never held whole as text. Files, not the
 * metadata database: a snapshot is written once and read whole, its size grows with the data,
 * and SQLite would hold its one writer (PostgreSQL its WAL) for every byte of it.
 */
@Injectable()
export class SnapshotStore {
  constructor(private readonly storage: FileStorage) {}

  /** Writes the parts of an export; `batch` is told after each batch of rows (a job's progress: it throws to cancel). */
  async write(parts: AsyncIterable<ApplicationPart>, batch: (rows: number) => Promise<void>): Promise<WrittenSnapshot> {
    const key = `snapshots/${randomBytes(16).toString('hex')}.jsonl.gz`;
    const files = new Set<string>();
    let size = 0;
    const lines = Readable.from(snapshotLines(parts, files, batch), { objectMode: false });
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const body = new PassThrough();
    const piped = pipeline(lines, createGzip({ level: constants.Z_BEST_SPEED }), counter, body);
    // Both settled before a failure is answered: the storage removes what it half wrote first.
    const [exported, save] = await Promise.allSettled([piped.catch((error: unknown) => (body.destroy(error as Error), Promise.reject(error))), this.storage.save(key, body, { contentType: 'application/gzip', inline: false })]);
    const failure = exported.status === 'rejected' ? exported : save.status === 'rejected' ? save : null;
    if (failure) {
      await this.storage.delete(key).catch(() => undefined);
      throw failure.reason;
    }
    return { key, size, files };
  }

  /** The stored document, its rows back in their tables (as the application type's import takes it). */
  async read(key: string): Promise<ApplicationDocument> {
    const gunzip = createGunzip();
    const source = await this.storage.open(key);
    const piped = pipeline(source, gunzip).catch((error: unknown) => {
      gunzip.destroy(error as Error);
    });
    let document: ApplicationDocument | null = null;
    const tables = new Map<number, { rows: unknown[] }>();
    for await (const line of createInterface({ input: gunzip, crlfDelay: Infinity })) {
      if (!line) continue;
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (!document) {
        if (entry.format !== FORMAT || entry.version !== VERSION || !entry.document) throw new Error(`${key} is not a snapshot of a known version.`);
        document = entry.document as ApplicationDocument;
        for (const table of (document.tables as { id: number; rows: unknown[] }[] | undefined) ?? []) tables.set(table.id, table);
        continue;
      }
      const table = tables.get(Number(entry.table));
      if (!table || !Array.isArray(entry.rows)) throw new Error(`${key} has rows of an unknown table.`);
      for (const row of entry.rows) table.rows.push(row);
    }
    await piped;
    if (!document) throw new Error(`${key} is empty.`);
    return document;
  }

  async delete(key: string): Promise<void> {
    await this.storage.delete(key);
  }
}

/** The lines of a snapshot, noting the user files of file cells (a database's `file` fields) on the way. */
async function* snapshotLines(parts: AsyncIterable<ApplicationPart>, files: Set<string>, batch: (rows: number) => Promise<void>): AsyncGenerator<string> {
  const fileCells = new Map<number, string[]>();
  for await (const part of parts) {
    if (part.kind === 'document') {
      for (const table of (part.document.tables as { id: number; fields?: { id: number; type: string }[] }[] | undefined) ?? []) {
        fileCells.set(table.id, (table.fields ?? []).filter((field) => field.type === 'file').map((field) => `field_${field.id}`));
      }
      yield `${JSON.stringify({ format: FORMAT, version: VERSION, document: part.document })}\n`;
      continue;
    }
    for (const key of fileCells.get(part.table) ?? []) {
      for (const row of part.rows) {
        const cell = row[key];
        if (Array.isArray(cell)) for (const file of cell) if (file && typeof file.name === 'string') files.add(file.name);
      }
    }
    yield `${JSON.stringify({ table: part.table, rows: part.rows })}\n`;
    await batch(part.rows.length);
  }
}
