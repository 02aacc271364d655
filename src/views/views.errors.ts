import { ApiError } from '../core/errors/api-error';
import { DatabaseErrors } from '../database/database.errors';

/** The errors of views, with Baserow's codes, statuses and details. */
export const ViewErrors = {
  viewDoesNotExist: DatabaseErrors.viewDoesNotExist,
  gridDoesNotExist: () => new ApiError('ERROR_GRID_DOES_NOT_EXIST', 404, 'The requested grid view does not exist.'),
  galleryDoesNotExist: () => new ApiError('ERROR_GALLERY_DOES_NOT_EXIST', 404, 'The requested gallery view does not exist.'),
  kanbanDoesNotExist: () => new ApiError('ERROR_KANBAN_DOES_NOT_EXIST', 404, 'The requested kanban view does not exist.'),
  kanbanHasNoSingleSelectField: () =>
    new ApiError('ERROR_KANBAN_VIEW_HAS_NO_SINGLE_SELECT_FIELD', 400, 'The requested kanban view does not have a single select option field.'),
  invalidSelectOptionParameter: (name: string) =>
    new ApiError(
      'ERROR_INVALID_SELECT_OPTION_PARAMETER',
      400,
      `The provided select option parameter ${name} is invalid. The following structure is expected ?select_option=id,limit,offset (e.g. ?select_option=1,2,3).`,
    ),
  calendarHasNoDateField: () => new ApiError('ERROR_CALENDAR_VIEW_HAS_NO_DATE_FIELD', 400, 'The requested calendar view does not have a date field.'),
  timelineDoesNotExist: () => new ApiError('ERROR_TIMELINE_DOES_NOT_EXIST', 404, 'The requested timeline view does not exist.'),
  formDoesNotExist: () => new ApiError('ERROR_FORM_DOES_NOT_EXIST', 404, 'The requested form does not exist.'),
  noPermissionToPublicForm: () =>
    new ApiError('ERROR_NO_PERMISSION_TO_PUBLICLY_SHARED_FORM', 401, 'The user does not have the permissions to see this password protected shared form.'),
  viewNotInTable: (id: number) => new ApiError('ERROR_VIEW_NOT_IN_TABLE', 400, `The view id ${id} does not belong to the table.`),
  unrelatedField: () => new ApiError('ERROR_UNRELATED_FIELD', 400, 'The field is not related to the provided view.'),
  cannotShare: () => new ApiError('ERROR_CANNOT_SHARE_VIEW_TYPE', 400, 'This view type does not support sharing.'),
  noFieldOptions: () =>
    new ApiError('ERROR_VIEW_DOES_NOT_SUPPORT_FIELD_OPTIONS', 400, 'This view model does not support field options.'),
};
