import { Injectable } from '@nestjs/common';
import { TableContextService } from '../../database/table-context';
import { TableOperations as T } from '../../permissions';
import { idParameter, PageSubscriber, PageType, tablePermissionGroup } from './page-type';

/** The group of a table's page: what row, field and view messages of the table go to. */
export function tablePageGroup(tableId: unknown): string {
  return `table-${String(tableId)}`;
}

/** `{"page": "table", "table_id": n}`: rows, fields and views of one table. */
@Injectable()
export class TablePageType implements PageType {
  readonly type = 'table';
  readonly parameters = ['table_id'] as const;

  constructor(private readonly contexts: TableContextService) {}

  async canAdd(subscriber: PageSubscriber, { table_id }: Record<string, unknown>): Promise<boolean> {
    const tableId = idParameter(table_id);
    if (subscriber.userId === null || tableId === null) return false;
    return this.contexts.can(tableId, subscriber.userId, T.listenToAll);
  }

  group({ table_id }: Record<string, unknown>): string {
    return tablePageGroup(table_id);
  }

  permissionGroup({ table_id }: Record<string, unknown>): string {
    return tablePermissionGroup(table_id);
  }
}
