import { Injectable } from '@nestjs/common';
import { TableOperations as T } from '../../permissions';
import { RowRepository } from '../../database/rows/row.repository';
import { RowCommentsService } from '../../database/row-comments/row-comments.service';
import type { TrashEntryEntity } from '../trash-entry.entity';
import type { TrashType } from '../trash-type';
import { TrashParents } from './parents';

/** A row comment, seen and restored by its author only: restored with `row_comment_restored`. */
@Injectable()
export class RowCommentTrashType implements TrashType {
  readonly type = 'row_comment';
  readonly restoreOperation = T.restoreComment;
  readonly requiresParentId = false;

  constructor(
    private readonly comments: RowCommentsService,
    private readonly rows: RowRepository,
    private readonly parents: TrashParents,
  ) {}

  readonly inTablesSql = 'e.trash_item_id IN (SELECT c.id FROM database_rowcomment c WHERE c.table_id IN (:...hiddenTables))';

  async tableOf(entry: TrashEntryEntity): Promise<number | null> {
    return (await this.comments.trashed(entry.trashItemId))?.tableId ?? null;
  }

  async exists(entry: TrashEntryEntity): Promise<boolean> {
    return (await this.comments.trashed(entry.trashItemId)) !== null;
  }

  /** Its row (in the trash itself) or the row's table is trashed. */
  async hasTrashedParent(entry: TrashEntryEntity): Promise<boolean> {
    const comment = await this.comments.trashed(entry.trashItemId);
    if (!comment || (await this.parents.tableTrashed(comment.tableId))) return true;
    return (await this.rows.findByIds(comment.tableId, [comment.rowId])).length === 0;
  }

  async restore(entry: TrashEntryEntity): Promise<void> {
    await this.comments.restore(entry.trashItemId);
  }

  async permanentlyDelete(entry: TrashEntryEntity): Promise<void> {
    await this.comments.deletePermanently(entry.trashItemId);
  }
}
