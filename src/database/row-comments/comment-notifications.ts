import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { pythonInt } from '../../core/validation/python-int';
import { NotificationsService } from '../../notifications/notifications.service';
import type { UserEntity } from '../../users/user.entity';
import { RowsService } from '../rows/rows.service';
import type { TableContext } from '../table-context';
import type { ProseMirrorDoc, RowCommentEntity } from './row-comment.entity';
import { RowCommentRepository } from './row-comment.repository';

/** The ids a comment's mentions name (`attrs.id` read as Python's `int()`), in order, once each. */
export function mentionedIds(doc: ProseMirrorDoc | null): number[] {
  const ids: number[] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const value = node as { type?: unknown; attrs?: { id?: unknown }; content?: unknown };
    if (value.type === 'mention') {
      const raw = value.attrs?.id;
      const id = typeof raw === 'number' ? raw : typeof raw === 'string' ? pythonInt(raw) : null;
      if (typeof id === 'number' && Number.isSafeInteger(id) && !ids.includes(id)) ids.push(id);
    }
    if (Array.isArray(value.content)) value.content.forEach(visit);
  };
  visit(doc);
  return ids;
}

/**
 * The notifications of row comments (Baserow premium's `row_comments/notification_types.py`), in
 * the comment's unit of work: the members a comment mentions get `row_comment_mention`; those
 * following the row (mode `all`), but the author and the mentioned, get `row_comment`. An
 * author who never chose a mode for the row follows it from their first comment on.
 */
@Injectable()
export class CommentNotifications {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: RowCommentRepository,
    private readonly rows: RowsService,
    private readonly notifications: NotificationsService,
  ) {}

  async created(user: UserEntity, context: TableContext, comment: RowCommentEntity): Promise<void> {
    const mentions = await this.repo.members(context.workspaceId, mentionedIds(comment.message));
    const data = await this.data(context, comment);
    if (mentions.length) await this.notify(user, context, 'row_comment_mention', mentions, data);
    const subscribers = (await this.repo.subscribers(context.table.id, comment.rowId, context.workspaceId)).filter((id) => id !== user.id && !mentions.includes(id));
    if (subscribers.length) await this.notify(user, context, 'row_comment', subscribers, data);
    if (!(await this.repo.hasMode(context.table.id, comment.rowId, user.id))) {
      await this.repo.setMode(context.table.id, comment.rowId, user.id, 'all');
      this.db.record('row_comments.notification_mode_updated', { userId: user.id, tableId: context.table.id, rowId: comment.rowId, mode: 'all', includeOrigin: true });
    }
  }

  /** An edit notifies the members it mentions that the message before did not. */
  async updated(user: UserEntity, context: TableContext, before: ProseMirrorDoc, comment: RowCommentEntity): Promise<void> {
    const previous = new Set(await this.repo.members(context.workspaceId, mentionedIds(before)));
    const mentions = (await this.repo.members(context.workspaceId, mentionedIds(comment.message))).filter((id) => !previous.has(id));
    if (mentions.length) await this.notify(user, context, 'row_comment_mention', mentions, await this.data(context, comment));
  }

  private async notify(user: UserEntity, context: TableContext, type: string, userIds: number[], data: Record<string, unknown>): Promise<void> {
    await this.notifications.notifyUsers({ userIds, type, data, workspaceId: context.workspaceId, senderId: user.id });
  }

  /** Baserow's RowCommentNotificationData. */
  private async data(context: TableContext, comment: RowCommentEntity): Promise<Record<string, unknown>> {
    const names = await this.rows.primaryValues(context, [comment.rowId]);
    return {
      database_id: context.table.databaseId,
      database_name: await this.repo.databaseName(context.table.databaseId),
      table_id: context.table.id,
      table_name: context.table.name,
      row_id: comment.rowId,
      row_name: names[String(comment.rowId)] || `unnamed row ${comment.rowId}`,
      comment_id: comment.id,
      message: comment.message,
    };
  }
}
