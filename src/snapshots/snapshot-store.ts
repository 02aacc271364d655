import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGunzip, createGzip } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import type { ApplicationDocument, ApplicationPart, DocumentRows } from '../applications/application-type';
import { FileStorage } from '../files/storage/file-storage';

const FORMAT = 'rowspace.snapshot';
const VERSION = 1;
/** The start of a line of rows: `{"table":<id>,"count":<n>,"rows":[...]}`. */
const ROWS_LINE = /^\{"table":(\d+),"count":(\d+),/;

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
 * application's document without rows, each next line a batch of one table's rows
 * (`{"table":<id>,"count":<n>,"rows":[...]}`), so the document is written and read a batch at a
 * time, never held whole. Files, not the
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

  /**
   * The stored document (its tables' `rows` empty) and its rows by table, read from the file in
   * batches each time an import asks (one pass counts them here): memory holds a batch of rows,
   * not the document. A read after the file was deleted rejects with FileNotStoredError.
   */
  async open(key: string): Promise<{ document: ApplicationDocument; rows: DocumentRows }> {
    let document: ApplicationDocument | null = null;
    const counts = new Map<number, number>();
    for await (const line of this.lines(key)) {
      if (!document) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry.format !== FORMAT || entry.version !== VERSION || !entry.document) throw new Error(`${key} is not a snapshot of a known version.`);
        document = entry.document as ApplicationDocument;
        continue;
      }
      const head = ROWS_LINE.exec(line);
      if (!head) throw new Error(`${key} has a line that is not a batch of rows.`);
      counts.set(Number(head[1]), (counts.get(Number(head[1])) ?? 0) + Number(head[2]));
    }
    if (!document) throw new Error(`${key} is empty.`);
    const rows: DocumentRows = (tableId) => ({
      count: counts.get(tableId) ?? 0,
      batches: (size) => this.batches(key, tableId, size),
    });
    return { document, rows };
  }

  /** The rows of one table, in `size`s (the last batch smaller). */
  private async *batches(key: string, tableId: number, size: number): AsyncGenerator<Record<string, unknown>[]> {
    const prefix = `{"table":${tableId},`;
    let buffer: Record<string, unknown>[] = [];
    for await (const line of this.lines(key)) {
      // Other tables' batches are skipped without being parsed.
      if (!line.startsWith(prefix)) continue;
      buffer.push(...(JSON.parse(line) as { rows: Record<string, unknown>[] }).rows);
      while (buffer.length >= size) {
        yield buffer.slice(0, size);
        buffer = buffer.slice(size);
      }
    }
    if (buffer.length) yield buffer;
  }

  /** The file's lines, decompressed as they are read. */
  private async *lines(key: string): AsyncGenerator<string> {
    const gunzip = createGunzip();
    const piped = pipeline(await this.storage.open(key), gunzip);
    try {
      for await (const line of createInterface({ input: gunzip, crlfDelay: Infinity })) if (line) yield line;
      await piped;
    } finally {
      // A reader that stops early (a failed import) closes the file.
      gunzip.destroy();
      await piped.catch(() => undefined);
    }
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
    yield `${JSON.stringify({ table: part.table, count: part.rows.length, rows: part.rows })}\n`;
    await batch(part.rows.length);
  }
}
