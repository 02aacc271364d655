import { ApiError } from '../../core/errors/api-error';

/** The errors of grid aggregations, with Baserow's codes, statuses and details. */
export const AggregationErrors = {
  typeDoesNotExist: () => new ApiError('ERROR_AGGREGATION_TYPE_DOES_NOT_EXIST', 400, 'The specified aggregation type does not exist.'),
  unsupportedField: () => new ApiError('ERROR_AGGREGATION_DOES_NOT_SUPPORTED_FIELD', 400, 'The aggregation type does not support the given field.'),
};
