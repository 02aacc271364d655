import { ApiError } from '../core/errors/api-error';

/** The errors of database tokens, with Baserow's codes, statuses and details. */
export const TokenErrors = {
  tokenDoesNotExist: () => new ApiError('ERROR_TOKEN_DOES_NOT_EXIST', 404, 'The token does not exist.'),
  databaseNotInWorkspace: () => new ApiError('ERROR_DATABASE_DOES_NOT_BELONG_TO_GROUP', 400, 'The provided database does not belong to the related group.'),
  tableNotInWorkspace: () => new ApiError('ERROR_TABLE_DOES_NOT_BELONG_TO_GROUP', 400, 'The provided table does not belong to the related group.'),
  cannotIncludeRowMetadata: () => new ApiError('ERROR_CANNOT_INCLUDE_ROW_METADATA', 400, 'The token cannot include row metadata.'),
};

/**
 * Why an `Authorization: Token <key>` header was refused, as Baserow's token authentication
 * words it (`{"detail", "error"}`); its status depends on the route (see the auth guard).
 */
export class TokenAuthenticationFailure extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
  }

  static noKey = () => new TokenAuthenticationFailure('ERROR_INVALID_TOKEN_HEADER', 'Invalid token header. No token provided.');
  static spaces = () => new TokenAuthenticationFailure('ERROR_INVALID_TOKEN_HEADER', 'Invalid token header. Token string should not contain spaces.');
  static unknown = () => new TokenAuthenticationFailure('ERROR_TOKEN_DOES_NOT_EXIST', 'The provided token does not exist.');
  static ownerLeft = () => new TokenAuthenticationFailure('ERROR_TOKEN_GROUP_MISMATCH', "The token's user does not belong to the group anymore.");
  static ownerInactive = () => new TokenAuthenticationFailure('ERROR_USER_NOT_ACTIVE', 'The user related to the token is disabled.');
}
