import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { RouteTable } from '../core/http/route-table';
import { JOB_STATES } from '../jobs/job.entity';
import { JobRepository } from '../jobs/job.repository';
import { SocketRegistry } from '../realtime/socket-registry';
import { MonitoringRepository } from './monitoring.repository';

/** The label of requests to URLs no route has (one label, whatever the URL). */
const UNKNOWN_ROUTE = '(unknown)';

/**
 * The Prometheus metrics of this app, in a registry of its own (not prom-client's global one,
 * so several apps can live in one process). Requests are counted by the middleware; sockets,
 * jobs and the database pool are read when scraped. Nothing is recorded unless METRICS_ENABLED.
 */
@Injectable()
export class Metrics implements OnModuleDestroy {
  readonly registry = new Registry();
  /** Counts and times every HTTP answer by method, route template and status. */
  readonly middleware: RequestHandler;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    routes: RouteTable,
    sockets: SocketRegistry,
    jobs: JobRepository,
    repo: MonitoringRepository,
  ) {
    if (!config.metricsEnabled) {
      this.middleware = (_req, _res, next) => next();
      return;
    }
    const registers = [this.registry];
    const labelNames = ['method', 'route', 'status'] as const;
    const requests = new Counter({ name: 'rowspace_http_requests_total', help: 'HTTP requests answered, by method, route template and status.', labelNames, registers });
    const durations = new Histogram({ name: 'rowspace_http_request_duration_seconds', help: 'Time to answer HTTP requests, by method, route template and status.', labelNames, registers });
    this.middleware = (req, res, next) => {
      const start = process.hrtime.bigint();
      res.once('finish', () => {
        const labels = { method: req.method, route: routes.templateOf(req) ?? UNKNOWN_ROUTE, status: String(res.statusCode) };
        requests.inc(labels);
        durations.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
      });
      next();
    };

    new Gauge({ name: 'rowspace_websocket_connections', help: 'Open sockets of /ws/core/ on this instance.', registers, collect() {
      this.set(sockets.connections.size);
    } });
    let sentBefore = 0;
    new Counter({ name: 'rowspace_websocket_messages_sent_total', help: 'Messages sent to sockets by this instance.', registers, collect() {
      const sent = sockets.counters.messagesSent;
      if (sent > sentBefore) this.inc(sent - sentBefore);
      sentBefore = sent;
    } });
    new Gauge({ name: 'rowspace_jobs', help: 'Background jobs in the database, by state.', labelNames: ['state'], registers, async collect() {
      const counts = await jobs.countByState();
      for (const state of JOB_STATES) this.set({ state }, counts[state] ?? 0);
    } });
    new Gauge({ name: 'rowspace_database_pool_connections', help: 'Connections of the database pool: all of them, and the idle ones.', labelNames: ['state'], registers, collect() {
      const stats = repo.poolStats();
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
    } });
    new Gauge({ name: 'rowspace_database_pool_waiting', help: 'Queries or transactions waiting for a database connection.', registers, collect() {
      this.set(repo.poolStats().waiting);
    } });
    // Process memory, CPU, event-loop lag, GC: prom-client's standard set (no timers; read when scraped).
    collectDefaultMetrics({ register: this.registry });
  }

  /** The text exposition format. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  onModuleDestroy(): void {
    this.registry.clear();
  }
}
