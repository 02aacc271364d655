import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { makeThumbnails } from '../src/files/content';
import { freshDatabase, signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';
import { download, filesUnder, leftoverUploads, localServer, pngImage, startS3, uploadFile } from './support/files';

jest.setTimeout(60_000);

const NAME = /^[a-zA-Z0-9]{32}_[0-9a-f]{64}\.[a-z0-9]*$/;

function crc32(buffer: Buffer): number {
  let crc = ~0;
  for (const byte of buffer) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG whose header claims `width`×`height` pixels but carries only a few bytes of data. */
function hugePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(64))), chunk('IEND', Buffer.alloc(0))]);
}

/** A zip archive (one stored entry): what file-type calls application/zip. */
function zipArchive(): Buffer {
  const name = Buffer.from('a.txt');
  const data = Buffer.from('hello');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  return Buffer.concat([local, name, data]);
}

describe.each(['disk', 's3'] as const)(`user files (${TEST_DB}, %s storage)`, (storage) => {
  let t: TestApp;
  let owner: SignedUp;
  let s3: Awaited<ReturnType<typeof startS3>> | null = null;
  let image: Buffer;
  let origin: Awaited<ReturnType<typeof localServer>>;
  let databaseToken: string;

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3();
    t = await startApp({ FILE_UPLOAD_SIZE_LIMIT_MB: '1', FILE_UPLOAD_URL_ALLOW_PRIVATE_ADDRESSES: 'true', FILE_UPLOAD_URL_TIMEOUT_SECONDS: '2', ...(s3?.env ?? {}) });
    owner = await signUp(t, 'Owner');
    image = await pngImage(640, 480);
    origin = await localServer((req, res) => {
      const path = req.url?.split('?')[0];
      if (path === '/photo.png') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(image);
      if (req.url === '/redirect') return void res.writeHead(302, { Location: '/photo.png' }).end();
      if (path?.startsWith('/typed/')) {
        const type = new URL(req.url!, 'http://x').searchParams.get('type') ?? 'text/csv; charset=utf-8';
        return void res.writeHead(200, { 'Content-Type': type }).end('a,b\n1,2\n');
      }
      if (req.url === '/to-file') return void res.writeHead(302, { Location: 'file:///etc/passwd' }).end();
      if (req.url === '/loop') return void res.writeHead(302, { Location: '/loop' }).end();
      if (req.url === '/endless') {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        const block = Buffer.alloc(64 * 1024, 1);
        const write = (): void => {
          while (!res.destroyed && res.write(block));
          if (!res.destroyed) res.once('drain', write);
        };
        return write();
      }
      if (req.url === '/silent') return; // never answers
      if (req.url === '/declared-huge') return void res.writeHead(200, { 'Content-Length': String(5 * 1024 * 1024) }).end();
      res.writeHead(404).end('missing');
    });
    const workspaces = (await t.request('GET', '/api/workspaces/', { token: owner.token })).body;
    databaseToken = (await t.request('POST', '/api/database/tokens/', { token: owner.token, body: { name: 'files', workspace: workspaces[0].id } })).body.key;
  });

  afterAll(async () => {
    await origin?.close();
    await t?.close();
    await s3?.close();
  });

  it('uploads an image: the exact answer, thumbnails of Baserow sizes, byte-identical downloads', async () => {
    const res = await uploadFile(t, `JWT ${owner.token}`, 'holiday.PNG', image, { type: 'application/pdf' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['image_height', 'image_width', 'is_image', 'mime_type', 'name', 'original_name', 'size', 'thumbnails', 'uploaded_at', 'url'].sort());
    const sha = createHash('sha256').update(image).digest('hex');
    expect(res.body).toMatchObject({ size: image.length, mime_type: 'image/png', is_image: true, image_width: 640, image_height: 480, original_name: 'holiday.PNG' });
    expect(res.body.name).toMatch(NAME);
    expect(res.body.name.split('_')[1]).toBe(`${sha}.png`);
    expect(res.body.uploaded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
    expect(Object.keys(res.body.thumbnails)).toEqual(['tiny', 'small', 'card_cover']);
    expect(res.body.thumbnails.tiny).toMatchObject({ width: null, height: 21 });
    expect(res.body.thumbnails.small).toMatchObject({ width: 48, height: 48 });
    expect(res.body.thumbnails.card_cover).toMatchObject({ width: 300, height: 160 });
    if (storage === 'disk') {
      expect(res.body.url).toBe(`http://localhost:8000/media/user_files/${res.body.name}`);
      expect(res.body.thumbnails.small.url).toBe(`http://localhost:8000/media/thumbnails/small/${res.body.name}`);
    } else {
      expect(res.body.url).toContain(`/rowspace/user_files/${res.body.name}`);
      expect(res.body.url).toContain('X-Amz-Signature=');
    }

    const original = await download(t, res.body.url);
    expect(original.status).toBe(200);
    expect(original.body.equals(image)).toBe(true);
    expect(original.headers.get('content-type')).toBe('image/png');
    const sizes: Record<string, [number, number]> = { tiny: [28, 21], small: [48, 48], card_cover: [300, 160] };
    for (const [size, [width, height]] of Object.entries(sizes)) {
      const thumb = await download(t, res.body.thumbnails[size].url);
      expect(thumb.status).toBe(200);
      const meta = await sharp(thumb.body).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', width, height]);
    }
    // Byte for byte what sharp makes of the image, through the storage and the URLs answered.
    const dir = mkdtempSync(join(tmpdir(), 'rowspace-thumbs-'));
    writeFileSync(join(dir, 'image.png'), image);
    const expected = await makeThumbnails(join(dir, 'image.png'), { width: 640, height: 480, format: 'png' }, 89_478_485);
    rmSync(dir, { recursive: true, force: true });
    for (const size of Object.keys(sizes)) expect((await download(t, res.body.thumbnails[size].url)).body.equals(expected.get(size)!)).toBe(true);
  });

  it('makes thumbnails in the format of JPEG, WebP and GIF images', async () => {
    const png = await pngImage(90, 60);
    for (const format of ['jpeg', 'webp', 'gif'] as const) {
      const content = await sharp(png)[format]().toBuffer();
      const res = await uploadFile(t, `JWT ${owner.token}`, `picture.${format}`, content);
      expect(res.body).toMatchObject({ mime_type: `image/${format}`, is_image: true, image_width: 90, image_height: 60 });
      const tiny = await sharp((await download(t, res.body.thumbnails.tiny.url)).body).metadata();
      expect([tiny.format, tiny.width, tiny.height]).toEqual([format, 32, 21]);
    }
  });

  it('keeps identical content under one name, and a database token may upload', async () => {
    const content = Buffer.from('same bytes, same name\n');
    const first = await uploadFile(t, `JWT ${owner.token}`, 'notes.txt', content);
    const second = await uploadFile(t, `Token ${databaseToken}`, 'notes.txt', content);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.name).toBe(first.body.name);
    const renamed = await uploadFile(t, `JWT ${owner.token}`, 'other.txt', content);
    expect(renamed.body.name).not.toBe(first.body.name);
    expect(first.body).toMatchObject({ mime_type: 'text/plain', is_image: false, image_width: null, image_height: null, thumbnails: null });
  });

  it('types a file by its name unless its content is an image; only decoded images are served inline', async () => {
    // A zip and an HTML page named .png are typed by the name (as Baserow) but are no images: no
    // thumbnails, and served as a download whatever the type says.
    const page = Buffer.from('<html><script>alert(1)</script></html>');
    for (const [content, declared] of [
      [zipArchive(), 'image/png'],
      [page, 'text/html'],
    ] as const) {
      const upload = await uploadFile(t, `JWT ${owner.token}`, 'cat.png', content, { type: declared });
      expect(upload.status).toBe(200);
      expect(upload.body).toMatchObject({ mime_type: 'image/png', is_image: false, thumbnails: null, image_width: null, image_height: null });
      expect(upload.body.name).toMatch(/\.png$/);
      const served = await download(t, upload.body.url);
      expect(served.body.equals(content)).toBe(true);
      if (storage === 'disk') {
        expect(served.headers.get('content-type')).toBe('image/png');
        expect(served.headers.get('content-disposition')).toBe(`attachment; filename="cat.png"; filename*=UTF-8''cat.png`);
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      } else {
        expect(served.headers.get('content-disposition')).toBe('attachment');
      }
    }

    // An image under another name is an image: the content's type, thumbnails, shown in place.
    const disguised = await uploadFile(t, `JWT ${owner.token}`, 'photo.txt', image, { type: 'text/plain' });
    expect(disguised.body).toMatchObject({ mime_type: 'image/png', is_image: true, image_width: 640, image_height: 480 });
    const shown = await download(t, disguised.body.url);
    expect([shown.headers.get('content-type'), shown.headers.get('content-disposition')]).toEqual(['image/png', null]);

    const truncated = await uploadFile(t, `JWT ${owner.token}`, 'broken.jpg', image.subarray(0, Math.floor(image.length / 3)));
    expect(truncated.status).toBe(200);
    expect(truncated.body).toMatchObject({ mime_type: 'image/png', is_image: false, thumbnails: null });
    expect((await download(t, truncated.body.url)).headers.get('content-disposition')).toMatch(/^attachment/);

    const huge = await uploadFile(t, `JWT ${owner.token}`, 'bomb.png', hugePng(60_000, 60_000));
    expect(huge.status).toBe(200);
    expect(huge.body).toMatchObject({ mime_type: 'image/png', is_image: false, image_width: null, image_height: null, thumbnails: null });

    // The name's type (Python's mimetypes in Baserow's image), else the type the client sent, else octet-stream.
    const typed = async (name: string, content: Buffer, type?: string) => (await uploadFile(t, `JWT ${owner.token}`, name, content, { type })).body.mime_type;
    const binary = Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x10]);
    expect(await typed('program.png', binary)).toBe('image/png');
    expect(await typed('sheet.xlsx', zipArchive())).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(await typed('backup.tar.gz', binary)).toBe('application/x-tar');
    expect(await typed('README.MD', Buffer.from('# hi'))).toBe('text/markdown');
    expect(await typed('notes', Buffer.from('plain words'), 'text/csv; charset=utf-8')).toBe('text/csv');
    expect(await typed('blob', binary, 'application/x-custom')).toBe('application/x-custom');
    expect(await typed('archive.gz', binary)).toBe('application/octet-stream');
  });

  it('cleans file names: path segments are dropped, NUL refused, long names truncated in the middle', async () => {
    const traversal = await uploadFile(t, `JWT ${owner.token}`, '../../etc/passwd.txt', Buffer.from('x'));
    expect(traversal.status).toBe(200);
    expect(traversal.body.original_name).toBe('passwd.txt');
    const raw = Buffer.from('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a\u0000b.txt"\r\nContent-Type: text/plain\r\n\r\ny\r\n--xyz--\r\n');
    const nulRes = await fetch(`${t.url}/api/user-files/upload-file/`, { method: 'POST', body: raw, headers: { Authorization: `JWT ${owner.token}`, 'Content-Type': 'multipart/form-data; boundary=xyz' } });
    const nul = { status: nulRes.status, body: await nulRes.json() };
    // A NUL in a part header is malformed multipart: refused as an invalid file, never stored.
    expect(nul).toEqual({ status: 400, body: { error: 'ERROR_INVALID_FILE', detail: 'No file has been provided or the file is invalid.' } });
    const long = await uploadFile(t, `JWT ${owner.token}`, `${'a'.repeat(100)}.txt`, Buffer.from('z'));
    expect(long.body.original_name).toHaveLength(64);
    expect(long.body.original_name).toMatch(/^a+\.\.\.a+\.txt$/);
  });

  it('refuses empty, missing and oversized files and non-multipart bodies, leaving no file behind', async () => {
    const before = storage === 'disk' ? filesUnder(t.config.mediaRoot).length : 0;
    const empty = await uploadFile(t, `JWT ${owner.token}`, 'empty.txt', Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: 'ERROR_INVALID_FILE', detail: 'No file has been provided or the file is invalid.' });
    const wrongPart = await uploadFile(t, `JWT ${owner.token}`, 'a.txt', Buffer.from('a'), { field: 'document' });
    expect(wrongPart.status).toBe(400);
    expect(wrongPart.body.error).toBe('ERROR_INVALID_FILE');
    const form = new FormData();
    form.append('file', 'just text, no file');
    const field = await fetch(`${t.url}/api/user-files/upload-file/`, { method: 'POST', body: form, headers: { Authorization: `JWT ${owner.token}` } });
    expect(field.status).toBe(400);
    expect(((await field.json()) as { error: string }).error).toBe('ERROR_INVALID_FILE');
    const json = await t.request('POST', '/api/user-files/upload-file/', { token: owner.token, body: { file: 'x' } });
    expect(json.status).toBe(415);
    expect(json.body).toEqual({ detail: 'Unsupported media type "application/json" in request.' });
    const none = await t.request('POST', '/api/user-files/upload-file/', { token: owner.token });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('ERROR_INVALID_FILE');
    const broken = await t.request('POST', '/api/user-files/upload-file/', {
      token: owner.token,
      raw: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated',
      headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('ERROR_INVALID_FILE');
    const large = await uploadFile(t, `JWT ${owner.token}`, 'large.bin', Buffer.alloc(1024 * 1024 + 10, 7));
    expect(large.status).toBe(413);
    expect(large.body).toEqual({ error: 'ERROR_FILE_SIZE_TOO_LARGE', detail: 'The provided file is too large. Max 1MB is allowed.' });
    const anonymous = await uploadFile(t, null, 'a.txt', Buffer.from('a'));
    expect(anonymous.status).toBe(401);
    // Refused before its body was read: answered once the rest is read, on a connection kept open.
    expect(anonymous.headers.get('connection')).not.toBe('close');
    expect(large.headers.get('connection')).not.toBe('close');
    if (storage === 'disk') expect(filesUnder(t.config.mediaRoot)).toHaveLength(before);
    expect(leftoverUploads(t)).toEqual([]);
  });

  it('uploads via URL: follows redirects, names the file after the URL, types it by content, name, then a known served type', async () => {
    const res = await t.request('POST', '/api/user-files/upload-via-url/', { token: owner.token, body: { url: `${origin.url}/redirect` } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ original_name: 'redirect', mime_type: 'image/png', is_image: true, image_width: 640, size: image.length });
    const direct = await t.request('POST', '/api/user-files/upload-via-url/', { token: owner.token, body: { url: `${origin.url}/photo.png?size=large` } });
    expect(direct.body.original_name).toBe('photo.png');
    expect((await download(t, direct.body.url)).body.equals(image)).toBe(true);
    const served = async (path: string) => (await t.request('POST', '/api/user-files/upload-via-url/', { token: owner.token, body: { url: `${origin.url}${path}` } })).body;
    expect(await served('/typed/report')).toMatchObject({ original_name: 'report', mime_type: 'text/csv', is_image: false });
    expect(await served('/typed/report.txt')).toMatchObject({ original_name: 'report.txt', mime_type: 'text/plain' });
    expect(await served('/typed/weird?type=foobar/barfoo')).toMatchObject({ original_name: 'weird', mime_type: 'application/octet-stream' });
  });

  it('refuses bad URLs, loops, errors, endless and silent servers', async () => {
    const post = (url: unknown) => t.request('POST', '/api/user-files/upload-via-url/', { token: owner.token, body: { url } });
    expect((await post('ftp://example.com/a.png')).body).toEqual({ error: 'ERROR_INVALID_FILE_URL', detail: 'The provided URL is not valid.' });
    const invalid = await post('not a url');
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { url: [{ error: 'Enter a valid URL.', code: 'invalid' }] } });
    const unreachable = { error: 'ERROR_FILE_URL_COULD_NOT_BE_REACHED', detail: 'The provided URL could not be reached.' };
    for (const path of ['/loop', '/to-file', '/missing', '/silent']) {
      const res = await post(`${origin.url}${path}`);
      expect([path, res.status, res.body]).toEqual([path, 400, unreachable]);
    }
    for (const path of ['/endless', '/declared-huge']) {
      const res = await post(`${origin.url}${path}`);
      expect([path, res.status, res.body.error]).toEqual([path, 413, 'ERROR_FILE_SIZE_TOO_LARGE']);
    }
    expect(leftoverUploads(t)).toEqual([]);
  });
});

describe(`upload via URL refuses private addresses (${TEST_DB})`, () => {
  let t: TestApp;
  let owner: SignedUp;
  let origin: Awaited<ReturnType<typeof localServer>>;
  let hits = 0;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t);
    origin = await localServer((_req, res) => {
      hits += 1;
      res.end('secret');
    });
  });

  afterAll(async () => {
    await origin?.close();
    await t?.close();
  });

  it.each([
    ['loopback', (port: string) => `http://127.0.0.1:${port}/a`],
    ['a name resolving to loopback', (port: string) => `http://localhost:${port}/a`],
    ['IPv6 loopback', (port: string) => `http://[::1]:${port}/a`],
    ['IPv4-mapped IPv6', (port: string) => `http://[::ffff:127.0.0.1]:${port}/a`],
    ['IPv4-mapped IPv6 in hex', (port: string) => `http://[::ffff:7f00:1]:${port}/a`],
    ['private 10/8', () => 'http://10.0.0.1/a'],
    ['private 192.168/16', () => 'http://192.168.1.1/a'],
    ['link-local metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['unspecified', (port: string) => `http://0.0.0.0:${port}/a`],
    ['decimal loopback', (port: string) => `http://2130706433:${port}/a`],
  ])('%s', async (_label, make) => {
    const port = new URL(origin.url).port;
    const res = await t.request('POST', '/api/user-files/upload-via-url/', { token: owner.token, body: { url: make(port) } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERROR_FILE_URL_COULD_NOT_BE_REACHED');
    expect(hits).toBe(0);
  });
});

describe(`media route (${TEST_DB})`, () => {
  let t: TestApp;
  let owner: SignedUp;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('serves stored files only: no listing, no traversal, GET and HEAD only', async () => {
    const page = await uploadFile(t, `JWT ${owner.token}`, 'page.html', Buffer.from('<html><script>alert(1)</script></html>'));
    expect(page.body.mime_type).toBe('text/html');
    const served = await download(t, page.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const head = await fetch(page.body.url.replace('http://localhost:8000', t.url), { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(served.body.length)]);

    for (const path of [
      '/media/',
      '/media/user_files/',
      '/media/user_files',
      '/media/../package.json',
      '/media/user_files/..%2f..%2fpackage.json',
      '/media/user_files%2F' + page.body.name,
      '/media/user_files/%2e%2e/x',
      '/media/user_files/a%00.txt',
      '/media/thumbnails/huge/' + page.body.name,
      '/media/user_files/' + page.body.name.replace(/^./, (c: string) => (c === 'a' ? 'b' : 'a')),
    ]) {
      const res = await fetch(t.url + path);
      expect([path, res.status]).toEqual([path, 404]);
    }
    const post = await fetch(page.body.url.replace('http://localhost:8000', t.url), { method: 'POST' });
    expect(post.status).toBe(405);
  });
});

describe(`interrupted uploads (${TEST_DB})`, () => {
  it('are removed at the next start once a day old; recent ones (another instance) stay', async () => {
    const db = await freshDatabase();
    const dir = join(db.env.DATA_DIR, 'tmp');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'rowspace-upload-old'), 'x');
    writeFileSync(join(dir, 'rowspace-upload-recent'), 'y');
    const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
    utimesSync(join(dir, 'rowspace-upload-old'), twoDaysAgo, twoDaysAgo);
    const t = await startApp({}, db);
    try {
      expect(leftoverUploads(t)).toEqual(['rowspace-upload-recent']);
    } finally {
      await t.close();
      await db.drop();
    }
  });
});

describe(`S3 storage with a public URL (${TEST_DB})`, () => {
  it('links files and thumbnails under S3_PUBLIC_URL, unsigned, and they download byte-identical', async () => {
    const s3 = await startS3();
    const t = await startApp({ ...s3.env, S3_PUBLIC_URL: `${s3.env.S3_ENDPOINT}/rowspace` });
    try {
      const owner = await signUp(t);
      const image = await pngImage(200, 100);
      const res = await uploadFile(t, `JWT ${owner.token}`, 'public.png', image);
      expect(res.body.url).toBe(`${s3.env.S3_ENDPOINT}/rowspace/user_files/${res.body.name}`);
      expect(res.body.thumbnails.card_cover.url).toBe(`${s3.env.S3_ENDPOINT}/rowspace/thumbnails/card_cover/${res.body.name}`);
      const original = await download(t, res.body.url);
      expect([original.status, original.body.equals(image), original.headers.get('content-type')]).toEqual([200, true, 'image/png']);
      const cover = await sharp((await download(t, res.body.thumbnails.card_cover.url)).body).metadata();
      expect([cover.width, cover.height]).toEqual([300, 160]);
      const text = await uploadFile(t, `JWT ${owner.token}`, 'page.html', Buffer.from('<html></html>'));
      expect((await download(t, text.body.url)).headers.get('content-disposition')).toBe('attachment');
    } finally {
      await t.close();
      await s3.close();
    }
  });
});
