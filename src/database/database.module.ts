import { Module, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApplicationsModule } from '../applications/applications.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ApplicationTypeRegistry } from '../applications/application-type';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { DatabaseApplicationType } from './database-application.type';
import { FieldRepository } from './fields/field.repository';
import { FieldTypeRegistry } from './fields/field-type';
import { FieldsController } from './fields/fields.controller';
import { FieldsService } from './fields/fields.service';
import { PasswordAuthenticationController } from './fields/password-authentication.controller';
import { FileReferencesRepository } from './files/file-references.repository';
import { UnusedUserFilesService } from './files/unused-user-files.service';
import { FIELD_TYPES } from './fields/types';
import { UniqueValuesService } from './fields/unique-values.service';
import { FilterCompiler } from './filters/filter-tree';
import { FilterTypeRegistry } from './filters/filter-type';
import { FILTER_TYPES } from './filters/types';
import { CountCache } from './rows/count-cache';
import { RowListQuery } from './rows/row-list.query';
import { RowMetadataRegistry } from './rows/row-metadata';
import { RowCascade } from './rows/row-cascade';
import { RowInput } from './rows/row-input';
import { RowReader } from './rows/row-reader';
import { RowRepository } from './rows/row.repository';
import { RowsController } from './rows/rows.controller';
import { RowsService } from './rows/rows.service';
import { TableSchemaRepository } from './rows/table-schema.repository';
import { TableContextService } from './table-context';
import { TableRepository } from './table.repository';
import { TablesController } from './tables/tables.controller';
import { TablesService } from './tables/tables.service';
import { HiddenLeftovers } from './tables/hidden-leftovers.service';
import { TableJobsService } from './tables/table-jobs.service';
import { TableImportService } from './tables/table-import.service';
import { ImportFileParser } from './import/import-file-parser.service';
import { JobsModule } from '../jobs/jobs.module';
import { RowHistoryController } from './row-history/row-history.controller';
import { RowHistoryRepository } from './row-history/row-history.repository';
import { RowHistoryService } from './row-history/row-history.service';
import { TokensModule } from '../tokens/tokens.module';
import { DatabaseSerializer } from './serialization/database-serializer';
import { FieldJobsService } from './fields/field-jobs.service';
import { SearchIndexRepository } from './search/search-index.repository';
import { SearchIndexService } from './search/search-index.service';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { FieldEntity, SelectOptionEntity } from './fields/field.entity';
import { TableEntity } from './table.entity';
import { SQLITE_FUNCTIONS_MODULE } from './formula/sqlite';
import { CollaboratorNotifications } from './fields/collaborator-notifications';
import { RowNotifications } from './fields/row-notifications';
import { RichTextMentionNotifications } from './fields/rich-text-mentions';
import { RichTextFieldMentionEntity } from './fields/rich-text-mention.entity';

/**
 * Database applications: tables, fields (a registry of field types), rows in real SQL
 * tables (`database_table_<id>`), and the filter engine the rows endpoint and views share.
 * On SQLite, the PostgreSQL functions their SQL calls (formula/sqlite/) are added to every connection.
 */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [TableEntity, FieldEntity, SelectOptionEntity, RichTextFieldMentionEntity], sqliteFunctions: [SQLITE_FUNCTIONS_MODULE] }), ApplicationsModule, WorkspacesModule, JobsModule, TokensModule, NotificationsModule],
  controllers: [TablesController, FieldsController, RowsController, RowHistoryController, PasswordAuthenticationController],
  providers: [
    TableRepository,
    FieldRepository,
    TableSchemaRepository,
    RowRepository,
    TableContextService,
    FieldTypeRegistry,
    FilterTypeRegistry,
    FilterCompiler,
    RowListQuery,
    CountCache,
    RowMetadataRegistry,
    FieldsService,
    UniqueValuesService,
    TablesService,
    TableJobsService,
    TableImportService,
    ImportFileParser,
    HiddenLeftovers,
    RowReader,
    RowInput,
    RowCascade,
    RowsService,
    RowHistoryRepository,
    RowHistoryService,
    FileReferencesRepository,
    UnusedUserFilesService,
    DatabaseApplicationType,
    DatabaseSerializer,
    FieldJobsService,
    SearchIndexRepository,
    SearchIndexService,
    CollaboratorNotifications,
    RowNotifications,
    RichTextMentionNotifications,
    ...FIELD_TYPES,
    ...FILTER_TYPES,
  ],
  exports: [DatabaseSerializer, UnusedUserFilesService, TableRepository, FieldRepository, RowRepository, TableSchemaRepository, TableContextService, FieldTypeRegistry, FilterTypeRegistry, FilterCompiler, FieldsService, TablesService, RowsService, RowHistoryService, RowListQuery, RowMetadataRegistry, RowReader, CountCache],
})
export class DatabaseModule implements OnModuleInit {
  constructor(
    private readonly applicationTypes: ApplicationTypeRegistry,
    private readonly databaseType: DatabaseApplicationType,
    private readonly fieldTypes: FieldTypeRegistry,
    private readonly filterTypes: FilterTypeRegistry,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    this.applicationTypes.register(this.databaseType);
    for (const type of FIELD_TYPES) this.fieldTypes.register(this.moduleRef.get(type));
    for (const type of FILTER_TYPES) this.filterTypes.register(this.moduleRef.get(type));
  }
}
