import { PassThrough } from 'node:stream';
import type { Writable } from 'node:stream';
import type { FileStorage } from '../../files/storage/file-storage';

/**
 * Streams an export into the file storage under `export_files/<name>`: `fill` writes the file
 * to the stream; nothing stays stored when it fails (or its job is cancelled). Answers the
 * finished job's keys (the table export's, the audit log export's).
 */
export async function storeExportFile(storage: FileStorage, name: string, contentType: string, fill: (out: Writable) => Promise<void>): Promise<{ exported_file_name: string; url: string }> {
  const key = `export_files/${name}`;
  const out = new PassThrough();
  const saving = storage.save(key, out, { contentType, inline: false });
  // Surfaced through `saving`; a write waiting on a failed store is released by the stream's error.
  saving.catch(() => out.destroy());
  try {
    await fill(out);
    out.end();
    await saving;
  } catch (error) {
    out.destroy();
    await saving.catch(() => undefined);
    await storage.delete(key).catch(() => undefined);
    throw error;
  }
  return { exported_file_name: name, url: await storage.url(key, { downloadName: name }) };
}
