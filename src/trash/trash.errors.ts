import { ApiError } from '../core/errors/api-error';

/** Baserow's trash errors (api/trash/errors.py and core/trash/exceptions.py). */
export const TrashErrors = {
  itemDoesNotExist: () => new ApiError('ERROR_TRASH_ITEM_DOES_NOT_EXIST', 404, 'The requested trash item does not exist.'),
  parentBeforeChild: () =>
    new ApiError('ERROR_CANNOT_RESTORE_PARENT_BEFORE_CHILD', 400, "Cannot restore a trashed item if it's parent is also trashed, please restore the parent first."),
  parentIdRequired: () => new ApiError('ERROR_PARENT_ID_MUST_BE_PROVIDED', 400, 'A parent id must be provided when using this trashable item type.'),
  parentIdForbidden: () => new ApiError('ERROR_PARENT_ID_MUST_NOT_BE_PROVIDED', 400, 'A parent id must NOT be provided when using this trashable item type.'),
  relatedTableTrashed: () =>
    new ApiError('ERROR_CANT_RESTORE_AS_RELATED_TABLE_TRASHED', 400, 'This field cannot be restored as it depends on another table which is still trashed.'),
  notOwnedByUser: () => new ApiError('ERROR_CANNOT_RESTORE_ITEM_NOT_OWNED_BY_USER', 400, 'This item cannot be restored as it is not owned by the user.'),
  alreadyDeleted: () => new ApiError('ERROR_CANNOT_DELETE_ALREADY_DELETED_ITEM', 400, 'This item has already been deleted.'),
};
