import { Injectable } from '@nestjs/common';
import { FieldsService } from '../../database/fields/fields.service';
import { TrashService } from '../../trash/trash.service';
import type { ActionContext, ActionType } from '../action-type';

/**
 * The field actions (Baserow's `contrib/database/fields/actions.py`), scope `table<id>`: undone
 * and redone through the fields service and the trash, so `field_created`, `field_deleted`,
 * `field_restored` and `field_updated` go out as for the original change, and the formula
 * fields reading them are typed again.
 */

interface FieldParams {
  tableId: number;
  fieldId: number;
}

/** A field that came to be (created, duplicated): its undo trashes it, its redo restores it. */
@Injectable()
abstract class NewFieldActionType implements ActionType<FieldParams> {
  abstract readonly type: string;

  constructor(
    private readonly fields: FieldsService,
    private readonly trash: TrashService,
  ) {}

  async undo(params: FieldParams, { user }: ActionContext): Promise<void> {
    await this.fields.delete(user, params.fieldId);
  }

  async redo(params: FieldParams, { user }: ActionContext): Promise<void> {
    await this.trash.restore(user, { trash_item_type: 'field', trash_item_id: params.fieldId });
  }
}

@Injectable()
export class CreateFieldActionType extends NewFieldActionType {
  readonly type = 'create_field';
}

@Injectable()
export class DuplicateFieldActionType extends NewFieldActionType {
  readonly type = 'duplicate_field';
}

@Injectable()
export class DeleteFieldActionType implements ActionType<FieldParams> {
  readonly type = 'delete_field';

  constructor(
    private readonly fields: FieldsService,
    private readonly trash: TrashService,
  ) {}

  async undo(params: FieldParams, { user }: ActionContext): Promise<void> {
    await this.trash.restore(user, { trash_item_type: 'field', trash_item_id: params.fieldId });
  }

  async redo(params: FieldParams, { user }: ActionContext): Promise<void> {
    await this.fields.delete(user, params.fieldId);
  }
}

/**
 * An update: its undo updates the field back to what it was (the field as it was answered),
 * writing back the cells a conversion changed; its redo sends the update again, converting
 * again (with the cells as the undo found them, should the redo be undone in turn).
 */
interface UpdateFieldParams extends FieldParams {
  before: Record<string, unknown>;
  body: unknown;
  /** The cells before the update, by row id, when it converted them (null: it did not). */
  cells: Record<string, unknown> | null;
  [key: string]: unknown;
}

@Injectable()
export class UpdateFieldActionType implements ActionType<UpdateFieldParams> {
  readonly type = 'update_field';

  constructor(private readonly fields: FieldsService) {}

  async undo(params: UpdateFieldParams, { user }: ActionContext): Promise<void> {
    await this.fields.updateField(user, params.fieldId, params.before, params.cells ?? undefined);
  }

  async redo(params: UpdateFieldParams, { user }: ActionContext): Promise<void> {
    await this.fields.updateField(user, params.fieldId, params.body);
  }
}

interface ChangePrimaryParams extends FieldParams {
  oldPrimaryFieldId: number | null;
}

@Injectable()
export class ChangePrimaryFieldActionType implements ActionType<ChangePrimaryParams> {
  readonly type = 'change_primary_field';

  constructor(private readonly fields: FieldsService) {}

  async undo(params: ChangePrimaryParams, { user }: ActionContext): Promise<void> {
    if (params.oldPrimaryFieldId === null) throw new Error('The table had no primary field.');
    await this.fields.changePrimary(user, params.tableId, params.oldPrimaryFieldId);
  }

  async redo(params: ChangePrimaryParams, { user }: ActionContext): Promise<void> {
    await this.fields.changePrimary(user, params.tableId, params.fieldId);
  }
}

export const FIELD_ACTION_TYPES = [CreateFieldActionType, DuplicateFieldActionType, DeleteFieldActionType, UpdateFieldActionType, ChangePrimaryFieldActionType];
