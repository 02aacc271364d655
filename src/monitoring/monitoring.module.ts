import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '../core/config/config';
import { JobsModule } from '../jobs/jobs.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { MonitoringRepository } from './monitoring.repository';

/**
 * Health checks (`/api/_health/`, staff-only `/api/_health/full/`) and, with METRICS_ENABLED,
 * Prometheus metrics at `/api/_metrics/`. It reads the other modules; none of them knows it.
 */
@Module({})
export class MonitoringModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: MonitoringModule,
      imports: [JobsModule, RealtimeModule],
      controllers: [HealthController, ...(config.metricsEnabled ? [MetricsController] : [])],
      providers: [HealthService, MonitoringRepository, Metrics],
      exports: [Metrics],
    };
  }
}
