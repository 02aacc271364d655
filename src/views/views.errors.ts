import { ApiError } from '../core/errors/api-error';
import { DatabaseErrors } from '../database/database.errors';

/** The errors of views, with Baserow's codes, statuses and details. */
export const ViewErrors = {
  viewDoesNotExist: DatabaseErrors.viewDoesNotExist,
  gridDoesNotExist: () => new ApiError('ERROR_GRID_DOES_NOT_EXIST', 404, 'The requested grid view does not exist.'),
  viewNotInTable: (id: number) => new ApiError('ERROR_VIEW_NOT_IN_TABLE', 400, `The view id ${id} does not belong to the table.`),
  unrelatedField: () => new ApiError('ERROR_UNRELATED_FIELD', 400, 'The field is not related to the provided view.'),
  cannotShare: () => new ApiError('ERROR_CANNOT_SHARE_VIEW_TYPE', 400, 'This view type does not support sharing.'),
  noFieldOptions: () =>
    new ApiError('ERROR_VIEW_DOES_NOT_SUPPORT_FIELD_OPTIONS', 400, 'This view model does not support field options.'),
};
