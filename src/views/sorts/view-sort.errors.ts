import { ApiError } from '../../core/errors/api-error';

/** The errors of saved sorts and group-bys, with Baserow's codes, statuses and details. */
export const ViewSortErrors = {
  sortNotSupported: () => new ApiError('ERROR_VIEW_SORT_NOT_SUPPORTED', 400, 'Sorting is not supported for the view type.'),
  sortDoesNotExist: () => new ApiError('ERROR_VIEW_SORT_DOES_NOT_EXIST', 404, 'The view sort does not exist.'),
  sortFieldAlreadyExists: () => new ApiError('ERROR_VIEW_SORT_FIELD_ALREADY_EXISTS', 400, 'A sort with the field already exists in the view.'),
  sortFieldNotSupported: () => new ApiError('ERROR_VIEW_SORT_FIELD_NOT_SUPPORTED', 400, 'The field does not support view sorting on the given type.'),
  groupByNotSupported: () => new ApiError('ERROR_VIEW_GROUP_BY_NOT_SUPPORTED', 400, 'Grouping is not supported for the view type.'),
  groupByDoesNotExist: () => new ApiError('ERROR_VIEW_GROUP_BY_DOES_NOT_EXIST', 404, 'The view group by does not exist.'),
  groupByFieldAlreadyExists: () => new ApiError('ERROR_VIEW_GROUP_BY_FIELD_ALREADY_EXISTS', 400, 'A group by for the field already exists in the view.'),
  groupByFieldNotSupported: () => new ApiError('ERROR_VIEW_GROUP_BY_FIELD_NOT_SUPPORTED', 400, 'The field does not support view grouping.'),
};
