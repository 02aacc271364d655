import { Injectable } from '@nestjs/common';
import { TablesService } from '../../database/tables/tables.service';
import { TrashService } from '../../trash/trash.service';
import type { ActionContext, ActionType } from '../action-type';
import { stillThere, trashableActionTypes } from './trashable';

/**
 * The table actions (Baserow's `contrib/database/table/actions.py`), scope `application<id>`:
 * created, duplicated and deleted tables go to and come back from the trash; renames and
 * orders are made again through the tables service, with its messages.
 */
interface TableParams {
  databaseId: number;
  tableId: number;
}

function tableTypes(tables: TablesService, trash: TrashService) {
  return trashableActionTypes<TableParams>({ trashType: 'table', itemId: (p) => p.tableId, trash: (user, p) => tables.delete(user, p.tableId), trashService: trash });
}

@Injectable()
export class CreateTableActionType implements ActionType<TableParams> {
  readonly type = 'create_table';
  readonly undo;
  readonly redo;
  constructor(tables: TablesService, trash: TrashService) {
    ({ undo: this.undo, redo: this.redo } = tableTypes(tables, trash).appeared);
  }
}

@Injectable()
export class DuplicateTableActionType implements ActionType<TableParams> {
  readonly type = 'duplicate_table';
  readonly undo;
  readonly redo;
  constructor(tables: TablesService, trash: TrashService) {
    ({ undo: this.undo, redo: this.redo } = tableTypes(tables, trash).appeared);
  }
}

@Injectable()
export class DeleteTableActionType implements ActionType<TableParams> {
  readonly type = 'delete_table';
  readonly undo;
  readonly redo;
  constructor(tables: TablesService, trash: TrashService) {
    ({ undo: this.undo, redo: this.redo } = tableTypes(tables, trash).disappeared);
  }
}

interface RenameParams extends TableParams {
  before: string;
  after: string;
}

@Injectable()
export class UpdateTableActionType implements ActionType<RenameParams> {
  readonly type = 'update_table';
  constructor(private readonly tables: TablesService) {}

  async undo(params: RenameParams, { user }: ActionContext): Promise<void> {
    await this.tables.rename(user, params.tableId, params.before);
  }

  async redo(params: RenameParams, { user }: ActionContext): Promise<void> {
    await this.tables.rename(user, params.tableId, params.after);
  }
}

interface OrderParams {
  databaseId: number;
  before: number[];
  after: number[];
}

@Injectable()
export class OrderTablesActionType implements ActionType<OrderParams> {
  readonly type = 'order_tables';
  constructor(private readonly tables: TablesService) {}

  async undo(params: OrderParams, ctx: ActionContext): Promise<void> {
    await this.order(params.databaseId, params.before, ctx);
  }

  async redo(params: OrderParams, ctx: ActionContext): Promise<void> {
    await this.order(params.databaseId, params.after, ctx);
  }

  private async order(databaseId: number, ids: number[], { user }: ActionContext): Promise<void> {
    const live = (await this.tables.list(user, databaseId)).map((table) => table.id as number);
    await this.tables.order(user, databaseId, stillThere(ids, live));
  }
}

export const TABLE_ACTION_TYPES = [CreateTableActionType, DuplicateTableActionType, DeleteTableActionType, UpdateTableActionType, OrderTablesActionType];
