import { Field } from '../../core/validation/field';
import { NOTIFICATION_MODES, NotificationMode } from './row-comment.entity';

/** Both DRF pagination styles, as Baserow's comment list reads them: `limit` present means limit/offset. */
export class ListRowCommentsQuery {
  @Field({ kind: 'int', min: 1, fallback: 1, required: false, description: 'The page (1 when absent or invalid).' })
  page?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Comments per page (100 when absent or invalid; at most ROW_COMMENT_PAGE_SIZE_LIMIT).' })
  size?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Comments from `offset` (limit/offset pagination when given; cut to ROW_COMMENT_PAGE_SIZE_LIMIT).' })
  limit?: number;

  @Field({ kind: 'int', min: 0, fallback: 0, required: false, description: 'Comments to skip (with `limit`).' })
  offset?: number;
}

export class RowCommentsNotificationModeDto {
  @Field({ kind: 'choice', choices: NOTIFICATION_MODES, description: '`all`: every new comment on the row; `mentions`: only those mentioning the user.' })
  mode: NotificationMode;
}
