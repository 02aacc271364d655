import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Response, TestApp } from './app';

/** A PNG of `width`×`height` with a gradient (so thumbnails have content). */
export async function pngImage(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    pixels[i * 3] = (i % width) & 0xff;
    pixels[i * 3 + 1] = Math.floor(i / width) & 0xff;
    pixels[i * 3 + 2] = 128;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** Sends `content` as the multipart part `field` (default `file`) of an upload. */
export async function uploadFile(
  t: TestApp,
  auth: string | null,
  name: string,
  content: Buffer,
  options: { field?: string; type?: string } = {},
): Promise<Response> {
  const form = new FormData();
  form.append(options.field ?? 'file', new Blob([content], { type: options.type ?? 'application/octet-stream' }), name);
  return postForm(t, '/api/user-files/upload-file/', form, auth);
}

/** POSTs a multipart form (`auth`: the Authorization header, or none); the body is parsed when it is JSON. */
export async function postForm(t: TestApp, path: string, form: FormData, auth: string | null): Promise<Response> {
  const res = await fetch(`${t.url}${path}`, { method: 'POST', body: form, headers: auth ? { Authorization: auth } : {} });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, text, headers: res.headers };
}

/** Downloads an answered file URL; disk URLs (under PUBLIC_URL) are fetched from the test app. */
export async function download(t: TestApp, url: string): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const local = url.replace(/^http:\/\/localhost:8000/, t.url);
  const res = await fetch(local);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/** Spooled uploads left in the instance's temporary folder (there must never be any after a request). */
export function leftoverUploads(t: TestApp): string[] {
  try {
    return readdirSync(t.config.uploadTmpDir).filter((name) => name.startsWith('rowspace-upload-'));
  } catch {
    return [];
  }
}

/** Every file under a folder, recursively (relative paths). */
export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name).slice(dir.length + 1));
  } catch {
    return [];
  }
}

/** An HTTP server on 127.0.0.1 answering with `handler`. */
export async function localServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An S3-compatible server (s3rver) on 127.0.0.1 with bucket `rowspace` in a temporary folder, and the env that points Rowspace at it. */
export async function startS3(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
   
  const S3rver = require('s3rver');
  const directory = mkdtempSync(join(tmpdir(), 'rowspace-s3-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: 'rowspace', configs: [] }] });
  const { port } = (await s3.run()) as AddressInfo;
  return {
    env: {
      S3_BUCKET: 'rowspace',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      await s3.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
