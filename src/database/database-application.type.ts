import { Injectable } from '@nestjs/common';
import type { ApplicationEntity } from '../applications/application.entity';
import type { ApplicationType } from '../applications/application-type';
import type { UserEntity } from '../users/user.entity';
import { TableEntity } from './table.entity';
import { TableRepository } from './table.repository';
import { EXAMPLE_TABLE, TablesService } from './tables/tables.service';
import { EXAMPLE_CUSTOMERS, EXAMPLE_PROJECTS } from './tables/example-tables';

/** TableSerializer: a table as nested in its database and in table messages. */
export function serializeTable(table: TableEntity) {
  return { id: table.id, name: table.name, order: table.order, database_id: table.databaseId, data_sync: null };
}

/** The `database` application type: its serializer adds the `tables` array. */
@Injectable()
export class DatabaseApplicationType implements ApplicationType {
  readonly type = 'database';

  constructor(
    private readonly tables: TableRepository,
    private readonly tablesService: TablesService,
  ) {}

  async extraKeys(applications: ApplicationEntity[]): Promise<Map<number, Record<string, unknown>>> {
    const tables = await this.tables.ofDatabases(applications.map((a) => a.id));
    return new Map(applications.map((a) => [a.id, { tables: tables.filter((t) => t.databaseId === a.id).map(serializeTable) }]));
  }

  /** `init_with_data`: a table "Table" with the example fields and two empty rows. */
  async afterCreate(application: ApplicationEntity, user: UserEntity, options: { initWithData: boolean }): Promise<void> {
    if (options.initWithData) await this.tablesService.createTable(application, 'Table', EXAMPLE_TABLE, user.id);
  }

  /** The sign-up example: Customers and Projects with their rows. */
  async fillExample(application: ApplicationEntity, user: UserEntity): Promise<void> {
    await this.tablesService.createTable(application, 'Customers', EXAMPLE_CUSTOMERS, user.id);
    await this.tablesService.createTable(application, 'Projects', EXAMPLE_PROJECTS, user.id);
  }

  async beforePermanentDelete(application: ApplicationEntity): Promise<void> {
    await this.tablesService.dropTablesOf(application.id);
  }
}
