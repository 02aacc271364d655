import { ApiError } from '../../core/errors/api-error';

/** The errors of row comments, with Baserow's codes, statuses and details. */
export const RowCommentErrors = {
  doesNotExist: () => new ApiError('ERROR_ROW_COMMENT_DOES_NOT_EXIST', 404, 'The requested row comment does not exist.'),
  notAuthor: () => new ApiError('ERROR_USER_NOT_COMMENT_AUTHOR', 400, 'The requesting user is not the author of the comment.'),
  invalidMention: () => new ApiError('ERROR_INVALID_COMMENT_MENTION', 400, 'You cannot mention users that are not part of the workspace.'),
};
