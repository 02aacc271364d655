import { Injectable } from '@nestjs/common';
import { ApplicationRepository } from '../../applications/application.repository';
import { NotificationsService, NotifyInput } from '../../notifications/notifications.service';
import { RowReader } from '../rows/row-reader';
import type { TableContext } from '../table-context';

/** Users to tell about a row's cell: who, in which field of which row, and who caused it. */
export interface RowCellNotice {
  fieldId: number;
  rowId: number;
  userIds: number[];
  senderId: number | null;
}

/**
 * Notifications about cells of rows (a collaborator added, a mention in rich text) with the data
 * Baserow gives them: the database, table, field and row, named (`row_name`: the primary value,
 * or `unnamed row <id>`). Sent grouped per user, in the caller's transaction.
 */
@Injectable()
export class RowNotifications {
  constructor(
    private readonly reader: RowReader,
    private readonly applications: ApplicationRepository,
    private readonly notifications: NotificationsService,
  ) {}

  async notify(context: TableContext, type: string, notices: RowCellNotice[], options: Pick<NotifyInput, 'membersOnly'> = {}): Promise<void> {
    if (!notices.length) return;
    const names = await this.reader.primaryValues(context, [...new Set(notices.map((n) => n.rowId))]);
    const database = await this.applications.findAny(context.table.databaseId);
    const inputs: NotifyInput[] = notices.map((notice) => ({
      userIds: notice.userIds,
      type,
      workspaceId: context.workspaceId,
      senderId: notice.senderId,
      ...options,
      data: {
        database_id: context.table.databaseId,
        database_name: database?.name ?? '',
        table_id: context.table.id,
        table_name: context.table.name,
        field_id: notice.fieldId,
        field_name: context.byId.get(notice.fieldId)?.name ?? '',
        row_id: notice.rowId,
        row_name: names[String(notice.rowId)] || `unnamed row ${notice.rowId}`,
      },
    }));
    await this.notifications.notifyUsersGrouped(inputs);
  }
}
