import { ApiError } from '../core/errors/api-error';

/** Baserow enterprise's team errors (baserow_enterprise/api/errors.py). */
export const TeamErrors = {
  teamDoesNotExist: () => new ApiError('ERROR_TEAM_DOES_NOT_EXIST', 404, 'The requested team does not exist.'),
  nameNotUnique: () => new ApiError('ERROR_TEAM_NAME_NOT_UNIQUE', 400, 'The specified team name is already in use in this workspace.'),
  subjectDoesNotExist: () => new ApiError('ERROR_SUBJECT_DOES_NOT_EXIST', 404, 'The requested subject does not exist.'),
  subjectNotInWorkspace: () => new ApiError('ERROR_SUBJECT_NOT_IN_GROUP', 400, "The specified subject does not belong to this team's workspace."),
  subjectTypeUnsupported: () => new ApiError('ERROR_SUBJECT_TYPE_UNSUPPORTED', 400, 'The specified subject type is not supported.'),
  roleDoesNotExist: () => new ApiError('ERROR_ROLE_DOES_NOT_EXIST', 404, 'The specified role does not exist.'),
};
