import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedToken } from './token-authenticator';

/** The database token that authenticated the request (on routes declaring the `Token` scheme). */
export const CurrentToken = createParamDecorator((_: unknown, context: ExecutionContext): AuthenticatedToken => {
  return context.switchToHttp().getRequest().databaseToken;
});
