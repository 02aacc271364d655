import { Injectable } from '@nestjs/common';
import type { CreateRowsParams, DeleteRowsParams, MoveRowParams, UpdateRowsParams } from '../../database/rows/row-actions';
import { RowsService } from '../../database/rows/rows.service';
import { TrashService } from '../../trash/trash.service';
import type { UserEntity } from '../../users/user.entity';
import type { ActionContext, ActionType } from '../action-type';

/**
 * The row actions (Baserow's `contrib/database/rows/actions.py`), scope `table<id>`: undone and
 * redone through the rows service and the trash, so the messages, row history, search index and
 * computed cells follow as for the original kind of change.
 */

/** Restores rows a create's undo or a delete trashed, through the trash (`row`: one row, `rows`: a batch). */
function restoreRows(trash: TrashService, user: UserEntity, params: { tableId: number; trashItemId?: number }, single: boolean): Promise<void> {
  return trash.restore(user, { trash_item_type: single ? 'row' : 'rows', trash_item_id: params.trashItemId, parent_trash_item_id: params.tableId });
}

@Injectable()
abstract class CreateRowsActionType implements ActionType<CreateRowsParams> {
  abstract readonly type: string;
  protected readonly single: boolean = false;

  constructor(
    private readonly rows: RowsService,
    private readonly trash: TrashService,
  ) {}

  async undo(params: CreateRowsParams, { user }: ActionContext): Promise<CreateRowsParams> {
    return { ...params, trashItemId: await this.rows.trashRows(user, params.tableId, params.rowIds, this.single) };
  }

  async redo(params: CreateRowsParams, { user }: ActionContext): Promise<void> {
    await restoreRows(this.trash, user, params, this.single);
  }
}

@Injectable()
export class CreateRowActionType extends CreateRowsActionType {
  readonly type = 'create_row';
  protected readonly single = true;
}

@Injectable()
export class CreateManyRowsActionType extends CreateRowsActionType {
  readonly type = 'create_rows';
}

@Injectable()
export class ImportRowsActionType extends CreateRowsActionType {
  readonly type = 'import_rows';
}

@Injectable()
abstract class DeleteRowsActionType implements ActionType<DeleteRowsParams> {
  abstract readonly type: string;
  protected readonly single: boolean = false;

  constructor(
    private readonly rows: RowsService,
    private readonly trash: TrashService,
  ) {}

  async undo(params: DeleteRowsParams, { user }: ActionContext): Promise<void> {
    await restoreRows(this.trash, user, params, this.single);
  }

  async redo(params: DeleteRowsParams, { user }: ActionContext): Promise<DeleteRowsParams> {
    return { ...params, trashItemId: await this.rows.trashRows(user, params.tableId, params.rowIds, this.single) };
  }
}

@Injectable()
export class DeleteRowActionType extends DeleteRowsActionType {
  readonly type = 'delete_row';
  protected readonly single = true;
}

@Injectable()
export class DeleteManyRowsActionType extends DeleteRowsActionType {
  readonly type = 'delete_rows';
}

/** Writes the cells back as they were (undo) or as the update made them (redo); fields deleted since are left out. */
@Injectable()
abstract class UpdateRowsActionType implements ActionType<UpdateRowsParams> {
  abstract readonly type: string;

  constructor(private readonly rows: RowsService) {}

  async undo(params: UpdateRowsParams, { user }: ActionContext): Promise<void> {
    await this.rows.batchUpdate(user, params.tableId, { items: params.before }, false);
  }

  async redo(params: UpdateRowsParams, { user }: ActionContext): Promise<void> {
    await this.rows.batchUpdate(user, params.tableId, { items: params.after }, false);
  }
}

@Injectable()
export class UpdateRowActionType extends UpdateRowsActionType {
  readonly type = 'update_row';
}

@Injectable()
export class UpdateManyRowsActionType extends UpdateRowsActionType {
  readonly type = 'update_rows';
}

@Injectable()
export class MoveRowActionType implements ActionType<MoveRowParams> {
  readonly type = 'move_row';

  constructor(private readonly rows: RowsService) {}

  async undo(params: MoveRowParams, { user }: ActionContext): Promise<void> {
    await this.rows.moveToOrder(user, params.tableId, params.rowId, params.orderBefore);
  }

  async redo(params: MoveRowParams, { user }: ActionContext): Promise<void> {
    await this.rows.moveToOrder(user, params.tableId, params.rowId, params.orderAfter);
  }
}

export const ROW_ACTION_TYPES = [
  CreateRowActionType,
  CreateManyRowsActionType,
  ImportRowsActionType,
  DeleteRowActionType,
  DeleteManyRowsActionType,
  UpdateRowActionType,
  UpdateManyRowsActionType,
  MoveRowActionType,
];
