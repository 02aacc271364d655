import { Injectable } from '@nestjs/common';
import { TableContextService } from '../../database/table-context';
import { TableOperations as T } from '../../permissions';
import { RealtimeRepository } from '../realtime.repository';
import { idParameter, PageSubscriber, PageType, tablePermissionGroup } from './page-type';

/** `{"page": "row", "table_id": n, "row_id": m}`: one row (the expanded-row modal). */
@Injectable()
export class RowPageType implements PageType {
  readonly type = 'row';
  readonly parameters = ['table_id', 'row_id'] as const;

  constructor(
    private readonly repo: RealtimeRepository,
    private readonly contexts: TableContextService,
  ) {}

  async canAdd(subscriber: PageSubscriber, { table_id, row_id }: Record<string, unknown>): Promise<boolean> {
    const tableId = idParameter(table_id);
    const rowId = idParameter(row_id);
    if (subscriber.userId === null || tableId === null || rowId === null) return false;
    return (await this.contexts.can(tableId, subscriber.userId, T.readRow)) && (await this.repo.rowExists(tableId, rowId));
  }

  group({ table_id, row_id }: Record<string, unknown>): string {
    return `table-${String(table_id)}-row-${String(row_id)}`;
  }

  permissionGroup({ table_id }: Record<string, unknown>): string {
    return tablePermissionGroup(table_id);
  }
}
