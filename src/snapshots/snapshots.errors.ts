import { ApiError } from '../core/errors/api-error';

/** The errors of snapshots, with Baserow 1.35.3's codes, statuses and details (api/snapshots/errors.py). */
export const SnapshotErrors = {
  doesNotExist: () => new ApiError('ERROR_SNAPSHOT_DOES_NOT_EXIST', 404, 'The requested snapshot does not exist.'),
  maximumReached: () => new ApiError('ERROR_MAXIMUM_SNAPSHOTS_REACHED', 400, 'The group has already reached the snapshot limit.'),
  isBeingCreated: () => new ApiError('ERROR_SNAPSHOT_IS_BEING_CREATED', 400, 'Snapshots creation is already in progress for the application.'),
  isBeingRestored: () => new ApiError('ERROR_SNAPSHOT_IS_BEING_RESTORED', 400, "Snapshots can't be manipulated while being restored."),
  isBeingDeleted: () => new ApiError('ERROR_SNAPSHOT_IS_BEING_DELETED', 400, "Snapshots can't be manipulated while being deleted."),
  nameNotUnique: () => new ApiError('ERROR_SNAPSHOT_NAME_NOT_UNIQUE', 400, 'Snapshots names must be unique per application.'),
  operationLimitExceeded: () => new ApiError('ERROR_SNAPSHOT_OPERATION_LIMIT_EXCEEDED', 400, 'The limit of number of the same operation exceeded by the user.'),
  operationNotSupported: () => new ApiError('ERROR_APPLICATION_OPERATION_NOT_SUPPORTED', 400, 'The application does not support this operation.'),
};
