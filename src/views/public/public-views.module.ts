import { Module, OnModuleInit } from '@nestjs/common';
import { DatabaseModule } from '../../database/database.module';
import { RowsService } from '../../database/rows/rows.service';
import { UsersModule } from '../../users/users.module';
import { ViewsModule } from '../views.module';
import { GridPublicRows } from './grid.public-rows';
import { PublicRowsRegistry } from './public-rows';
import { PublicViewsController } from './public-views.controller';
import { PublicViewsService } from './public-views.service';

/**
 * Views shared by their slug: password tokens, public info, rows (one lister per view type:
 * grid here), one row and link lookups. The realtime `view` page uses PublicViewsService.
 */
@Module({
  imports: [DatabaseModule, UsersModule, ViewsModule],
  controllers: [PublicViewsController],
  providers: [PublicViewsService, PublicRowsRegistry, GridPublicRows],
  exports: [PublicViewsService, PublicRowsRegistry],
})
export class PublicViewsModule implements OnModuleInit {
  constructor(
    private readonly registry: PublicRowsRegistry,
    private readonly grid: GridPublicRows,
    private readonly publicViews: PublicViewsService,
    private readonly rows: RowsService,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.grid);
    this.rows.useRowVisibility(this.publicViews);
  }
}
