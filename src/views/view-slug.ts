import { randomBytes } from 'node:crypto';

/** Baserow's `View.create_new_slug()` (`secrets.token_urlsafe()`): 43 url-safe characters. */
export const newSlug = (): string => randomBytes(32).toString('base64url');
