import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { PlainHttpError } from '../errors/api-error';

const ACCEPTS_MULTIPART = 'rowspace:accepts-multipart';

/** The route also takes a `multipart/form-data` body, which it (an interceptor of its own) reads from the raw bytes. */
export const AcceptsMultipart = (): MethodDecorator => SetMetadata(ACCEPTS_MULTIPART, true);

export const isMultipart = (contentType: string | undefined): boolean => (contentType ?? '').split(';')[0].trim().toLowerCase() === 'multipart/form-data';

/**
 * Turns the raw body into JSON after authentication has run: a body needs
 * `Content-Type: application/json` (else 415) and must parse (else 400), as in DRF.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
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
    if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) {
      throw new PlainHttpError(415, { detail: `Unsupported media type "${contentType}" in request.` });
    }
    try {
      req.body = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      throw new PlainHttpError(400, { detail: `JSON parse error - ${(error as Error).message}` });
    }
    return true;
  }
}
