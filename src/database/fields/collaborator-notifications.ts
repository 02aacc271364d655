import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApplicationEntity } from '../../applications/application.entity';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { NotificationsService, NotifyInput } from '../../notifications/notifications.service';
import { RowReader } from '../rows/row-reader';
import { TableContextService } from '../table-context';
import type { FieldEntity } from './field.entity';
import type { FieldContext } from './field-type';

interface Added {
  field: FieldEntity;
  tableId: number;
  rowId: number;
  userIds: number[];
  senderId: number | null;
}

/**
 * `collaborator_added_to_row` (Baserow's `fields/notification_types.py`): users newly added to a
 * row's `multiple_collaborators` cell whose field has `notify_user_when_added` are notified.
 * The cells note the additions as they are written; the notifications are made when the
 * transaction is about to commit, once the rows are complete (their primary value, which may
 * be computed, names them), one per field and row, told to each user in one message.
 */
@Injectable()
export class CollaboratorNotifications implements OnModuleInit {
  /** The additions noted in each open transaction (keyed by its entity manager). */
  private readonly pending = new WeakMap<EntityManager, Added[]>();

  constructor(
    private readonly db: UnitOfWork,
    private readonly contexts: TableContextService,
    private readonly reader: RowReader,
    private readonly notifications: NotificationsService,
  ) {}

  onModuleInit(): void {
    this.db.beforeCommit(() => this.flush());
  }

  /** Notes the users added to cells of the field, per row (only those not in the cell before). */
  added(field: FieldEntity, ctx: FieldContext, rows: { rowId: number; userIds: number[] }[]): void {
    if (field.properties?.notify_user_when_added === false || !this.db.inTransaction) return;
    const list = this.pending.get(this.db.manager) ?? [];
    for (const { rowId, userIds } of rows) if (userIds.length) list.push({ field, tableId: ctx.table.id, rowId, userIds, senderId: ctx.userId });
    if (list.length) this.pending.set(this.db.manager, list);
  }

  private async flush(): Promise<void> {
    const list = this.pending.get(this.db.manager);
    if (!list?.length) return;
    this.pending.delete(this.db.manager);
    const inputs: NotifyInput[] = [];
    for (const tableId of new Set(list.map((a) => a.tableId))) {
      const context = await this.contexts.ofTable(tableId);
      if (!context) continue;
      const added = list.filter((a) => a.tableId === tableId && context.byId.has(a.field.id));
      const names = await this.reader.primaryValues(context, [...new Set(added.map((a) => a.rowId))]);
      const database = await this.db.manager.getRepository(ApplicationEntity).findOne({ where: { id: context.table.databaseId }, select: { id: true, name: true } });
      for (const a of added) {
        // A row deleted in the same transaction names nothing.
        if (!(String(a.rowId) in names)) continue;
        inputs.push({
          userIds: a.userIds,
          type: 'collaborator_added_to_row',
          workspaceId: context.workspaceId,
          senderId: a.senderId,
          data: {
            database_id: context.table.databaseId,
            database_name: database?.name ?? '',
            table_id: tableId,
            table_name: context.table.name,
            field_id: a.field.id,
            field_name: context.byId.get(a.field.id)!.name,
            row_id: a.rowId,
            row_name: names[String(a.rowId)] || `unnamed row ${a.rowId}`,
          },
        });
      }
    }
    await this.notifications.notifyUsersGrouped(inputs);
  }
}
