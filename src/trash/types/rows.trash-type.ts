import { Injectable } from '@nestjs/common';
import { TableOperations as T } from '../../permissions';
import { RowRepository } from '../../database/rows/row.repository';
import { RowsService } from '../../database/rows/rows.service';
import type { UserEntity } from '../../users/user.entity';
import type { TrashEntryEntity } from '../trash-entry.entity';
import { TrashService } from '../trash.service';
import type { TrashType } from '../trash-type';
import { TrashParents } from './parents';

/** The rows an entry names: one row (`row`, its id) or a batch (`rows`, the id of its TrashedRows). */
@Injectable()
abstract class RowsTrashTypeBase implements TrashType {
  abstract readonly type: string;
  readonly requiresParentId = true;
  readonly restoreOperation = T.restoreRow;

  constructor(
    protected readonly rows: RowRepository,
    protected readonly rowsService: RowsService,
    protected readonly parents: TrashParents,
    protected readonly trash: TrashService,
  ) {}

  protected abstract rowIds(entry: TrashEntryEntity): Promise<number[]>;

  readonly inTablesSql = 'e.parent_trash_item_id IN (:...hiddenTables)';

  async tableOf(entry: TrashEntryEntity): Promise<number | null> {
    return entry.parentTrashItemId;
  }

  async exists(entry: TrashEntryEntity): Promise<boolean> {
    const ids = await this.rowIds(entry);
    if (!ids.length) return false;
    try {
      return (await this.rows.findByIds(entry.parentTrashItemId!, ids, 'trashed')).length > 0;
    } catch {
      // The table was deleted for good: so were its rows.
      return false;
    }
  }

  hasTrashedParent(entry: TrashEntryEntity): Promise<boolean> {
    return this.parents.tableTrashed(entry.parentTrashItemId!);
  }

  async restore(entry: TrashEntryEntity, user: UserEntity): Promise<void> {
    await this.rowsService.restore(user, entry.parentTrashItemId!, await this.rowIds(entry));
  }

  async permanentlyDelete(entry: TrashEntryEntity): Promise<void> {
    await this.rowsService.deleteForGood(entry.parentTrashItemId!, await this.rowIds(entry));
  }
}

/** One row deleted on its own: restored with `rows_created`. */
@Injectable()
export class RowTrashType extends RowsTrashTypeBase {
  readonly type = 'row';

  protected async rowIds(entry: TrashEntryEntity): Promise<number[]> {
    return [entry.trashItemId];
  }
}

/** A batch delete: restored with `rows_created`, or `table_updated` with `force_table_refresh` from 50 rows. */
@Injectable()
export class RowsTrashType extends RowsTrashTypeBase {
  readonly type = 'rows';

  protected async rowIds(entry: TrashEntryEntity): Promise<number[]> {
    return (await this.trash.findTrashedRows(entry.trashItemId))?.rowIds ?? [];
  }

  async restore(entry: TrashEntryEntity, user: UserEntity): Promise<void> {
    await super.restore(entry, user);
    await this.trash.deleteTrashedRows(entry.trashItemId);
  }

  async permanentlyDelete(entry: TrashEntryEntity): Promise<void> {
    await super.permanentlyDelete(entry);
    await this.trash.deleteTrashedRows(entry.trashItemId);
  }
}
