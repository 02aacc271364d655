import { ApiError, validationError } from '../../core/errors/api-error';

/** The errors of saved filters and filter groups, with Baserow's codes, statuses and details. */
export const ViewFilterErrors = {
  notSupported: () => new ApiError('ERROR_VIEW_FILTER_NOT_SUPPORTED', 400, 'Filtering is not supported for the view type.'),
  filterDoesNotExist: () => new ApiError('ERROR_VIEW_FILTER_DOES_NOT_EXIST', 404, 'The view filter does not exist.'),
  groupDoesNotExist: () => new ApiError('ERROR_VIEW_FILTER_GROUP_DOES_NOT_EXIST', 404, 'The view filter group does not exist.'),
  /** A body's primary key that names no object (DRF's `PrimaryKeyRelatedField`). */
  pkDoesNotExist: (key: string, value: unknown) =>
    validationError({ [key]: [{ error: `Invalid pk "${typeof value === 'string' ? value : String(value)}" - object does not exist.`, code: 'does_not_exist' }] }),
  groupCycle: () => validationError({ parent_group: [{ error: 'A filter group cannot be nested inside itself.', code: 'invalid' }] }),
};
