import { types } from 'node:util';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { answerAfterBody } from '../http/drain-body';
import type { RouteTable } from '../http/route-table';
import { ApiError, PlainHttpError } from './api-error';

/** Renders every error of the HTTP API: ApiError as `{error, detail}`, stock errors as Baserow/DRF does. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly routes: RouteTable,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    if (res.headersSent) return;
    // A streamed body (an upload) refused before it was read: answered once the rest is read.
    answerAfterBody(req, res, () => this.render(exception, req, res));
  }

  private render(exception: unknown, req: Request, res: Response): void {
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
    // Logged once, with what finds the request (its id, the route template) and never its
    // URL, parameters or body, which may hold tokens and cell values.
    const route = this.routes.templateOf(req);
    this.logger.error(
      { error: errorForLog(exception), requestId: (req as { id?: unknown }).id, method: req.method, route },
      `Unexpected error in ${req.method} ${route ?? '(unknown URL)'}`,
    );
    res.status(500).json({ error: 'ERROR_SERVER', detail: 'An unexpected error occurred.' });
  }
}

/**
 * The error's type, message and stack only: database errors also carry the query and its
 * parameters (cell values) as properties, which pino would otherwise copy into the line.
 */
function errorForLog(exception: unknown): { type: string; message: string; stack?: string } {
  // isNativeError also knows errors made in another realm (native modules under jest).
  if (!(exception instanceof Error) && !types.isNativeError(exception)) return { type: typeof exception, message: String(exception) };
  return { type: exception.name, message: exception.message, stack: exception.stack };
}
