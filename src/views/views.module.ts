import { Module, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DatabaseModule } from '../database/database.module';
import { FieldsService } from '../database/fields/fields.service';
import { RowsService } from '../database/rows/rows.service';
import { TablesService } from '../database/tables/tables.service';
import { UsersModule } from '../users/users.module';
import { FormViewController } from './form/form-view.controller';
import { FormViewService } from './form/form-view.service';
import { GalleryViewController } from './gallery-view.controller';
import { GalleryViewService } from './gallery-view.service';
import { KanbanViewController } from './kanban-view.controller';
import { KanbanViewService } from './kanban-view.service';
import { GridViewController } from './grid-view.controller';
import { GridViewService } from './grid-view.service';
import { AggregationsController } from './aggregations/aggregations.controller';
import { AggregationsService } from './aggregations/aggregations.service';
import { ViewAggregationTypeRegistry } from './aggregations/aggregation-type';
import { VIEW_AGGREGATION_TYPES } from './aggregations/types';
import { DecorationCopier } from './decorations/decoration-copier';
import { ViewDecorationRepository } from './decorations/decoration.repository';
import { DecoratorTypeRegistry, DecoratorValueProviderTypeRegistry } from './decorations/decorator-type';
import { DecorationsController } from './decorations/decorations.controller';
import { DecorationsService } from './decorations/decorations.service';
import { DECORATOR_VALUE_PROVIDER_TYPES } from './decorations/providers';
import { DECORATOR_TYPES } from './decorations/types';
import { VIEW_TYPES } from './types';
import { PublicViewTokens } from './public-view-tokens';
import { ViewRepository } from './view.repository';
import { ViewTypeRegistry } from './view-type';
import { ViewsController } from './views.controller';
import { ViewsService } from './views.service';

/**
 * Views of tables: a registry of view types (grid first), view CRUD, order, duplicate,
 * field options and row listing through a view. It gives every new table its first grid
 * view and the rows endpoint its `view_id` selection.
 */
@Module({
  imports: [DatabaseModule, UsersModule],
  controllers: [ViewsController, GridViewController, GalleryViewController, KanbanViewController, FormViewController, DecorationsController, AggregationsController],
  providers: [
    ViewRepository,
    ViewTypeRegistry,
    ViewsService,
    PublicViewTokens,
    GridViewService,
    GalleryViewService,
    KanbanViewService,
    FormViewService,
    ...VIEW_TYPES,
    ViewDecorationRepository,
    DecoratorTypeRegistry,
    DecoratorValueProviderTypeRegistry,
    DecorationCopier,
    DecorationsService,
    ...DECORATOR_TYPES,
    ...DECORATOR_VALUE_PROVIDER_TYPES,
    ViewAggregationTypeRegistry,
    AggregationsService,
    ...VIEW_AGGREGATION_TYPES,
  ],
  exports: [ViewTypeRegistry, ViewsService, ViewRepository, ViewDecorationRepository, PublicViewTokens],
})
export class ViewsModule implements OnModuleInit {
  constructor(
    private readonly registry: ViewTypeRegistry,
    private readonly decorators: DecoratorTypeRegistry,
    private readonly providers: DecoratorValueProviderTypeRegistry,
    private readonly aggregations: ViewAggregationTypeRegistry,
    private readonly views: ViewsService,
    private readonly tables: TablesService,
    private readonly rows: RowsService,
    private readonly fields: FieldsService,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    for (const type of VIEW_TYPES) this.registry.register(this.moduleRef.get(type));
    for (const type of DECORATOR_TYPES) this.decorators.register(this.moduleRef.get(type));
    for (const type of DECORATOR_VALUE_PROVIDER_TYPES) this.providers.register(this.moduleRef.get(type));
    for (const type of VIEW_AGGREGATION_TYPES) this.aggregations.register(this.moduleRef.get(type));
    this.tables.useDefaultViews(this.views);
    this.rows.useViewSelection(this.views);
    this.fields.useFieldChangeListener(this.views);
  }
}
