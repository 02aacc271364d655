import { ApiError } from '../core/errors/api-error';

/** Baserow enterprise's role assignment errors (baserow_enterprise/api/errors.py). */
export const RoleErrors = {
  roleDoesNotExist: () => new ApiError('ERROR_ROLE_DOES_NOT_EXIST', 404, 'The requested role does not exist.'),
  scopeDoesNotExist: () => new ApiError('ERROR_SCOPE_DOES_NOT_EXIST', 404, 'The requested scope does not exist.'),
  scopeTypeDoesNotExist: () => new ApiError('ERROR_OBJECT_SCOPE_TYPE_DOES_NOT_EXIST', 404, 'The requested scope type does not exist.'),
  subjectDoesNotExist: () => new ApiError('ERROR_SUBJECT_DOES_NOT_EXIST', 404, 'The requested subject does not exist.'),
  subjectTypeDoesNotExist: () => new ApiError('ERROR_SUBJECT_TYPE_DOES_NOT_EXIST', 404, 'The requested subject type does not exist.'),
  duplicates: (indexes: number[]) =>
    new ApiError('ERROR_DUPLICATE_ROLE_ASSIGNMENTS', 400, `The list of role assignments includes duplicates at indexes: [${indexes.join(', ')}]`),
  lastAdmin: () => new ApiError('ERROR_LAST_ADMIN_OF_GROUP', 400, "You can't remove the last admin of a workspace."),
};
