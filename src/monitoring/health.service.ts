import { statfs } from 'node:fs/promises';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { RedisService } from '../core/redis/redis.service';
import { JobRepository } from '../jobs/job.repository';
import { MonitoringRepository } from './monitoring.repository';

/** Baserow's full health check answer (django-health-check's plugin names and statuses). */
export interface FullHealth {
  passing: boolean;
  checks: Record<string, string>;
  celery_queue_size: number;
  celery_export_queue_size: number;
}

const WORKING = 'working';
const REDIS_TIMEOUT_MS = 3000;

/** The checks behind `/api/_health/` and the staff-only `/api/_health/full/`. */
@Injectable()
export class HealthService {
  constructor(
    private readonly repo: MonitoringRepository,
    private readonly jobs: JobRepository,
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The plain check: the database answers (an error is a 500). */
  ping(): Promise<void> {
    return this.repo.ping();
  }

  /**
   * Every check, named as Baserow's plugins are: a failing one reads `unavailable: …` (or
   * `warning: …`) and makes `passing` false. There is no Celery: background jobs run in the
   * instance, and `celery_queue_size` counts the jobs waiting to start.
   */
  async full(): Promise<FullHealth> {
    const checks: Record<string, string> = {};
    checks.DatabaseBackend = await this.repo.ping().then(
      () => WORKING,
      () => 'unavailable: Database error',
    );
    checks.DiskUsage = await this.disk();
    if (this.redis.enabled) checks.RedisHealthCheck = await this.redisCheck();
    const sorted = Object.fromEntries(Object.entries(checks).sort(([a], [b]) => a.localeCompare(b)));
    const pending = checks.DatabaseBackend === WORKING ? ((await this.jobs.countByState()).pending ?? 0) : 0;
    return {
      passing: Object.values(checks).every((status) => status === WORKING),
      checks: sorted,
      celery_queue_size: pending,
      celery_export_queue_size: 0,
    };
  }

  private async disk(): Promise<string> {
    try {
      const stats = await statfs(this.config.dataDir);
      const free = stats.bavail * stats.bsize;
      if (free >= this.config.healthMinFreeDiskBytes) return WORKING;
      const mb = (bytes: number) => Math.floor(bytes / 1024 / 1024);
      return `warning: ${mb(free)} MB free for the data folder, below the ${mb(this.config.healthMinFreeDiskBytes)} MB minimum`;
    } catch (error) {
      return `unavailable: The data folder cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
  }

  private async redisCheck(): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('unavailable: Unable to connect to Redis: Timeout.'), REDIS_TIMEOUT_MS)));
    const ping = this.redis.client.ping().then(
      (answer) => (answer === 'PONG' ? WORKING : `unavailable: Unexpected answer from Redis: ${answer}`),
      (error: Error) => `unavailable: Unable to connect to Redis: ${error.message}`,
    );
    try {
      return await Promise.race([ping, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
