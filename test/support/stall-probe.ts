import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * The measuring client of the stall suite: another user who, every `periodMs`, sends a health
 * check and a small row create in their own table, each over a keep-alive connection, and
 * records how long each waited. A kind whose previous request is still pending is not sent
 * again (its wait keeps growing and counts as it stands when the probe stops), so a stalled
 * server shows as one long wait rather than a pile of queued requests.
 */
export type ProbeKind = 'health check' | 'row create';

export interface ProbeWait {
  kind: ProbeKind;
  /** When it was sent, in ms after the probe started. */
  sentAt: number;
  ms: number;
  status: number | null;
  /** Why it failed (network error, unexpected status), or `pending` when the probe stopped first. */
  problem: string | null;
}

export interface ProbeReport {
  waits: ProbeWait[];
  /** The longest wait of all (pending ones counted at their wait so far). */
  worst: ProbeWait | null;
  /** The first request that failed (not the answer expected) or was still pending at the end. */
  failed: ProbeWait | null;
}

export interface ProbeTarget {
  url: string;
  token: string;
  tableId: number;
  /** The text field a row create fills. */
  fieldId: number;
}

interface Pending {
  sentAt: number;
  started: number;
  abort: () => void;
}

export class StallProbe {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });
  private readonly waits: ProbeWait[] = [];
  private readonly pending = new Map<ProbeKind, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private origin = 0;
  private sent = 0;

  constructor(
    private readonly target: ProbeTarget,
    private readonly periodMs: number,
    /** A single request is given up after this long (it still counts its whole wait). */
    private readonly timeoutMs: number,
  ) {}

  start(): void {
    this.origin = performance.now();
    this.tick();
    this.timer = setInterval(() => this.tick(), this.periodMs);
  }

  /** Stops sending, counts requests still pending at their wait so far, and closes the connections. */
  stop(): ProbeReport {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const now = performance.now();
    for (const [kind, pending] of this.pending) {
      this.waits.push({ kind, sentAt: pending.sentAt, ms: now - pending.started, status: null, problem: 'pending' });
      pending.abort();
    }
    this.pending.clear();
    this.agent.destroy();
    const worst = this.waits.reduce<ProbeWait | null>((max, wait) => (!max || wait.ms > max.ms ? wait : max), null);
    return { waits: [...this.waits], worst, failed: this.waits.find((wait) => wait.problem !== null) ?? null };
  }

  private tick(): void {
    this.send('health check', 'GET', '/api/_health/', null, 200);
    this.sent += 1;
    const body = JSON.stringify({ [`field_${this.target.fieldId}`]: `probe ${this.sent}` });
    this.send('row create', 'POST', `/api/database/rows/table/${this.target.tableId}/`, body, 200);
  }

  private send(kind: ProbeKind, method: string, path: string, body: string | null, expected: number): void {
    if (this.pending.has(kind)) return;
    const started = performance.now();
    const sentAt = started - this.origin;
    const done = (status: number | null, problem: string | null) => {
      if (this.pending.get(kind)?.started !== started) return;
      this.pending.delete(kind);
      this.waits.push({ kind, sentAt, ms: performance.now() - started, status, problem });
    };
    const headers: Record<string, string | number> = { Authorization: `JWT ${this.target.token}` };
    if (body !== null) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    const attempt = (retried: boolean) => {
      const req = httpRequest(this.target.url + path, { method, headers, agent: this.agent, timeout: this.timeoutMs }, (res) => {
        res.resume();
        res.once('end', () => done(res.statusCode ?? null, res.statusCode === expected ? null : `answered ${res.statusCode}`));
        res.once('error', (error) => done(res.statusCode ?? null, error.message));
      });
      req.once('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.once('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as the request left (its idle timer, late when
        // its loop was blocked) is sent again once, on a new connection; the wait counts from the first send.
        if (!retried && req.reusedSocket && error.code === 'ECONNRESET' && this.pending.get(kind)?.started === started) attempt(true);
        else done(null, error.message);
      });
      this.pending.set(kind, { sentAt, started, abort: () => req.destroy() });
      req.end(body ?? undefined);
    };
    attempt(false);
  }
}

/** A one-line account of a probe's worst wait, for failure messages and the suite's log. */
export function describeWait(wait: ProbeWait | null): string {
  if (!wait) return 'no request measured';
  const status = wait.problem ?? `answered ${wait.status}`;
  return `${wait.kind} sent at +${Math.round(wait.sentAt)} ms waited ${Math.round(wait.ms)} ms (${status})`;
}
