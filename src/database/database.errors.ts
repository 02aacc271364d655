import { ApiError } from '../core/errors/api-error';

/** The errors of tables, fields and rows, with Baserow's codes, statuses and details. */
export const DatabaseErrors = {
  tableDoesNotExist: () => new ApiError('ERROR_TABLE_DOES_NOT_EXIST', 404, 'The requested table does not exist.'),
  /** A database token used on a table outside its workspace or its permissions. */
  noPermissionToTable: () => new ApiError('ERROR_NO_PERMISSION_TO_TABLE', 401, 'The token does not have permissions to the table.'),
  tableNotInDatabase: (id: number) => new ApiError('ERROR_TABLE_NOT_IN_DATABASE', 400, `The table id ${id} does not belong to the database.`),
  fieldDoesNotExist: () => new ApiError('ERROR_FIELD_DOES_NOT_EXIST', 404, 'The requested field does not exist.'),
  /** The table's fields changed while an import wrote in chunks (its columns no longer name the same fields). */
  importFieldsChanged: () => new ApiError('ERROR_IMPORT_FIELDS_CHANGED', 400, "The table's fields changed during the import; the rows it had imported were removed."),
  fieldNotInTable: () => new ApiError('ERROR_FIELD_NOT_IN_TABLE', 400, 'The provided field does not belong in the related table.'),
  cannotDeletePrimaryField: () => new ApiError('ERROR_CANNOT_DELETE_PRIMARY_FIELD', 400, ''),
  cannotChangeFieldType: () => new ApiError('ERROR_CANNOT_CHANGE_FIELD_TYPE', 400, ''),
  maxFieldCountExceeded: () => new ApiError('ERROR_MAX_FIELD_COUNT_EXCEEDED', 400, ''),
  maxFieldNameLength: () => new ApiError('ERROR_MAX_FIELD_NAME_LENGTH_EXCEEDED', 400, 'You cannot set a field name longer than 255 characters.'),
  fieldNameTaken: () =>
    new ApiError(
      'ERROR_FIELD_WITH_SAME_NAME_ALREADY_EXISTS',
      400,
      'You cannot have two fields with the same name in the same table, please choose a unique name for each field.',
    ),
  reservedFieldName: () =>
    new ApiError(
      'ERROR_RESERVED_BASEROW_FIELD_NAME',
      400,
      'The field names id,order are reserved and cannot and cannot be used for a user created field, please choose different field name.',
    ),
  invalidFieldName: () => new ApiError('ERROR_INVALID_BASEROW_FIELD_NAME', 400, 'Fields must not be blank or only consist of whitespace.'),
  incompatiblePrimaryFieldType: (type: string) =>
    new ApiError('ERROR_INCOMPATIBLE_PRIMARY_FIELD_TYPE', 400, `The field type ${type} is not compatible with the primary field.`),
  fieldIsAlreadyPrimary: () => new ApiError('ERROR_FIELD_IS_ALREADY_PRIMARY', 400, 'The provided field is already the primary field.'),
  dbIndexNotSupported: (type: string) => new ApiError('ERROR_DB_INDEX_NOT_SUPPORTED', 400, `The field type ${type} does not support a database index.`),
  incompatibleForUniqueValues: () =>
    new ApiError('ERROR_INCOMPATIBLE_FIELD_TYPE_FOR_UNIQUE_VALUES', 400, 'The requested field type is not compatible with generating unique values.'),
  rowDoesNotExist: (ids: (number | string)[]) => new ApiError('ERROR_ROW_DOES_NOT_EXIST', 404, `The rows ${pyList(ids)} do not exist.`),
  rowIdsNotUnique: (ids: number[]) => new ApiError('ERROR_ROW_IDS_NOT_UNIQUE', 400, `The provided row ids ${pyList(ids)} are not unique.`),
  pageSizeLimit: (limit: number) => new ApiError('ERROR_PAGE_SIZE_LIMIT', 400, `The page size is limited to ${limit}.`),
  orderByFieldNotFound: (name: string) => new ApiError('ERROR_ORDER_BY_FIELD_NOT_FOUND', 400, `The field ${name} was not found in the table.`),
  orderByFieldNotPossible: (name: string, sortType: string, fieldType: string) =>
    new ApiError(
      'ERROR_ORDER_BY_FIELD_NOT_POSSIBLE',
      400,
      `It is not possible to order by ${name} using sort type ${sortType} because the field type ${fieldType} does not support it.`,
    ),
  filterFieldNotFound: (name: string) => new ApiError('ERROR_FILTER_FIELD_NOT_FOUND', 400, `The field ${name} was not found in the table.`),
  filterTypeDoesNotExist: (type: string) => new ApiError('ERROR_VIEW_FILTER_TYPE_DOES_NOT_EXIST', 400, `The view filter type ${type} doesn't exist.`),
  filterTypeUnsupportedField: (type: string, fieldType: string) =>
    new ApiError('ERROR_VIEW_FILTER_TYPE_UNSUPPORTED_FIELD', 400, `The filter ${type} is not compatible with field type ${fieldType}.`),
  viewDoesNotExist: () => new ApiError('ERROR_VIEW_DOES_NOT_EXIST', 404, 'The requested view does not exist.'),
  initialDataDuplicateNames: () =>
    new ApiError('ERROR_INITIAL_TABLE_DATA_HAS_DUPLICATE_NAMES', 400, 'Field names must be unique in Baserow per table however the initial table data provided contains duplicate field names, please make them unique.'),
  invalidInitialData: () =>
    new ApiError('ERROR_INVALID_INITIAL_TABLE_DATA', 400, 'The provided table data must at least contain one row and one column.'),
};

/** Python's repr of a list, as Baserow's messages show ids: `[5, 6]`, `['5']`. */
export function pyList(ids: readonly unknown[]): string {
  return `[${ids.map((id) => (typeof id === 'string' ? `'${id}'` : String(id))).join(', ')}]`;
}
