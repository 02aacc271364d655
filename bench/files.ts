/**
 * User file uploads: `POST /api/user-files/upload-file/` of a 5 MB PNG (each upload under a new
 * name, so every one is typed, hashed, thumbnailed and stored), at 1 and 4 clients, with the
 * time sharp takes for the three thumbnails of that image alone. Prints JSON like bench/rows.ts.
 *
 *   npx ts-node --swc bench/files.ts            (SQLite; DATABASE_URL=postgres://… for PostgreSQL)
 *   BENCH_SECONDS=10 BENCH_FILE_MB=5 BENCH_CONCURRENCY=1,4
 */
import { writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { makeThumbnails } from '../src/files/content';
import { envInt, log, machine, percentile, round, SECONDS, withRowspace } from './rows';

const FILE_MB = envInt('BENCH_FILE_MB', 5);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,4').split(',').map((c) => Math.floor(Number(c)));

/** A PNG of random pixels (it does not compress), about FILE_MB megabytes. */
async function noisePng(): Promise<{ buffer: Buffer; width: number; height: number }> {
  const pixels = Math.ceil((FILE_MB * 1024 * 1024) / 3);
  const width = Math.ceil(Math.sqrt(pixels * (4 / 3)));
  const height = Math.ceil(pixels / width);
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (Math.random() * 256) | 0;
  return { buffer: await sharp(raw, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer(), width, height };
}

async function upload(base: string, auth: string, name: string, content: Buffer): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  const started = performance.now();
  const res = await fetch(`${base}/api/user-files/upload-file/`, { method: 'POST', body: form, headers: { Authorization: auth } });
  const body = (await res.json()) as { is_image?: boolean; thumbnails?: unknown };
  if (res.status !== 200 || !body.is_image || !body.thumbnails) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const image = await noisePng();
  log(`image ${image.width}x${image.height}, ${round(image.buffer.length / 1024 / 1024)} MB`);
  // Thumbnails alone, in this process, from a file as the server makes them.
  const path = join(tmpdir(), `rowspace-bench-image-${process.pid}.png`);
  writeFileSync(path, image.buffer);
  const thumbnailTimes: number[] = [];
  try {
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await makeThumbnails(path, { width: image.width, height: image.height, format: 'png' }, 89_478_485);
      thumbnailTimes.push(performance.now() - started);
    }
  } finally {
    rmSync(path, { force: true });
  }

  await withRowspace('files', async (api, postgres) => {
    const base = api.base.origin;
    let counter = 0;
    const levels: Record<string, unknown> = {};
    for (const clients of CONCURRENCY) {
      log(`uploads at ${clients} clients for ${SECONDS}s`);
      const latencies: number[] = [];
      const deadline = performance.now() + SECONDS * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (performance.now() < deadline) latencies.push(await upload(base, api.jwtAuth, `photo-${++counter}.png`, image.buffer));
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      levels[`c${clients}`] = {
        uploads: latencies.length,
        req_per_s: round(latencies.length / seconds),
        mb_per_s: round((latencies.length * image.buffer.length) / 1024 / 1024 / seconds),
        p50_ms: round(percentile(latencies, 50) ?? 0, 1),
        p95_ms: round(percentile(latencies, 95) ?? 0, 1),
      };
    }
    console.log(
      JSON.stringify(
        {
          benchmark: 'files',
          database: postgres ? `postgres ${postgres.version}` : 'sqlite',
          storage: 'disk',
          image: { width: image.width, height: image.height, mb: round(image.buffer.length / 1024 / 1024), format: 'png' },
          thumbnails_ms: { p50: round(percentile(thumbnailTimes, 50) ?? 0, 1), min: round(Math.min(...thumbnailTimes), 1), sizes: 'tiny 21 high, small 48x48, card_cover 300x160' },
          upload: levels,
          seconds: SECONDS,
          machine: machine(),
        },
        null,
        2,
      ),
    );
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
