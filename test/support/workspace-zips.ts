import { createHash, randomUUID } from 'node:crypto';
import * as yauzl from 'yauzl';
import * as yazl from 'yazl';
import { buildManifest, ManifestApplication } from '../../src/import-export/archive/manifest';
import { createKeyPair, KeyPair, signManifest } from '../../src/import-export/archive/signature';
import { Response, startApp, TestApp } from './app';
import { endedJob } from './fixtures';
import { download, postForm } from './files';

/** An app that trusts a new key pair, the one "another Baserow" signs its exports with (IMPORT_EXPORT_TRUSTED_PUBLIC_KEYS). */
export async function startAppTrustingBaserow(env: Record<string, string> = {}): Promise<{ t: TestApp; baserowKeys: KeyPair }> {
  const baserowKeys = await createKeyPair();
  const t = await startApp({ IMPORT_EXPORT_TRUSTED_PUBLIC_KEYS: Buffer.from(baserowKeys.publicKeyPem).toString('base64'), ...env });
  return { t, baserowKeys };
}

/** Uploads a zip to a workspace's import (`POST /api/workspaces/{id}/import/upload-file/`). */
export async function uploadImport(t: TestApp, token: string, workspaceId: number, zip: Buffer, name = 'export.zip'): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([zip], { type: 'application/zip' }), name);
  return postForm(t, `/api/workspaces/${workspaceId}/import/upload-file/`, form, `JWT ${token}`);
}

/** Exports a workspace and answers the finished job and the zip. */
export async function exportWorkspace(t: TestApp, token: string, workspaceId: number, body: Record<string, unknown> = {}): Promise<{ job: any; zip: Buffer }> {
  const res = await t.request('POST', `/api/workspaces/${workspaceId}/export/async/`, { token, body });
  if (res.status !== 202) throw new Error(`export: ${res.status} ${res.text}`);
  const job = await endedJob(t, token, res.body.id);
  if (job.state !== 'finished') throw new Error(`export job: ${JSON.stringify(job)}`);
  const file = await download(t, job.url);
  if (file.status !== 200) throw new Error(`download: ${file.status}`);
  return { job, zip: file.body };
}

/** Uploads and imports a zip; answers the ended import job. */
export async function importZip(t: TestApp, token: string, workspaceId: number, zip: Buffer): Promise<any> {
  const upload = await uploadImport(t, token, workspaceId, zip);
  if (upload.status !== 200) throw new Error(`upload: ${upload.status} ${upload.text}`);
  const res = await t.request('POST', `/api/workspaces/${workspaceId}/import/async/`, { token, body: { resource_id: (upload.body as any).id } });
  if (res.status !== 202) throw new Error(`import: ${res.status} ${res.text}`);
  return endedJob(t, token, res.body.id);
}

/** The entries of a zip by name. */
export async function readZip(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(zip, { lazyEntries: true }, (e, z) => (e ? reject(e) : resolve(z))));
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    file.on('error', reject);
    file.on('end', () => resolve());
    file.on('entry', (entry: yauzl.Entry) => {
      file.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          file.readEntry();
        });
      });
    });
    file.readEntry();
  });
  return entries;
}

/** A raw entry of a hand-made zip: its name, content, and optionally Unix mode bits (a symlink). */
export interface RawEntry {
  name: string;
  content: Buffer;
  mode?: number;
}

/**
 * Writes entries into a zip (in order). Names yazl refuses (`..`, absolute) are written as a
 * placeholder of the same length, then the name's bytes are put in place in the local header
 * and the central directory, as a hostile archive would have them.
 */
export async function writeZip(entries: RawEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const patches: [string, string][] = [];
  for (const [index, entry] of entries.entries()) {
    const unsafe = entry.name.split('/').includes('..') || entry.name.startsWith('/');
    const name = unsafe ? `${'Q'.repeat(Math.max(0, entry.name.length - 6))}${String(index).padStart(6, '0')}`.slice(-entry.name.length) : entry.name;
    if (unsafe) patches.push([name, entry.name]);
    zip.addBuffer(entry.content, name, { compress: true, ...(entry.mode ? { mode: entry.mode } : {}) });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  for (const [placeholder, name] of patches) {
    for (let at = bytes.indexOf(placeholder); at >= 0; at = bytes.indexOf(placeholder, at + 1)) bytes.write(name, at, 'utf8');
  }
  return bytes;
}

/** What a Baserow 1.35.3 export holds, described: the applications' serialized JSON and the user files. */
export interface BaserowExportDescription {
  applications: { id: number; name: string; type?: string; serialized: Record<string, unknown> }[];
  files?: Record<string, Buffer>;
  onlyStructure?: boolean;
  /** Signed with these keys (as `create_manifest_signature`); none: no signature file. */
  keys?: KeyPair | null;
  /** Changes to the manifest after the checksums are computed (a forged or malformed manifest). */
  tamper?: (manifest: Record<string, unknown>) => void;
  /** Entries added beyond what Baserow writes. */
  extra?: RawEntry[];
  /** Files the manifest lists but the zip leaves out. */
  omit?: string[];
}

/**
 * Builds a zip as Baserow's `ImportExportHandler.export_workspace_applications` writes it: per
 * application `<type>__<uuid hex>_<sha256 of the JSON>.json`, the user files under their names
 * (`<unique>_<sha256>.<ext>`), `manifest.json` (checksums of those files, the count with the
 * manifest and its signature) and, when signed, `manifest_signature.json`.
 */
export async function buildBaserowZip(description: BaserowExportDescription): Promise<{ zip: Buffer; manifest: Record<string, unknown> }> {
  const entries: RawEntry[] = [];
  const checksums: Record<string, string> = {};
  const items: ManifestApplication[] = [];
  for (const app of description.applications) {
    const type = app.type ?? 'database';
    const uuid = randomUUID().replace(/-/g, '');
    const content = Buffer.from(JSON.stringify(app.serialized));
    const sha = createHash('sha256').update(content).digest('hex');
    const name = `${type}__${uuid}_${sha}.json`;
    entries.push({ name, content });
    checksums[name] = sha;
    items.push({ id: app.id, type, name: app.name, uuid, total_files: 1, files: { schema: name } });
  }
  for (const [name, content] of Object.entries(description.files ?? {})) {
    entries.push({ name, content });
    checksums[name] = createHash('sha256').update(content).digest('hex');
  }
  const manifest = buildManifest(items, checksums, description.onlyStructure ?? false) as unknown as Record<string, unknown>;
  if (!description.keys) manifest.total_files = (manifest.total_files as number) - 1;
  manifest.total_files = (manifest.total_files as number) + (description.extra?.length ?? 0) - (description.omit?.length ?? 0);
  description.tamper?.(manifest);
  const signature = description.keys ? signManifest(manifest, description.keys) : null;
  const kept = entries.filter((entry) => !description.omit?.includes(entry.name));
  kept.push({ name: 'manifest.json', content: Buffer.from(JSON.stringify(manifest)) });
  if (signature) kept.push({ name: 'manifest_signature.json', content: Buffer.from(JSON.stringify(signature)) });
  kept.push(...(description.extra ?? []));
  return { zip: await writeZip(kept), manifest };
}
