import { Injectable } from '@nestjs/common';
import { TableOperations as T } from '../../permissions';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { FieldRepository } from '../../database/fields/field.repository';
import { FieldsService } from '../../database/fields/fields.service';
import { TableEntity } from '../../database/table.entity';
import { TableRepository } from '../../database/table.repository';
import { TablesService } from '../../database/tables/tables.service';
import type { TrashEntryEntity } from '../trash-entry.entity';
import { TrashService } from '../trash.service';
import type { TrashType } from '../trash-type';
import { TrashParents } from './parents';

/**
 * A table: its fields and rows stay with it; the link fields of other tables that pointed at
 * it were trashed with it and come back with it. Restored with `table_created`; deleted for
 * good with its SQL table, its junction tables and those link fields.
 */
@Injectable()
export class TableTrashType implements TrashType {
  readonly type = 'table';
  readonly restoreOperation = T.restore;
  readonly requiresParentId = false;

  constructor(
    private readonly db: UnitOfWork,
    private readonly tables: TableRepository,
    private readonly tablesService: TablesService,
    private readonly fields: FieldRepository,
    private readonly fieldsService: FieldsService,
    private readonly parents: TrashParents,
    private readonly trash: TrashService,
  ) {}

  readonly inTablesSql = 'e.trash_item_id IN (:...hiddenTables)';

  async tableOf(entry: TrashEntryEntity): Promise<number | null> {
    return entry.trashItemId;
  }

  async exists(entry: TrashEntryEntity): Promise<boolean> {
    return (await this.tables.findAny(entry.trashItemId))?.trashed ?? false;
  }

  async hasTrashedParent(entry: TrashEntryEntity): Promise<boolean> {
    const table = await this.tables.findAny(entry.trashItemId);
    return !table || (await this.parents.applicationTrashed(table.databaseId));
  }

  async restore(entry: TrashEntryEntity): Promise<void> {
    const table = (await this.tables.findAny(entry.trashItemId))!;
    await this.trash.untrashItem(TableEntity, table.id);
    for (const fieldId of entry.relatedItems.field ?? []) {
      const field = await this.fields.findAny(fieldId);
      // A link field trashed on its own since, or whose table is trashed, stays where it is.
      if (!field?.trashed || (await this.parents.tableTrashed(field.tableId))) continue;
      if ((await this.trash.trashedOnTheirOwn('field', [field.id])).size) continue;
      await this.fieldsService.restore(field.id, []);
    }
    this.db.recordAsSystem('table.created', { tableId: table.id, databaseId: table.databaseId, workspaceId: entry.workspaceId });
  }

  async permanentlyDelete(entry: TrashEntryEntity): Promise<void> {
    const table = await this.tables.findAny(entry.trashItemId);
    if (!table) return;
    for (const fieldId of entry.relatedItems.field ?? []) {
      const field = await this.fields.findAny(fieldId);
      if (field?.trashed) await this.fieldsService.deleteForGood(field);
    }
    await this.tablesService.deleteForGood(table);
  }
}
