import { Module, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DatabaseModule } from '../database/database.module';
import { FieldsService } from '../database/fields/fields.service';
import { RowsService } from '../database/rows/rows.service';
import { TablesService } from '../database/tables/tables.service';
import { UsersModule } from '../users/users.module';
import { GridViewController } from './grid-view.controller';
import { GridViewService } from './grid-view.service';
import { VIEW_TYPES } from './types';
import { ViewRepository } from './view.repository';
import { ViewTypeRegistry } from './view-type';
import { ViewsController } from './views.controller';
import { ViewsService } from './views.service';
import { ViewFilterRepository } from './filters/view-filter.repository';
import { ViewFiltersController } from './filters/view-filters.controller';
import { ViewFiltersService } from './filters/view-filters.service';
import { ViewSelectionService } from './filters/view-selection.service';
import { ViewSortRepository } from './sorts/view-sort.repository';
import { ViewGroupBysController, ViewSortsController } from './sorts/view-sorts.controller';
import { ViewSortsService } from './sorts/view-sorts.service';

/**
 * Views of tables: a registry of view types (grid first), view CRUD, order, duplicate,
 * field options and row listing through a view. It gives every new table its first grid
 * view and the rows endpoint its `view_id` selection.
 */
@Module({
  imports: [DatabaseModule, UsersModule],
  controllers: [ViewsController, GridViewController, ViewFiltersController, ViewSortsController, ViewGroupBysController],
  providers: [
    ViewRepository,
    ViewTypeRegistry,
    ViewsService,
    GridViewService,
    ViewFilterRepository,
    ViewSortRepository,
    ViewSelectionService,
    ViewFiltersService,
    ViewSortsService,
    ...VIEW_TYPES,
  ],
  exports: [ViewTypeRegistry, ViewsService, ViewRepository, ViewSelectionService],
})
export class ViewsModule implements OnModuleInit {
  constructor(
    private readonly registry: ViewTypeRegistry,
    private readonly views: ViewsService,
    private readonly tables: TablesService,
    private readonly rows: RowsService,
    private readonly moduleRef: ModuleRef,
    private readonly fields: FieldsService,
    private readonly parts: ViewSelectionService,
  ) {}

  onModuleInit(): void {
    for (const type of VIEW_TYPES) this.registry.register(this.moduleRef.get(type));
    this.tables.useDefaultViews(this.views);
    this.rows.useViewSelection(this.views);
    this.fields.onTypeChange((field) => this.parts.afterFieldTypeChange(field));
  }
}
