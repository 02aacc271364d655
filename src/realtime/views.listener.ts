import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { OnEvent } from '@nestjs/event-emitter';
import { DomainEvent } from '../core/events/domain-events';
import { ViewFilterRepository } from '../views/filters/view-filter.repository';
import { filterGroupJson, groupByJson, sortJson, ViewSelectionService } from '../views/filters/view-selection.service';
import { ViewGroupByEntity, ViewSortEntity } from '../views/sorts/view-sort.entity';
import { ViewSortRepository } from '../views/sorts/view-sort.repository';
import { ALL_INCLUDES, NO_INCLUDES } from '../views/view-json.service';
import { ViewsService } from '../views/views.service';
import { decorationJson } from '../views/decorations/decoration.entity';
import { ViewDecorationRepository } from '../views/decorations/decoration.repository';
import { ViewRepository } from '../views/view.repository';
import { isPersonal, PERSONAL } from '../views/view-ownership';
import { Broadcaster } from './broadcaster';
import { encode, ServerMessage } from './delivery';
import { tablePageGroup } from './pages/table.page';

/** The sub-objects of a view, each sent as `<kind>_created`, `<kind>_updated` and `<kind>_deleted`. */
type ViewPart = 'view_filter' | 'view_filter_group' | 'view_sort' | 'view_group_by' | 'view_decoration';

/**
 * Turns committed view events into §4.9 messages, routed by the view's ownership: a
 * collaborative view's to PAGE(`table-<id>`), a personal view's to USERS([owner]) (nothing
 * when it has no owner), always without the originating socket.
 */
@Injectable()
export class ViewsListener implements OnModuleInit {
  private views!: ViewsService;
  private repo!: ViewRepository;
  private decorations!: ViewDecorationRepository;
  private filters!: ViewFilterRepository;
  private sorts!: ViewSortRepository;
  private parts!: ViewSelectionService;

  constructor(
    private readonly broadcaster: Broadcaster,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** The views module is not imported by the realtime module (it depends on the database module); it is looked up once. */
  onModuleInit(): void {
    this.views = this.moduleRef.get(ViewsService, { strict: false });
    this.repo = this.moduleRef.get(ViewRepository, { strict: false });
    this.decorations = this.moduleRef.get(ViewDecorationRepository, { strict: false });
    this.filters = this.moduleRef.get(ViewFilterRepository, { strict: false });
    this.sorts = this.moduleRef.get(ViewSortRepository, { strict: false });
    this.parts = this.moduleRef.get(ViewSelectionService, { strict: false });
  }

  private async toTable(tableId: number, message: ServerMessage, event: DomainEvent, excludeUserIds?: number[]): Promise<void> {
    await this.broadcaster.send({ kind: 'page', group: tablePageGroup(tableId), message: encode(message), exclude: event.actor.webSocketId, ...(excludeUserIds ? { excludeUserIds } : {}) });
  }

  /** To whoever may see the view: its table's page, or only the owner of a personal view (trashed views included). */
  private async toViewAudience(viewId: number, tableId: number, message: ServerMessage, event: DomainEvent): Promise<void> {
    const view = await this.repo.findAny(viewId);
    if (view && isPersonal(view)) {
      if (view.ownedById !== null) await this.broadcaster.send({ kind: 'users', userIds: [view.ownedById], message: encode(message), exclude: event.actor.webSocketId });
      return;
    }
    await this.toTable(tableId, message, event);
  }

  @OnEvent('view.created')
  async viewCreated(event: DomainEvent<'view.created'>): Promise<void> {
    const view = await this.views.viewJson(event.payload.viewId, ALL_INCLUDES);
    if (!view) return;
    await this.toViewAudience(event.payload.viewId, event.payload.tableId, { type: 'view_created', view }, event);
  }

  @OnEvent('view.updated')
  async viewUpdated(event: DomainEvent<'view.updated'>): Promise<void> {
    const { viewId, tableId, previousOwnership } = event.payload;
    const view = await this.views.viewJson(viewId, NO_INCLUDES);
    if (!view) return;
    const updated: ServerMessage = { type: 'view_updated', view_id: viewId, view };
    const owner = view.owned_by_id as number | null;
    if (previousOwnership !== undefined && previousOwnership !== view.ownership_type && owner !== null) {
      // Collaborative → personal: gone for the others; personal → collaborative: new to them. The owner gets the update.
      const others: ServerMessage =
        view.ownership_type === PERSONAL ? { type: 'view_deleted', table_id: tableId, view_id: viewId } : { type: 'view_created', view: await this.views.viewJson(viewId, ALL_INCLUDES) };
      await this.toTable(tableId, others, event, [owner]);
      await this.broadcaster.send({ kind: 'users', userIds: [owner], message: encode(updated), exclude: event.actor.webSocketId });
      return;
    }
    await this.toViewAudience(viewId, tableId, updated, event);
  }

  @OnEvent('view.deleted')
  async viewDeleted(event: DomainEvent<'view.deleted'>): Promise<void> {
    const { tableId, viewId } = event.payload;
    await this.toViewAudience(viewId, tableId, { type: 'view_deleted', table_id: tableId, view_id: viewId }, event);
  }

  @OnEvent('views.reordered')
  async viewsReordered(event: DomainEvent<'views.reordered'>): Promise<void> {
    const { tableId, viewIds } = event.payload;
    // Routed by the first view's ownership, as Baserow does.
    const message: ServerMessage = { type: 'views_reordered', table_id: tableId, order: viewIds };
    if (viewIds.length) await this.toViewAudience(viewIds[0], tableId, message, event);
    else await this.toTable(tableId, message, event);
  }

  @OnEvent('view.field_options_updated')
  async fieldOptionsUpdated(event: DomainEvent<'view.field_options_updated'>): Promise<void> {
    const { viewId } = event.payload;
    const view = await this.repo.findLive(viewId);
    if (!view) return;
    const access = await this.views.systemAccess(view);
    if (!access) return;
    const fieldOptions = await this.views.fieldOptions(view, access.context);
    await this.toViewAudience(viewId, event.payload.tableId, { type: 'view_field_options_updated', view_id: viewId, field_options: fieldOptions }, event);
  }

  // ------------------------------------------------------------------ filters, filter groups, sorts, group-bys

  /** The changed object as the API answers it, read after commit; null when it is gone meanwhile. */
  private async part(kind: ViewPart, id: number): Promise<Record<string, unknown> | null> {
    if (kind === 'view_filter') {
      const filter = await this.filters.findLive(id);
      const view = filter && (await this.repo.findLive(filter.viewId));
      const access = view && (await this.views.systemAccess(view));
      return filter && access ? (await this.parts.filtersJson([filter], access.context))[0] : null;
    }
    if (kind === 'view_filter_group') {
      const group = await this.filters.findGroup(id);
      return group ? filterGroupJson(group) : null;
    }
    if (kind === 'view_sort') {
      const sort = await this.sorts.findLive(ViewSortEntity, id);
      return sort ? sortJson(sort) : null;
    }
    if (kind === 'view_group_by') {
      const groupBy = await this.sorts.findLive(ViewGroupByEntity, id);
      return groupBy ? groupByJson(groupBy) : null;
    }
    const decoration = await this.decorations.find(id);
    return decoration ? decorationJson(decoration) : null;
  }

  private async created(kind: ViewPart, event: DomainEvent<`${typeof kind}.created`>): Promise<void> {
    const json = await this.part(kind, event.payload.id);
    if (json) await this.toViewAudience(event.payload.viewId, event.payload.tableId, { type: `${kind}_created`, [kind]: json }, event);
  }

  private async updated(kind: ViewPart, event: DomainEvent<`${typeof kind}.updated`>): Promise<void> {
    const json = await this.part(kind, event.payload.id);
    if (json) await this.toViewAudience(event.payload.viewId, event.payload.tableId, { type: `${kind}_updated`, [`${kind}_id`]: event.payload.id, [kind]: json }, event);
  }

  private async deleted(kind: ViewPart, event: DomainEvent<`${typeof kind}.deleted`>): Promise<void> {
    await this.toViewAudience(event.payload.viewId, event.payload.tableId, { type: `${kind}_deleted`, view_id: event.payload.viewId, [`${kind}_id`]: event.payload.id }, event);
  }

  @OnEvent('view_filter.created')
  filterCreated(event: DomainEvent<'view_filter.created'>): Promise<void> {
    return this.created('view_filter', event);
  }

  @OnEvent('view_filter.updated')
  filterUpdated(event: DomainEvent<'view_filter.updated'>): Promise<void> {
    return this.updated('view_filter', event);
  }

  @OnEvent('view_filter.deleted')
  filterDeleted(event: DomainEvent<'view_filter.deleted'>): Promise<void> {
    return this.deleted('view_filter', event);
  }

  @OnEvent('view_filter_group.created')
  filterGroupCreated(event: DomainEvent<'view_filter_group.created'>): Promise<void> {
    return this.created('view_filter_group', event);
  }

  @OnEvent('view_filter_group.updated')
  filterGroupUpdated(event: DomainEvent<'view_filter_group.updated'>): Promise<void> {
    return this.updated('view_filter_group', event);
  }

  @OnEvent('view_filter_group.deleted')
  filterGroupDeleted(event: DomainEvent<'view_filter_group.deleted'>): Promise<void> {
    return this.deleted('view_filter_group', event);
  }

  @OnEvent('view_sort.created')
  sortCreated(event: DomainEvent<'view_sort.created'>): Promise<void> {
    return this.created('view_sort', event);
  }

  @OnEvent('view_sort.updated')
  sortUpdated(event: DomainEvent<'view_sort.updated'>): Promise<void> {
    return this.updated('view_sort', event);
  }

  @OnEvent('view_sort.deleted')
  sortDeleted(event: DomainEvent<'view_sort.deleted'>): Promise<void> {
    return this.deleted('view_sort', event);
  }

  @OnEvent('view_group_by.created')
  groupByCreated(event: DomainEvent<'view_group_by.created'>): Promise<void> {
    return this.created('view_group_by', event);
  }

  @OnEvent('view_group_by.updated')
  groupByUpdated(event: DomainEvent<'view_group_by.updated'>): Promise<void> {
    return this.updated('view_group_by', event);
  }

  @OnEvent('view_group_by.deleted')
  groupByDeleted(event: DomainEvent<'view_group_by.deleted'>): Promise<void> {
    return this.deleted('view_group_by', event);
  }

  @OnEvent('view_decoration.created')
  decorationCreated(event: DomainEvent<'view_decoration.created'>): Promise<void> {
    return this.created('view_decoration', event);
  }

  @OnEvent('view_decoration.updated')
  decorationUpdated(event: DomainEvent<'view_decoration.updated'>): Promise<void> {
    return this.updated('view_decoration', event);
  }

  @OnEvent('view_decoration.deleted')
  decorationDeleted(event: DomainEvent<'view_decoration.deleted'>): Promise<void> {
    return this.deleted('view_decoration', event);
  }
}
