import { Injectable, OnModuleInit } from '@nestjs/common';
import { UnitOfWork } from '../../core/database/unit-of-work';
import type { DomainEvent, RowSnapshot } from '../../core/events/domain-events';
import { TableContextService } from '../table-context';
import { fieldColumn } from './field-type';
import { RowCellNotice, RowNotifications } from './row-notifications';

interface Change {
  /** The row before the transaction (null: created in it) and as the transaction left it. */
  before: RowSnapshot | null;
  after: RowSnapshot;
  senderId: number | null;
}

/** The user ids of a `multiple_collaborators` cell as rows carry it (`[{id, name}]`). */
const collaboratorIds = (value: unknown): number[] => (Array.isArray(value) ? value.map((c) => Number((c as { id?: unknown })?.id)).filter(Number.isInteger) : []);

/**
 * `collaborator_added_to_row` (Baserow's `fields/notification_types.py`): users newly added to a
 * row's `multiple_collaborators` cell whose field has `notify_user_when_added` are notified,
 * one notification per field and row, told to each user in one message. Derived, as the
 * transaction is about to commit, from the rows it created and updated (Baserow's
 * `rows_created`/`rows_updated` receivers), so table duplications and templates, which write
 * no rows events, notify nobody.
 */
@Injectable()
export class CollaboratorNotifications implements OnModuleInit {
  constructor(
    private readonly db: UnitOfWork,
    private readonly contexts: TableContextService,
    private readonly rowNotifications: RowNotifications,
  ) {}

  onModuleInit(): void {
    this.db.beforeCommit((events) => this.flush(events));
  }

  /** Per table, per row: how the transaction changed it. */
  private changes(events: readonly DomainEvent[]): Map<number, Map<number, Change>> {
    const tables = new Map<number, Map<number, Change>>();
    for (const event of events) {
      if (event.name !== 'rows.created' && event.name !== 'rows.updated') continue;
      const { payload } = event as DomainEvent<'rows.created' | 'rows.updated'>;
      const rowsBefore = event.name === 'rows.updated' ? (payload as DomainEvent<'rows.updated'>['payload']).rowsBefore : [];
      const rows = tables.get(payload.tableId) ?? new Map<number, Change>();
      for (const after of payload.rows ?? []) {
        const known = rows.get(after.id);
        const before = known ? known.before : (rowsBefore.find((row) => row.id === after.id) ?? null);
        rows.set(after.id, { before, after, senderId: event.actor.userId });
      }
      if (rows.size) tables.set(payload.tableId, rows);
    }
    return tables;
  }

  private async flush(events: readonly DomainEvent[]): Promise<void> {
    const tables = this.changes(events);
    if (!tables.size) return;
    for (const [tableId, rows] of tables) {
      const context = await this.contexts.ofTable(tableId);
      const fields = context?.fields.filter((f) => f.type === 'multiple_collaborators' && f.properties.notify_user_when_added !== false) ?? [];
      if (!context || !fields.length) continue;
      const added: RowCellNotice[] = [];
      for (const field of fields) {
        const key = fieldColumn(field);
        for (const { before, after, senderId } of rows.values()) {
          const had = new Set(collaboratorIds(before?.[key]));
          const userIds = collaboratorIds(after[key]).filter((id) => !had.has(id));
          if (userIds.length) added.push({ fieldId: field.id, rowId: after.id, userIds, senderId });
        }
      }
      // Only members can be in the cell; one who left since is not notified.
      await this.rowNotifications.notify(context, 'collaborator_added_to_row', added, { membersOnly: true });
    }
  }
}
