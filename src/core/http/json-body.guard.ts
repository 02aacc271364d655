import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { PlainHttpError } from '../errors/api-error';

/**
 * Turns the raw body into JSON after authentication has run: a body needs
 * `Content-Type: application/json` (else 415) and must parse (else 400), as in DRF.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
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
