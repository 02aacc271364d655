import { Injectable, OnModuleInit } from '@nestjs/common';
import type { RowVisibility } from '../core/events/domain-events';
import { RowsService } from '../database/rows/rows.service';
import type { TableContext } from '../database/table-context';
import type { ViewEntity } from '../views/view.entity';
import { ViewRepository } from '../views/view.repository';
import { ViewsService } from '../views/views.service';
import { WebhookIndex } from './webhook-index';

/**
 * The views `view.rows_entered` webhooks watch: which of a write's rows each showed before the
 * write (told to the row services as a row visibility source) and shows after it, so the rows
 * that start matching a view's filters are sent once.
 */
@Injectable()
export class WebhookViews implements OnModuleInit {
  constructor(
    private readonly index: WebhookIndex,
    private readonly rows: RowsService,
    private readonly views: ViewsService,
    private readonly viewRepo: ViewRepository,
  ) {}

  onModuleInit(): void {
    this.rows.useRowVisibility(this);
  }

  /** Before an update or delete: per watched view with filters, the rows of `rowIds` it shows (one without filters shows them all). */
  async visibleBefore(context: TableContext, rowIds: number[]): Promise<RowVisibility | undefined> {
    let result: RowVisibility | undefined;
    for (const viewId of (await this.index.watchedViews(context.table.id)).keys()) {
      const view = await this.liveView(viewId, context);
      if (!view) continue;
      const shown = await this.shown(view, context, rowIds);
      if (shown) (result ??= {})[String(viewId)] = [...shown];
    }
    return result;
  }

  /** The rows of `rowIds` the view shows now; null when it has no filters (it shows them all). */
  async shown(view: ViewEntity, context: TableContext, rowIds: number[]): Promise<Set<number> | null> {
    const { filters } = await this.views.savedSelection(view, context);
    if (!filters) return null;
    if (!rowIds.length) return new Set();
    const { rows } = await this.rows.select(context, { filters, search: null, sorts: [], rowIds }, false, rowIds.length, 0);
    return new Set(rows.map((row) => Number(row.id)));
  }

  /** The view when it is live and of the table. */
  async liveView(viewId: number, context: TableContext): Promise<ViewEntity | null> {
    const view = await this.viewRepo.findLive(viewId);
    return view && view.tableId === context.table.id ? view : null;
  }
}
