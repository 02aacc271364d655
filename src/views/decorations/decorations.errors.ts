import { ApiError } from '../../core/errors/api-error';

/** The errors of view decorations, with Baserow's codes, statuses and details. */
export const DecorationErrors = {
  doesNotExist: () => new ApiError('ERROR_VIEW_DECORATION_DOES_NOT_EXIST', 404, 'The view decoration does not exist.'),
  notSupported: () => new ApiError('ERROR_VIEW_DECORATION_NOT_SUPPORTED', 400, 'Decoration is not supported for the view type.'),
  providerNotCompatible: () =>
    new ApiError('ERROR_VIEW_DECORATION_VALUE_PROVIDER_NOT_COMPATIBLE', 400, 'The value provider is not compatible with the decorator type.'),
  incompatibleField: () => new ApiError('ERROR_INCOMPATIBLE_FIELD', 400, 'The provided field is not compatible with the value provider.'),
};
