import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ApiError, PlainHttpError } from '../errors/api-error';
import { moduleFile } from '../workers/spawn-worker';
import { WorkerBudget, WorkerBudgetExceeded, WorkerPool } from '../workers/worker-pool';
import { assembleJsonBody, JsonBodyPiece } from './json-body.parser';

const ACCEPTS_MULTIPART = 'rowspace:accepts-multipart';

/** The route also takes a `multipart/form-data` body, which it (an interceptor of its own) reads from the raw bytes. */
export const AcceptsMultipart = (): MethodDecorator => SetMetadata(ACCEPTS_MULTIPART, true);

const ACCEPTS_FORM = 'rowspace:accepts-form';

/** The route also takes an `application/x-www-form-urlencoded` body (a browser's form post: SAML's ACS), read as an object of strings. */
export const AcceptsForm = (): MethodDecorator => SetMetadata(ACCEPTS_FORM, true);

export const isMultipart = (contentType: string | undefined): boolean => (contentType ?? '').split(';')[0].trim().toLowerCase() === 'multipart/form-data';

/** A body larger than this is parsed in a worker thread (JSON.parse of 512 KB takes a few milliseconds). */
export const JSON_BODY_WORKER_BYTES = 512 * 1024;
const PARSE_TASK = { file: moduleFile(__dirname, 'json-body.parser'), name: 'parseJsonBodyInPieces' };

/**
 * Turns the raw body into JSON after authentication has run: a body needs
 * `Content-Type: application/json` (else 415) and must parse (else 400), as in DRF.
 * A large body is parsed in the worker pool and handed back in pieces (json-body.parser.ts),
 * so that a million-row import does not hold the event loop for seconds.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly pool: WorkerPool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // Not async: most requests need no parsing in a worker, and Nest goes on at once after a guard that
  // answers a boolean (an error thrown here is a rejection of Nest's guard check, as an async one's was).
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request & { body: unknown }>();
    const raw = req.body;
    if (!Buffer.isBuffer(raw)) return true;
    if (raw.length === 0) {
      req.body = undefined;
      return true;
    }
    const contentType = req.headers['content-type'] ?? '';
    if (isMultipart(contentType) && this.reflector.get<boolean>(ACCEPTS_MULTIPART, context.getHandler())) return true;
    const mediaType = contentType.split(';')[0].trim().toLowerCase();
    if (mediaType === 'application/x-www-form-urlencoded' && this.reflector.get<boolean>(ACCEPTS_FORM, context.getHandler())) {
      req.body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
      return true;
    }
    if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) {
      throw new PlainHttpError(415, { detail: `Unsupported media type "${contentType}" in request.` });
    }
    if (raw.length > JSON_BODY_WORKER_BYTES) {
      return this.parseInWorker(raw).then((body) => {
        req.body = body;
        return true;
      });
    }
    try {
      req.body = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      throw parseError((error as Error).message);
    }
    return true;
  }

  private async parseInWorker(raw: Buffer): Promise<unknown> {
    // The parsed value takes several times the text's size; the heap cap is rounded up to a power
    // of two so that bodies of similar sizes share warm workers.
    let maxMemoryMb = 256;
    while (maxMemoryMb < (raw.length / 1024 / 1024) * 16) maxMemoryMb *= 2;
    const budget: WorkerBudget = { timeoutMs: this.config.importParseTimeoutMs, maxMemoryMb };
    try {
      // A body in a buffer of its own (as the body reader leaves a large one) is moved to the worker, not copied.
      const own = raw.byteOffset === 0 && raw.buffer.byteLength === raw.length && !(raw.buffer instanceof SharedArrayBuffer);
      const bytes = own ? new Uint8Array(raw.buffer as ArrayBuffer) : raw;
      const result = await assembleJsonBody(this.pool.stream<JsonBodyPiece>(PARSE_TASK, [bytes], budget, own ? [raw.buffer as ArrayBuffer] : []));
      if ('error' in result) throw parseError(result.error);
      return result.value;
    } catch (error) {
      if (error instanceof WorkerBudgetExceeded) {
        throw new ApiError('ERROR_REQUEST_BODY_TOO_LARGE', 413, `The request body needs more ${error.budget === 'time' ? 'time' : 'memory'} to read than is allowed.`);
      }
      throw error;
    }
  }
}

const parseError = (message: string): PlainHttpError => new PlainHttpError(400, { detail: `JSON parse error - ${message}` });
