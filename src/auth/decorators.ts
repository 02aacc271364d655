import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { UserEntity } from '../users/user.entity';

/**
 * The `Authorization` schemes Rowspace knows, as Baserow names them: the keyword before the
 * credential (`JWT <access token>`, `Token <database token>`) and how the document describes it.
 * Adding a scheme is one line here (and its check in the guard).
 */
export const AUTH_SCHEMES = {
  JWT: 'A JWT access token from `POST /api/user/token-auth/`: `Authorization: JWT <access_token>`.',
  Token: 'A database token: `Authorization: Token <token>`.',
} as const;
export type AuthScheme = keyof typeof AUTH_SCHEMES;

export const AUTHENTICATION = 'rowspace:authentication';
/** What a route without its own declaration accepts. */
export const DEFAULT_AUTHENTICATION: readonly AuthScheme[] = ['JWT'];

/**
 * The credentials a route (or every route of a controller) accepts. The auth guard enforces it
 * and the OpenAPI document's `security` is derived from it: one declaration, two uses.
 * With no scheme the route is public.
 */
export const Authentication = (...schemes: AuthScheme[]): MethodDecorator & ClassDecorator => SetMetadata(AUTHENTICATION, schemes);

/** The route needs no credentials (sign-up, token-auth, settings...). */
export const Public = (): MethodDecorator & ClassDecorator => Authentication();

/** The schemes a handler of a controller accepts (the method's declaration wins over the class's). */
export function authenticationOf(reflector: Reflector, handler: Function, controller: Function): readonly AuthScheme[] {
  return reflector.getAllAndOverride<AuthScheme[] | undefined>(AUTHENTICATION, [handler, controller]) ?? DEFAULT_AUTHENTICATION;
}

/** The authenticated user of the request. */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): UserEntity => {
  return context.switchToHttp().getRequest().user;
});
