import { ApiError } from '../core/errors/api-error';

/** The errors of database webhooks, with Baserow's codes, statuses and details. */
export const WebhookErrors = {
  doesNotExist: () => new ApiError('ERROR_TABLE_WEBHOOK_DOES_NOT_EXIST', 404, 'The requested table webhook does not exist.'),
  maxLimitExceeded: (max: number) =>
    new ApiError('ERROR_TABLE_WEBHOOK_MAX_LIMIT_EXCEEDED', 400, `The maximally allowed webhooks per table has been exceeded. You can create a maximum of ${max} webhooks.`),
  fieldNotInTable: (fieldId: number) =>
    new ApiError('ERROR_TABLE_WEBHOOK_EVENT_CONFIG_FIELD_NOT_IN_TABLE', 400, `The provided event config field with ID ${fieldId} does not belong to the table.`),
  // Baserow has no code for it (it answers 500): the field's, worded for a view.
  viewNotInTable: (viewId: number) =>
    new ApiError('ERROR_TABLE_WEBHOOK_EVENT_CONFIG_VIEW_NOT_IN_TABLE', 400, `The provided event config view with ID ${viewId} does not belong to the table.`),
};
