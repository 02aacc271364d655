import { Injectable } from '@nestjs/common';
import { TableOperations as T } from '../../permissions';
import { FieldRepository } from '../../database/fields/field.repository';
import { FieldsService } from '../../database/fields/fields.service';
import type { TrashEntryEntity } from '../trash-entry.entity';
import type { TrashType } from '../trash-type';
import { TrashParents } from './parents';

/** A field, with the related link field trashed with it: restored with `field_restored`; deleted for good with its column. */
@Injectable()
export class FieldTrashType implements TrashType {
  readonly type = 'field';
  readonly restoreOperation = T.restoreField;
  readonly requiresParentId = false;

  constructor(
    private readonly fields: FieldRepository,
    private readonly fieldsService: FieldsService,
    private readonly parents: TrashParents,
  ) {}

  readonly inTablesSql = 'e.trash_item_id IN (SELECT f.id FROM database_field f WHERE f.table_id IN (:...hiddenTables))';

  async tableOf(entry: TrashEntryEntity): Promise<number | null> {
    return (await this.fields.findAny(entry.trashItemId))?.tableId ?? null;
  }

  async exists(entry: TrashEntryEntity): Promise<boolean> {
    return (await this.fields.findAny(entry.trashItemId))?.trashed ?? false;
  }

  async hasTrashedParent(entry: TrashEntryEntity): Promise<boolean> {
    const field = await this.fields.findAny(entry.trashItemId);
    return !field || (await this.parents.tableTrashed(field.tableId));
  }

  async restore(entry: TrashEntryEntity): Promise<void> {
    await this.fieldsService.restore(entry.trashItemId, entry.relatedItems.field ?? []);
  }

  async permanentlyDelete(entry: TrashEntryEntity): Promise<void> {
    for (const id of [entry.trashItemId, ...(entry.relatedItems.field ?? [])]) {
      const field = await this.fields.findAny(id);
      if (field?.trashed) await this.fieldsService.deleteForGood(field);
    }
  }
}
