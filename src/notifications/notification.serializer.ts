import { ApiProperty } from '@nestjs/swagger';
import { toApiDateTime } from '../core/database/columns';
import type { NotificationSnapshot } from '../core/events/domain-events';
import type { NotificationView } from './notification.repository';

class NotificationSenderJson {
  @ApiProperty() id: number;
  @ApiProperty({ description: "The sender's e-mail address." }) username: string;
  @ApiProperty() first_name: string;
}

class NotificationWorkspaceJson {
  @ApiProperty() id: number;
}

/** A notification as one recipient sees it (Baserow's NotificationRecipientSerializer), keys in its order. */
export class NotificationJson {
  @ApiProperty({ description: 'The id of the notification.' }) id: number;
  @ApiProperty({ example: 'row_comment_mention' }) type: string;
  @ApiProperty({ type: NotificationSenderJson, nullable: true }) sender: NotificationSenderJson | null;
  @ApiProperty({ type: NotificationWorkspaceJson, nullable: true, description: 'null for user-level notifications (listed in every workspace).' })
  workspace: NotificationWorkspaceJson | null;
  @ApiProperty({ format: 'date-time' }) created_on: string;
  @ApiProperty() read: boolean;
  @ApiProperty({ type: 'object', additionalProperties: true, description: "The type's data." }) data: Record<string, unknown>;
}

export class NotificationPageJson {
  @ApiProperty() count: number;
  @ApiProperty({ type: 'string', nullable: true }) next: string | null;
  @ApiProperty({ type: 'string', nullable: true }) previous: string | null;
  @ApiProperty({ type: [NotificationJson] }) results: NotificationJson[];
}

export function serializeNotification({ notification, sender, read }: NotificationView): NotificationJson & NotificationSnapshot {
  return {
    id: notification.id,
    type: notification.type,
    sender: sender ? { id: sender.id, username: sender.email, first_name: sender.firstName } : null,
    workspace: notification.workspaceId === null ? null : { id: notification.workspaceId },
    created_on: toApiDateTime(notification.createdOn)!,
    read,
    data: notification.data,
  };
}
