import { Field } from '../core/validation/field';

/** DRF's LimitOffsetPagination as Baserow's notification list reads it: an invalid value is the default. */
export class ListNotificationsQuery {
  @Field({ kind: 'int', min: 1, fallback: null, required: false, description: 'Notifications per page (ROW_PAGE_SIZE_LIMIT, 200, when absent or invalid; cut to it).' })
  limit?: number | null;

  @Field({ kind: 'int', min: 0, fallback: 0, required: false, description: 'Notifications to skip.' })
  offset?: number;
}

export class UpdateNotificationDto {
  @Field({ kind: 'bool', description: 'Whether the notification is read.' })
  read: boolean;
}
