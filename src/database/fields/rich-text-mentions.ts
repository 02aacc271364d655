import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { In, IsNull, LessThanOrEqual } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { UnitOfWork } from '../../core/database/unit-of-work';
import type { DomainEvent, RowSnapshot } from '../../core/events/domain-events';
import { repeatEvery } from '../../core/lifecycle/repeat-every';
import { WorkspaceUserEntity } from '../../workspaces/workspace.entity';
import { TableContextService } from '../table-context';
import { fieldColumn } from './field-type';
import { RowCellNotice, RowNotifications } from './row-notifications';
import { RichTextFieldMentionEntity } from './rich-text-mention.entity';

interface Written {
  /** The row as the transaction left it (the last snapshot of it). */
  row: RowSnapshot;
  /** The fields written (null: all, a new row). */
  fieldIds: Set<number> | null;
  senderId: number | null;
}

/** `@<user id>` in a cell, as Baserow reads mentions in rich text (`@(\d+)`). */
export function richTextMentions(content: unknown): number[] {
  if (typeof content !== 'string' || !content) return [];
  return [...new Set([...content.matchAll(/@(\d+)/g)].map((m) => Number(m[1])).filter((id) => Number.isSafeInteger(id)))];
}

/**
 * `user_mention_in_rich_text_field` (Baserow's `fields/notification_types.py`): members of the
 * workspace newly mentioned (`@<user id>`) in a rich-text long text cell are notified, once per
 * field and row, grouped per user. Derived, as the transaction is about to commit, from the
 * rows it created and updated; mentions are recorded so that only new ones notify, and removed
 * ones are remembered for BASEROW_STALE_MENTIONS_CLEANUP_INTERVAL_MINUTES.
 */
@Injectable()
export class RichTextMentionNotifications implements OnModuleInit, OnModuleDestroy {
  private stopCleanup = (): void => undefined;

  constructor(
    private readonly db: UnitOfWork,
    private readonly contexts: TableContextService,
    private readonly rowNotifications: RowNotifications,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.db.beforeCommit((events) => this.flush(events));
    // Removed mentions past their time go in the background; a write only drops those of the rows it compares.
    this.stopCleanup = repeatEvery(
      this.config.staleMentionsCleanupMinutes,
      () => this.db.run(() => this.mentions.delete({ markedForDeletionAt: LessThanOrEqual(this.staleBefore()) })),
      () => undefined,
    );
  }

  onModuleDestroy(): void {
    this.stopCleanup();
  }

  /** Mentions removed before this are forgotten: put back, they notify again. */
  private staleBefore(): Date {
    return new Date(Date.now() - this.config.staleMentionsCleanupMinutes * 60_000);
  }

  private get mentions() {
    return this.db.manager.getRepository(RichTextFieldMentionEntity);
  }

  /** The rows the transaction wrote, per table. */
  private written(events: readonly DomainEvent[]): Map<number, Map<number, Written>> {
    const tables = new Map<number, Map<number, Written>>();
    for (const event of events) {
      if (event.name !== 'rows.created' && event.name !== 'rows.updated') continue;
      const { payload } = event as DomainEvent<'rows.created' | 'rows.updated'>;
      const fieldIds = event.name === 'rows.updated' ? new Set((payload as DomainEvent<'rows.updated'>['payload']).updatedFieldIds) : null;
      const rows = tables.get(payload.tableId) ?? new Map<number, Written>();
      for (const row of payload.rows ?? []) {
        const before = rows.get(row.id);
        const merged = before && before.fieldIds && fieldIds ? new Set([...before.fieldIds, ...fieldIds]) : before ? null : fieldIds;
        rows.set(row.id, { row, fieldIds: merged, senderId: event.actor.userId });
      }
      if (rows.size) tables.set(payload.tableId, rows);
    }
    return tables;
  }

  private async flush(events: readonly DomainEvent[]): Promise<void> {
    const tables = this.written(events);
    if (!tables.size) return;
    for (const [tableId, rows] of tables) {
      const context = await this.contexts.ofTable(tableId);
      const rich = context?.fields.filter((f) => f.type === 'long_text' && f.properties.long_text_enable_rich_text) ?? [];
      if (!context || !rich.length) continue;
      const staleBefore = this.staleBefore();
      const members = new Set(
        (await this.db.manager.getRepository(WorkspaceUserEntity).find({ where: { workspaceId: context.workspaceId }, select: { userId: true } })).map((m) => m.userId),
      );
      const added: RowCellNotice[] = [];
      for (const field of rich) {
        const touched = [...rows.values()].filter((w) => !w.fieldIds || w.fieldIds.has(field.id));
        if (!touched.length) continue;
        const recorded = await this.mentions.find({ where: { tableId, fieldId: field.id, rowId: In(touched.map((w) => w.row.id)) } });
        const stale = recorded.filter((m) => m.markedForDeletionAt && m.markedForDeletionAt <= staleBefore);
        if (stale.length) await this.mentions.delete({ id: In(stale.map((m) => m.id)) });
        const existing = recorded.filter((m) => !stale.includes(m));
        for (const { row, senderId } of touched) {
          const now = richTextMentions(row[fieldColumn(field)]).filter((id) => members.has(id));
          const before = existing.filter((m) => m.rowId === row.id);
          const fresh = now.filter((id) => !before.some((m) => m.userId === id));
          if (fresh.length) await this.mentions.insert(fresh.map((userId) => ({ tableId, fieldId: field.id, rowId: row.id, userId, markedForDeletionAt: null })));
          const back = before.filter((m) => now.includes(m.userId) && m.markedForDeletionAt).map((m) => m.id);
          if (back.length) await this.mentions.update({ id: In(back) }, { markedForDeletionAt: null });
          const gone = before.filter((m) => !now.includes(m.userId) && !m.markedForDeletionAt).map((m) => m.id);
          if (gone.length) await this.mentions.update({ id: In(gone), markedForDeletionAt: IsNull() }, { markedForDeletionAt: new Date() });
          if (fresh.length) added.push({ fieldId: field.id, rowId: row.id, userIds: fresh, senderId });
        }
      }
      await this.rowNotifications.notify(context, 'user_mention_in_rich_text_field', added);
    }
  }
}
