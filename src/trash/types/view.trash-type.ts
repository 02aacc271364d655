import { Injectable } from '@nestjs/common';
import { ViewOperations as V } from '../../permissions';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { ViewEntity } from '../../views/view.entity';
import { ViewRepository } from '../../views/view.repository';
import type { TrashEntryEntity } from '../trash-entry.entity';
import { TrashService } from '../trash.service';
import type { TrashType } from '../trash-type';
import { TrashParents } from './parents';

/** A view: restored with `view_created`; deleted for good with its field options. */
@Injectable()
export class ViewTrashType implements TrashType {
  readonly type = 'view';
  readonly restoreOperation = V.restore;
  readonly requiresParentId = false;

  constructor(
    private readonly db: UnitOfWork,
    private readonly views: ViewRepository,
    private readonly parents: TrashParents,
    private readonly trash: TrashService,
  ) {}

  readonly inTablesSql = 'e.trash_item_id IN (SELECT v.id FROM database_view v WHERE v.table_id IN (:...hiddenTables))';

  async tableOf(entry: TrashEntryEntity): Promise<number | null> {
    return (await this.views.findAny(entry.trashItemId))?.tableId ?? null;
  }

  async exists(entry: TrashEntryEntity): Promise<boolean> {
    return (await this.views.findAny(entry.trashItemId))?.trashed ?? false;
  }

  async hasTrashedParent(entry: TrashEntryEntity): Promise<boolean> {
    const view = await this.views.findAny(entry.trashItemId);
    return !view || (await this.parents.tableTrashed(view.tableId));
  }

  async restore(entry: TrashEntryEntity): Promise<void> {
    const view = (await this.views.findAny(entry.trashItemId))!;
    await this.trash.untrashItem(ViewEntity, view.id);
    this.db.recordAsSystem('view.created', { viewId: view.id, tableId: view.tableId });
  }

  async permanentlyDelete(entry: TrashEntryEntity): Promise<void> {
    if ((await this.views.findAny(entry.trashItemId))?.trashed) await this.views.delete(entry.trashItemId);
  }
}
