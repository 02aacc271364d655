import { Module, OnModuleInit } from '@nestjs/common';
import { DatabaseModule } from '../../database/database.module';
import { RowsService } from '../../database/rows/rows.service';
import { UsersModule } from '../../users/users.module';
import { ViewsModule } from '../views.module';
import { GalleryPublicRows } from './gallery.public-rows';
import { GridPublicRows } from './grid.public-rows';
import { KanbanPublicRows } from './kanban.public-rows';
import { CalendarPublicRows } from './calendar.public-rows';
import { TimelinePublicRows } from './timeline.public-rows';
import { PublicRowsRegistry } from './public-rows';
import { PublicViewsController } from './public-views.controller';
import { PublicViewsService } from './public-views.service';

/**
 * Views shared by their slug: password tokens, public info, rows (one lister per view type:
 * grid, gallery, kanban, calendar, timeline), grid aggregations, one row and link lookups. The realtime `view` page uses PublicViewsService.
 */
@Module({
  imports: [DatabaseModule, UsersModule, ViewsModule],
  controllers: [PublicViewsController],
  providers: [PublicViewsService, PublicRowsRegistry, GridPublicRows, GalleryPublicRows, KanbanPublicRows, CalendarPublicRows, TimelinePublicRows],
  exports: [PublicViewsService, PublicRowsRegistry],
})
export class PublicViewsModule implements OnModuleInit {
  constructor(
    private readonly registry: PublicRowsRegistry,
    private readonly grid: GridPublicRows,
    private readonly gallery: GalleryPublicRows,
    private readonly kanban: KanbanPublicRows,
    private readonly calendar: CalendarPublicRows,
    private readonly timeline: TimelinePublicRows,
    private readonly publicViews: PublicViewsService,
    private readonly rows: RowsService,
  ) {}

  onModuleInit(): void {
    for (const lister of [this.grid, this.gallery, this.kanban, this.calendar, this.timeline]) this.registry.register(lister);
    this.rows.useRowVisibility(this.publicViews);
  }
}
