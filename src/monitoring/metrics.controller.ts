import { timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/decorators';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { PlainHttpError } from '../core/errors/api-error';
import { Metrics } from './metrics';

/** `GET /api/_metrics/` for Prometheus; only declared when METRICS_ENABLED (otherwise the URL is unknown). */
@ApiTags('Health')
@Controller()
@Public()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('api/_metrics')
  @ApiOperation({
    operationId: 'metrics',
    summary: 'Prometheus metrics of this instance (requests, sockets, jobs, database pool, process).',
    description: 'Exists when METRICS_ENABLED is true. With METRICS_TOKEN set, send `Authorization: Bearer <METRICS_TOKEN>`.',
  })
  @ApiOkResponse({ description: 'The Prometheus text format.', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiUnauthorizedResponse({ description: 'METRICS_TOKEN is set and the request does not carry it.' })
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() res: Response): Promise<void> {
    this.authorize(authorization);
    const { contentType, body } = await this.metrics.render();
    res.status(200).type(contentType).send(body);
  }

  private authorize(authorization: string | undefined): void {
    const expected = this.config.metricsToken;
    if (expected === null) return;
    const challenge = { 'WWW-Authenticate': 'Bearer realm="metrics"' };
    const match = /^Bearer\s+(\S+)\s*$/.exec(authorization ?? '');
    if (!match) throw new PlainHttpError(401, { detail: 'Authentication credentials were not provided.' }, challenge);
    const given = Buffer.from(match[1]);
    const wanted = Buffer.from(expected);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw new PlainHttpError(401, { detail: 'Invalid token.' }, challenge);
  }
}
