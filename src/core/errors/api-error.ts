/**
 * The one error type of the API: Baserow's machine code, the HTTP status and the detail.
 * Rendered by ApiExceptionFilter as `{"error": code, "detail": detail}`.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number = 400,
    readonly detail: unknown = '',
  ) {
    super(typeof detail === 'string' && detail ? `${code}: ${detail}` : code);
  }
}

/** A leaf of Baserow's validation detail tree. */
export interface FieldError {
  error: string;
  code: string;
}

export type ErrorTree = { [key: string]: FieldError[] | ErrorTree };

export function validationError(detail: ErrorTree, code = 'ERROR_REQUEST_BODY_VALIDATION'): ApiError {
  return new ApiError(code, 400, detail);
}

export function queryValidationError(detail: ErrorTree): ApiError {
  return new ApiError('ERROR_QUERY_PARAMETER_VALIDATION', 400, detail);
}

/** Errors that are not in the `{error, detail}` envelope (DRF stock responses such as 405, 415, JSON parse errors). */
export class PlainHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown> | unknown[],
    readonly headers: Record<string, string> = {},
  ) {
    super(JSON.stringify(body));
  }
}

// Errors shared by several modules. Module-specific errors live with their module.
export const Errors = {
  permissionDenied: () =>
    new ApiError('PERMISSION_DENIED', 401, "You don't have the required permission to execute this operation."),
  notAuthenticated: () =>
    new PlainHttpError(401, { detail: 'Authentication credentials were not provided.' }, { 'WWW-Authenticate': 'JWT realm="api"' }),
  /** DRF's IsAdminUser refusal (staff-only routes). */
  notStaff: () => new PlainHttpError(403, { detail: 'You do not have permission to perform this action.' }),
  invalidAccessToken: () =>
    new PlainHttpError(401, { detail: 'Access token is expired or invalid.', error: 'ERROR_INVALID_ACCESS_TOKEN' }, {
      'WWW-Authenticate': 'JWT realm="api"',
    }),
  userNotInWorkspace: () => new ApiError('ERROR_USER_NOT_IN_GROUP', 400, ''),
  workspaceDoesNotExist: () => new ApiError('ERROR_GROUP_DOES_NOT_EXIST', 404, 'The requested group does not exist.'),
  invalidWorkspacePermissions: (operation: string) =>
    new ApiError('ERROR_USER_INVALID_GROUP_PERMISSIONS', 400, `You need ${operation} permissions.`),
  applicationDoesNotExist: () =>
    new ApiError('ERROR_APPLICATION_DOES_NOT_EXIST', 404, 'The requested application does not exist.'),
  applicationNotInWorkspace: (id: number) => new ApiError('ERROR_APPLICATION_NOT_IN_GROUP', 400, `The application id ${id} does not belong to the group.`),
  jobDoesNotExist: () => new ApiError('ERROR_JOB_DOES_NOT_EXIST', 404, 'The requested job does not exist.'),
};
