import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, PlainHttpError } from './api-error';

/** Renders every error of the HTTP API: ApiError as `{error, detail}`, stock errors as Baserow/DRF does. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    if (res.headersSent) return;
    if (exception instanceof ApiError) {
      res.status(exception.status).json({ error: exception.code, detail: exception.detail });
      return;
    }
    if (exception instanceof PlainHttpError) {
      res.set(exception.headers).status(exception.status).json(exception.body);
      return;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        res.status(404).json({ error: 'URL_NOT_FOUND', detail: `URL ${req.path} not found.` });
        return;
      }
      if (status === 429) {
        res.status(429).json({ error: 'ERROR_TOO_MANY_REQUESTS', detail: 'Request was throttled.' });
        return;
      }
      const body = exception.getResponse();
      const detail = typeof body === 'string' ? body : ((body as { message?: unknown }).message ?? '');
      res.status(status).json({ error: 'ERROR_HTTP', detail });
      return;
    }
    this.logger.error(`${req.method} ${req.originalUrl}`, exception instanceof Error ? exception.stack : String(exception));
    res.status(500).json({ error: 'ERROR_SERVER', detail: 'An unexpected error occurred.' });
  }
}
