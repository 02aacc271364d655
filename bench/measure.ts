import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Api, round } from './rows';

/** What the long-work benchmarks (import-export, workspace-export, snapshots) share: memory sampling and job polling. */
export const MB = 1024 * 1024;
const POLL_MS = 50;

/** The server's resident memory in bytes (Linux /proc), or null elsewhere. */
export function rss(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples the server's memory every 20 ms while `work` runs: the result, seconds, peak and peak growth in MB. */
export async function measured<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; seconds: number; peak_rss_growth_mb: number | null; peak_rss_mb: number | null }> {
  const before = rss(pid);
  let peak = before ?? 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rss(pid) ?? 0)), 20);
  const start = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - start) / 1000, peak_rss_growth_mb: before === null ? null : round((peak - before) / MB, 1), peak_rss_mb: before === null ? null : round(peak / MB, 1) };
  } finally {
    clearInterval(sampler);
  }
}

/** Polls a job (`/api/jobs/{id}/`, or a table export at `/api/database/export/{id}/`, whose running state is `exporting`) until it has ended, whatever its end. */
export async function ended(api: Api, path: string): Promise<any> {
  for (;;) {
    const job = await api.call('GET', path);
    if (!['pending', 'started', 'exporting'].includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
