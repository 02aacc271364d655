import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { OnEvent } from '@nestjs/event-emitter';
import { DomainEvent } from '../core/events/domain-events';
import { ALL_INCLUDES, NO_INCLUDES, ViewsService } from '../views/views.service';
import { decorationJson } from '../views/decorations/decoration.entity';
import { ViewDecorationRepository } from '../views/decorations/decoration.repository';
import { ViewRepository } from '../views/view.repository';
import { Broadcaster } from './broadcaster';
import { encode, ServerMessage } from './delivery';

/**
 * Turns committed view events into §4.9 messages. Every view is collaborative, so the
 * audience is PAGE(`table-<id>`) without the originating socket.
 */
@Injectable()
export class ViewsListener implements OnModuleInit {
  private views!: ViewsService;
  private repo!: ViewRepository;
  private decorations!: ViewDecorationRepository;

  constructor(
    private readonly broadcaster: Broadcaster,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** The views module is not imported by the realtime module (it depends on the database module); it is looked up once. */
  onModuleInit(): void {
    this.views = this.moduleRef.get(ViewsService, { strict: false });
    this.repo = this.moduleRef.get(ViewRepository, { strict: false });
    this.decorations = this.moduleRef.get(ViewDecorationRepository, { strict: false });
  }

  private async toTable(tableId: number, message: ServerMessage, event: DomainEvent): Promise<void> {
    await this.broadcaster.send({ kind: 'page', group: `table-${tableId}`, message: encode(message), exclude: event.actor.webSocketId });
  }

  @OnEvent('view.created')
  async viewCreated(event: DomainEvent<'view.created'>): Promise<void> {
    const view = await this.views.viewJson(event.payload.viewId, ALL_INCLUDES);
    if (!view) return;
    await this.toTable(event.payload.tableId, { type: 'view_created', view }, event);
  }

  @OnEvent('view.updated')
  async viewUpdated(event: DomainEvent<'view.updated'>): Promise<void> {
    const view = await this.views.viewJson(event.payload.viewId, NO_INCLUDES);
    if (!view) return;
    await this.toTable(event.payload.tableId, { type: 'view_updated', view_id: event.payload.viewId, view }, event);
  }

  @OnEvent('view.deleted')
  async viewDeleted(event: DomainEvent<'view.deleted'>): Promise<void> {
    const { tableId, viewId } = event.payload;
    await this.toTable(tableId, { type: 'view_deleted', table_id: tableId, view_id: viewId }, event);
  }

  @OnEvent('views.reordered')
  async viewsReordered(event: DomainEvent<'views.reordered'>): Promise<void> {
    const { tableId, viewIds } = event.payload;
    await this.toTable(tableId, { type: 'views_reordered', table_id: tableId, order: viewIds }, event);
  }

  @OnEvent('view.field_options_updated')
  async fieldOptionsUpdated(event: DomainEvent<'view.field_options_updated'>): Promise<void> {
    const { viewId } = event.payload;
    const view = await this.repo.findLive(viewId);
    if (!view) return;
    const access = await this.views.systemAccess(view);
    if (!access) return;
    const fieldOptions = await this.views.fieldOptions(view, access.context);
    await this.toTable(event.payload.tableId, { type: 'view_field_options_updated', view_id: viewId, field_options: fieldOptions }, event);
  }

  @OnEvent('view_decoration.created')
  async decorationCreated(event: DomainEvent<'view_decoration.created'>): Promise<void> {
    const decoration = await this.decorations.find(event.payload.decorationId);
    if (!decoration) return;
    await this.toTable(event.payload.tableId, { type: 'view_decoration_created', view_decoration: decorationJson(decoration) }, event);
  }

  @OnEvent('view_decoration.updated')
  async decorationUpdated(event: DomainEvent<'view_decoration.updated'>): Promise<void> {
    const decoration = await this.decorations.find(event.payload.decorationId);
    if (!decoration) return;
    await this.toTable(
      event.payload.tableId,
      { type: 'view_decoration_updated', view_decoration_id: decoration.id, view_decoration: decorationJson(decoration) },
      event,
    );
  }

  @OnEvent('view_decoration.deleted')
  async decorationDeleted(event: DomainEvent<'view_decoration.deleted'>): Promise<void> {
    const { tableId, viewId, decorationId } = event.payload;
    await this.toTable(tableId, { type: 'view_decoration_deleted', view_id: viewId, view_decoration_id: decorationId }, event);
  }
}
