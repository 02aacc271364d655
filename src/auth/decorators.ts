import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { UserEntity } from '../users/user.entity';

/**
 * The `Authorization` schemes Rowspace knows: the keyword before the credential
 * (`JWT <access token>`, `Token <database token>`), the name of its security scheme in the
 * OpenAPI document (Baserow's) and how the document describes it.
 * Adding a scheme is one entry here (and its strategy in the guard).
 */
export const AUTH_SCHEMES = {
  JWT: { name: 'JWT', header: 'Authorization', description: 'A JWT access token from `POST /api/user/token-auth/`: `Authorization: JWT <access_token>`.' },
  Token: { name: 'Database token', header: 'Authorization', description: 'A database token: `Authorization: Token <key>`, on the row endpoints and the few others that accept it.' },
  /**
   * Optional: a route accepting it is open to anyone, and reads the password token of a shared
   * view when given (the view checks it; the guard only takes it from the header).
   */
  PublicView: {
    name: 'Public view',
    header: 'Baserow-View-Authorization',
    description: 'The token of a password-protected shared view, from `POST /api/database/views/{slug}/public/auth/`: `Baserow-View-Authorization: JWT <access_token>`.',
  },
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

export const OPTIONAL_USER = 'rowspace:optional-user';
/**
 * On a public route: a `JWT` header, when sent, is checked and names the user (a bad one is
 * refused, as DRF authenticates every request); without it the request is anonymous.
 */
export const OptionalUser = (): MethodDecorator => SetMetadata(OPTIONAL_USER, true);

/** The schemes a handler of a controller accepts (the method's declaration wins over the class's). */
export function authenticationOf(reflector: Reflector, handler: Function, controller: Function): readonly AuthScheme[] {
  return reflector.getAllAndOverride<AuthScheme[] | undefined>(AUTHENTICATION, [handler, controller]) ?? DEFAULT_AUTHENTICATION;
}

export type TokenOperation = 'create' | 'read' | 'update' | 'delete';
export const TOKEN_OPERATIONS_METADATA = 'rowspace:token-operations';

/**
 * On a route accepting the `Token` scheme: the operations a database token needs on the tables
 * the route names, any one of them sufficing (rows list: `read`; fields list: `read`, `create`
 * or `update`). None: the token is authenticated but may touch no table.
 */
export const TokenOperations = (...operations: TokenOperation[]): MethodDecorator & ClassDecorator => SetMetadata(TOKEN_OPERATIONS_METADATA, operations);

/** The token operations a handler declares. */
export function tokenOperationsOf(reflector: Reflector, handler: Function, controller: Function): readonly TokenOperation[] {
  return reflector.getAllAndOverride<TokenOperation[] | undefined>(TOKEN_OPERATIONS_METADATA, [handler, controller]) ?? [];
}

/** Schemes whose credentials are optional: the route is public, credentials add to it. */
export const OPTIONAL_SCHEMES: readonly AuthScheme[] = ['PublicView'];

/** The authenticated user of the request (undefined on a public route called without credentials). */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): UserEntity => {
  return context.switchToHttp().getRequest().user;
});

/** The `Baserow-View-Authorization: JWT <token>` credential of a `PublicView` route, or null. */
export const PublicViewToken = createParamDecorator((_: unknown, context: ExecutionContext): string | null => {
  return context.switchToHttp().getRequest().publicViewToken ?? null;
});
