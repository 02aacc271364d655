import { Injectable } from '@nestjs/common';
import type { ApplicationEntity } from '../applications/application.entity';
import type { ApplicationType } from '../applications/application-type';
import { TableEntity } from './table.entity';
import { TableRepository } from './table.repository';

/** TableSerializer: a table as nested in its database and in table messages. */
export function serializeTable(table: TableEntity) {
  return { id: table.id, name: table.name, order: table.order, database_id: table.databaseId, data_sync: null };
}

/** The `database` application type: its serializer adds the `tables` array. */
@Injectable()
export class DatabaseApplicationType implements ApplicationType {
  readonly type = 'database';

  constructor(private readonly tables: TableRepository) {}

  async extraKeys(applications: ApplicationEntity[]): Promise<Map<number, Record<string, unknown>>> {
    const tables = await this.tables.ofDatabases(applications.map((a) => a.id));
    return new Map(applications.map((a) => [a.id, { tables: tables.filter((t) => t.databaseId === a.id).map(serializeTable) }]));
  }
}
