import { Inject, Injectable } from '@nestjs/common';
import { TableOperations as T } from '../../permissions';
import { OnEvent } from '@nestjs/event-emitter';
import type { DomainEvent } from '../../core/events/domain-events';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { toApiDateTime } from '../../core/database/columns';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { validationError } from '../../core/errors/api-error';
import { limitOffsetLinks, pageLinks } from '../../core/http/pagination';
import { bodyObjectError } from '../../core/validation/field';
import { databaseId, NO_ID } from '../../core/validation/ids';
import { TrashService } from '../../trash/trash.service';
import type { UserEntity } from '../../users/user.entity';
import { DatabaseErrors } from '../database.errors';
import { RowsService } from '../rows/rows.service';
import { TableContext, TableContextService } from '../table-context';
import { checkCommentMessage, CheckedMessage } from './comment-message';
import { CommentNotifications } from './comment-notifications';
import { NotificationMode, ProseMirrorDoc, RowCommentEntity } from './row-comment.entity';
import { RowCommentRepository } from './row-comment.repository';
import type { ListRowCommentsQuery } from './row-comments.dto';
import { RowCommentErrors } from './row-comments.errors';

/** A comment as the API shows it; `message` is null once it is trashed. */
export interface RowCommentJson {
  [key: string]: unknown;
  id: number;
  user_id: number | null;
  first_name: string | null;
  table_id: number;
  row_id: number;
  message: ProseMirrorDoc | null;
  created_on: string | null;
  updated_on: string | null;
  edited: boolean;
  trashed: boolean;
}

export interface RowCommentPage {
  count: number;
  next: string | null;
  previous: string | null;
  results: RowCommentJson[];
}

const DEFAULT_PAGE_SIZE = 100;

/**
 * The rules of row comments: any member of the table's workspace reads and writes them on
 * rows that exist; only the author edits or deletes one. A mention of someone outside the
 * workspace stays in the message and mentions nobody (Baserow records the members' mentions
 * only, for notifications); a mention whose id is no number is ERROR_INVALID_COMMENT_MENTION.
 * Deleting trashes (the comment stays listed without its message, and counts no more).
 */
@Injectable()
export class RowCommentsService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly contexts: TableContextService,
    private readonly rows: RowsService,
    private readonly repo: RowCommentRepository,
    private readonly trash: TrashService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly notifications: CommentNotifications,
  ) {}

  async list(user: UserEntity, tableId: number, rowId: number, query: ListRowCommentsQuery, url: URL): Promise<RowCommentPage> {
    const context = await this.contexts.require(tableId, user.id, T.listComments);
    await this.rows.requireRow(context, rowId);
    const max = this.config.rowCommentPageSizeLimit;
    if (query.limit !== undefined) {
      const limit = Math.min(query.limit, max);
      const offset = query.offset ?? 0;
      const { count, comments } = await this.repo.page(tableId, rowId, limit, offset);
      return { count, ...limitOffsetLinks(url, limit, offset, count), results: await this.serialize(comments) };
    }
    const size = query.size ?? DEFAULT_PAGE_SIZE;
    if (size > max) throw DatabaseErrors.pageSizeLimit(max);
    const page = query.page ?? 1;
    const { count, comments } = await this.repo.page(tableId, rowId, size, (page - 1) * size);
    return { count, ...pageLinks(url, page, size, count), results: await this.serialize(comments) };
  }

  async create(user: UserEntity, tableId: number, rowId: number, body: unknown): Promise<RowCommentJson> {
    const message = this.message(body);
    return this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id, T.createComment);
      await this.rows.requireRow(context, rowId);
      if (message.malformedMention) throw RowCommentErrors.invalidMention();
      const comment = await this.repo.create({ tableId, rowId, userId: user.id, message: message.doc });
      const [json] = await this.serialize([comment]);
      this.db.record('row_comment.created', { tableId, rowId, comment: json });
      await this.notifications.created(user, context, comment);
      return json;
    });
  }

  async update(user: UserEntity, tableId: number, commentId: number, body: unknown): Promise<RowCommentJson> {
    const message = this.message(body);
    return this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id, T.updateComment);
      const comment = await this.requireComment(context, commentId);
      if (comment.userId !== user.id) throw RowCommentErrors.notAuthor();
      if (message.malformedMention) throw RowCommentErrors.invalidMention();
      // `edited` is updated_on > created_on, so an edit within the creating millisecond still shows.
      const updatedOn = new Date(Math.max(Date.now(), comment.createdOn.getTime() + 1));
      await this.repo.update(comment.id, { message: message.doc, updatedOn });
      const [json] = await this.serialize([{ ...comment, message: message.doc, updatedOn }]);
      this.db.record('row_comment.updated', { tableId, rowId: comment.rowId, comment: json });
      await this.notifications.updated(user, context, comment.message, { ...comment, message: message.doc, updatedOn });
      return json;
    });
  }

  /** Trashes the author's comment and answers it as it now is (`trashed`, no message). */
  async delete(user: UserEntity, tableId: number, commentId: number): Promise<RowCommentJson> {
    return this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id, T.deleteComment);
      const comment = await this.requireComment(context, commentId);
      if (comment.userId !== user.id) throw RowCommentErrors.notAuthor();
      await this.trash.trashItem(RowCommentEntity, user, {
        type: 'row_comment',
        itemId: comment.id,
        workspaceId: context.workspaceId,
        applicationId: context.table.databaseId,
        name: ' ',
        // The comment's parent is its row, which the trash names by id.
        parentName: String(comment.rowId),
        ownerId: comment.userId,
      });
      const [json] = await this.serialize([{ ...comment, trashed: true }]);
      this.db.record('row_comment.deleted', { tableId, rowId: comment.rowId, comment: json });
      return json;
    });
  }

  /**
   * Brings a trashed comment back (the trash module's restore of `row_comment`); false when
   * there is no such trashed comment. Runs in the caller's unit of work.
   */
  async restore(commentId: number): Promise<boolean> {
    return this.db.run(async () => {
      const comment = await this.repo.find(databaseId(commentId) ?? NO_ID);
      if (!comment?.trashed) return false;
      await this.trash.untrashItem(RowCommentEntity, comment.id);
      const [json] = await this.serialize([{ ...comment, trashed: false }]);
      this.db.recordAsSystem('row_comment.restored', { tableId: comment.tableId, rowId: comment.rowId, comment: json });
      return true;
    });
  }

  /** A comment in the trash (its table and row), or null. */
  async trashed(commentId: number): Promise<RowCommentEntity | null> {
    const comment = await this.repo.find(databaseId(commentId) ?? NO_ID);
    return comment?.trashed ? comment : null;
  }

  /** Forgets a trashed comment for good (the trash's permanent deletion); false when there is none. */
  async deletePermanently(commentId: number): Promise<boolean> {
    return this.db.run(async () => {
      const comment = await this.repo.find(databaseId(commentId) ?? NO_ID);
      if (!comment?.trashed) return false;
      await this.repo.delete(comment.id);
      return true;
    });
  }

  /** Forgets the comments and notification modes of rows deleted for good (as Baserow's `permanently_deleted` receiver of rows). */
  @OnEvent('rows.deleted_for_good')
  async forgetDeletedRows(event: DomainEvent<'rows.deleted_for_good'>): Promise<void> {
    await this.forgetRows(event.payload.tableId, event.payload.rowIds);
  }

  async forgetRows(tableId: number, rowIds: number[]): Promise<void> {
    await this.db.run(() => this.repo.deleteOfRows(tableId, rowIds));
  }

  async setNotificationMode(user: UserEntity, tableId: number, rowId: number, mode: NotificationMode): Promise<void> {
    await this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id, T.listComments);
      await this.rows.requireRow(context, rowId);
      await this.repo.setMode(tableId, rowId, user.id, mode);
      this.db.record('row_comments.notification_mode_updated', { userId: user.id, tableId, rowId, mode });
    });
  }

  async serialize(comments: RowCommentEntity[]): Promise<RowCommentJson[]> {
    const names = await this.repo.firstNames(comments.map((c) => c.userId).filter((id): id is number => id !== null));
    return comments.map((comment) => ({
      id: comment.id,
      user_id: comment.userId,
      first_name: comment.userId === null ? null : (names.get(comment.userId) ?? null),
      table_id: comment.tableId,
      row_id: comment.rowId,
      message: comment.trashed ? null : comment.message,
      created_on: toApiDateTime(comment.createdOn),
      updated_on: toApiDateTime(comment.updatedOn),
      edited: comment.updatedOn.getTime() > comment.createdOn.getTime(),
      trashed: comment.trashed,
    }));
  }

  /** A live comment of this table on a row that exists; anything else is ERROR_ROW_COMMENT_DOES_NOT_EXIST. */
  private async requireComment(context: TableContext, commentId: number): Promise<RowCommentEntity> {
    const comment = await this.repo.find(databaseId(commentId) ?? NO_ID);
    if (!comment || comment.trashed || comment.tableId !== context.table.id) throw RowCommentErrors.doesNotExist();
    try {
      await this.rows.requireRow(context, comment.rowId);
    } catch {
      throw RowCommentErrors.doesNotExist();
    }
    return comment;
  }

  /** The body's `message`, checked as Baserow's serializer does before anything else. */
  private message(body: unknown): Extract<CheckedMessage, { doc: unknown }> {
    const bodyError = bodyObjectError(body);
    if (bodyError) throw validationError(bodyError);
    const value = (body as Record<string, unknown> | undefined)?.message;
    if (value === undefined) throw validationError({ message: [{ error: 'This field is required.', code: 'required' }] });
    if (value === null) throw validationError({ message: [{ error: 'This field may not be null.', code: 'null' }] });
    const checked = checkCommentMessage(value, this.config.rowCommentMaxLength);
    if ('error' in checked) throw validationError({ message: [checked.error] });
    return checked;
  }
}
