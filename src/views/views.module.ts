import { DatabaseSerializer } from '../database/serialization/database-serializer';
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
import { CalendarViewController } from './calendar/calendar-view.controller';
import { CalendarViewService } from './calendar/calendar-view.service';
import { TimelineViewController } from './timeline/timeline-view.controller';
import { TimelineViewService } from './timeline/timeline-view.service';
import { GridViewController } from './grid-view.controller';
import { GridViewService } from './grid-view.service';
import { AggregationsController } from './aggregations/aggregations.controller';
import { AggregationsService } from './aggregations/aggregations.service';
import { ViewAggregationTypeRegistry } from './aggregations/aggregation-type';
import { VIEW_AGGREGATION_TYPES } from './aggregations/types';
import { ViewVisibleFields } from './view-visible-fields';
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
import { PremiumViewAttributesController, ViewsController } from './views.controller';
import { ViewsService } from './views.service';
import { ViewAccessService } from './view-access.service';
import { ViewFieldOptionsService } from './view-field-options.service';
import { ViewHooksService } from './view-hooks.service';
import { ViewJsonService } from './view-json.service';
import { ViewFilterRepository } from './filters/view-filter.repository';
import { ViewFiltersController } from './filters/view-filters.controller';
import { ViewFiltersService } from './filters/view-filters.service';
import { ViewSelectionService } from './filters/view-selection.service';
import { ViewSortRepository } from './sorts/view-sort.repository';
import { ViewGroupBysController, ViewSortsController } from './sorts/view-sorts.controller';
import { ViewSortsService } from './sorts/view-sorts.service';
import { OwnedSchemaModule } from '../core/database/owned-schema';
import { ViewDecorationEntity } from './decorations/decoration.entity';
import { ViewFilterEntity, ViewFilterGroupEntity } from './filters/view-filter.entity';
import { ViewGroupByEntity, ViewSortEntity } from './sorts/view-sort.entity';
import { ViewEntity, ViewFieldOptionsEntity } from './view.entity';
import { NotificationsModule } from '../notifications/notifications.module';

/**
 * Views of tables: a registry of view types (grid first), view CRUD, order, duplicate,
 * field options and row listing through a view. It gives every new table its first grid
 * view and the rows endpoint its `view_id` selection.
 */
@Module({
  imports: [OwnedSchemaModule.forFeature({ entities: [ViewEntity, ViewFieldOptionsEntity, ViewFilterEntity, ViewFilterGroupEntity, ViewSortEntity, ViewGroupByEntity, ViewDecorationEntity] }), DatabaseModule, UsersModule, NotificationsModule],
  controllers: [
    ViewsController,
    PremiumViewAttributesController,
    GridViewController,
    GalleryViewController,
    KanbanViewController,
    CalendarViewController,
    TimelineViewController,
    FormViewController,
    ViewFiltersController,
    ViewSortsController,
    ViewGroupBysController,
    DecorationsController,
    AggregationsController,
  ],
  providers: [
    ViewRepository,
    ViewTypeRegistry,
    ViewAccessService,
    ViewJsonService,
    ViewFieldOptionsService,
    ViewsService,
    ViewHooksService,
    ViewVisibleFields,
    PublicViewTokens,
    GridViewService,
    GalleryViewService,
    KanbanViewService,
    CalendarViewService,
    TimelineViewService,
    FormViewService,
    ...VIEW_TYPES,
    ViewFilterRepository,
    ViewSortRepository,
    ViewSelectionService,
    ViewFiltersService,
    ViewSortsService,
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
  exports: [ViewTypeRegistry, ViewsService, ViewSortsService, ViewFiltersService, ViewVisibleFields, ViewRepository, ViewSelectionService, ViewDecorationRepository, DecorationsService, ViewFieldOptionsService, PublicViewTokens, GridViewService, KanbanViewService, CalendarViewService, TimelineViewService, AggregationsService],
})
export class ViewsModule implements OnModuleInit {
  constructor(
    private readonly registry: ViewTypeRegistry,
    private readonly decorators: DecoratorTypeRegistry,
    private readonly providers: DecoratorValueProviderTypeRegistry,
    private readonly aggregations: ViewAggregationTypeRegistry,
    private readonly hooks: ViewHooksService,
    private readonly tables: TablesService,
    private readonly serializer: DatabaseSerializer,
    private readonly rows: RowsService,
    private readonly moduleRef: ModuleRef,
    private readonly fields: FieldsService,
    private readonly parts: ViewSelectionService,
    private readonly decorationRules: DecorationsService,
    private readonly aggregationRules: AggregationsService,
  ) {}

  onModuleInit(): void {
    for (const type of VIEW_TYPES) this.registry.register(this.moduleRef.get(type));
    for (const type of DECORATOR_TYPES) this.decorators.register(this.moduleRef.get(type));
    for (const type of DECORATOR_VALUE_PROVIDER_TYPES) this.providers.register(this.moduleRef.get(type));
    for (const type of VIEW_AGGREGATION_TYPES) this.aggregations.register(this.moduleRef.get(type));
    this.tables.useDefaultViews(this.hooks);
    this.serializer.useViews(this.hooks);
    this.rows.useViewSelection(this.hooks);
    // Inside a field's unit of work: what views keep about it follows its type change or trashing.
    this.fields.onFieldChange(async (field, change) => {
      await this.hooks.fieldChanged(field, change === 'trashed');
      if (change === 'type_changed') await this.parts.afterFieldTypeChange(field);
      await this.decorationRules.fieldChanged(field, change);
      if (change === 'type_changed') await this.aggregationRules.fieldTypeChanged(field);
    });
  }
}
