import { ApiError, PlainHttpError } from '../../core/errors/api-error';

/** The errors of shared views, with Baserow's codes, statuses and details. */
export const PublicViewErrors = {
  noAuthorization: () => new ApiError('ERROR_NO_AUTHORIZATION_TO_PUBLICLY_SHARED_VIEW', 401, 'The view is password protected.'),
  /** A wrong password: DRF's AuthenticationFailed, without an error code. */
  incorrectPassword: () => new PlainHttpError(401, { detail: 'Incorrect authentication credentials.' }),
};
