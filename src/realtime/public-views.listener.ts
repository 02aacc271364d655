import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { OnEvent } from '@nestjs/event-emitter';
import { DomainEvent, RowSnapshot } from '../core/events/domain-events';
import { RowsService } from '../database/rows/rows.service';
import { FieldJson, FieldsService } from '../database/fields/fields.service';
import { TableContextService } from '../database/table-context';
import { hasPublicRows, PublicViewAccess, PublicViewsService } from '../views/public/public-views.service';
import { ViewRepository } from '../views/view.repository';
import { Broadcaster } from './broadcaster';
import { Delivery, encode, ServerMessage } from './delivery';
import { viewPageGroup } from './pages/view.page';

/** PAGE(`view-<slug>`), to every socket (no origin exclusion on shared pages). */
function toViewPage(slug: string, message: ServerMessage): Delivery {
  return { kind: 'page', group: viewPageGroup(slug), message: encode(message), exclude: null };
}

/**
 * The public twins of field, row and view messages for shared views' pages (Baserow's
 * `ws/public` handlers): fields and rows reduced to what each public view shows (ids of the
 * table, database and workspace as 0, hidden fields' values never sent), rows leaving the
 * view's filter sent as deleted, `force_view_refresh` when the view or its field options
 * change, and the pages of a link that stopped opening discarded.
 */
@Injectable()
export class PublicViewsListener implements OnModuleInit {
  private publicViews!: PublicViewsService;
  private views!: ViewRepository;

  constructor(
    private readonly broadcaster: Broadcaster,
    private readonly moduleRef: ModuleRef,
    private readonly contexts: TableContextService,
    private readonly fields: FieldsService,
    private readonly rows: RowsService,
  ) {}

  /** The views module is not imported by the realtime module: looked up once. */
  onModuleInit(): void {
    this.publicViews = this.moduleRef.get(PublicViewsService, { strict: false });
    this.views = this.moduleRef.get(ViewRepository, { strict: false });
  }

  /** Every public view of the table that has a shared page with rows, as anyone sees it. */
  private async sharedViews(tableId: number): Promise<PublicViewAccess[]> {
    const views = (await this.views.publicOfTable(tableId)).filter((view) => hasPublicRows(view.type));
    if (!views.length) return [];
    const context = await this.contexts.ofTable(tableId);
    if (!context) return [];
    const result: PublicViewAccess[] = [];
    for (const view of views) result.push({ view, context, visible: await this.publicViews.visibleFields(view, context), member: false });
    return result;
  }

  // Fields

  @OnEvent('field.created')
  async fieldCreated(event: DomainEvent<'field.created'>): Promise<void> {
    await this.fieldChanged(event, (field, related) => ({ type: 'field_created', field, related_fields: related }));
  }

  @OnEvent('field.updated')
  async fieldUpdated(event: DomainEvent<'field.updated'>): Promise<void> {
    await this.fieldChanged(event, (field, related) => ({ type: 'field_updated', field_id: field.id, field, related_fields: related }));
  }

  @OnEvent('field.restored')
  async fieldRestored(event: DomainEvent<'field.restored'>): Promise<void> {
    await this.fieldChanged(event, (field, related) => ({ type: 'field_restored', field, related_fields: related }));
  }

  /** Sent to the views in which the field was visible (its options survive in the trash). */
  @OnEvent('field.deleted')
  async fieldDeleted(event: DomainEvent<'field.deleted'>): Promise<void> {
    const { fieldId, tableId, relatedFieldIds } = event.payload;
    const deliveries: Delivery[] = [];
    for (const access of await this.sharedViews(tableId)) {
      const options = await this.views.fieldOptions(access.view.id);
      if (options.get(fieldId)?.options.hidden !== false) continue;
      const related = await this.relatedIn(access, relatedFieldIds);
      deliveries.push(toViewPage(access.view.slug, { type: 'field_deleted', table_id: 0, field_id: fieldId, related_fields: related }));
    }
    await this.broadcaster.send(...deliveries);
  }

  private async fieldChanged(event: DomainEvent<'field.created' | 'field.updated' | 'field.restored'>, build: (field: FieldJson, related: FieldJson[]) => ServerMessage): Promise<void> {
    const { fieldId, tableId, relatedFieldIds } = event.payload;
    const deliveries: Delivery[] = [];
    for (const access of await this.sharedViews(tableId)) {
      const field = access.visible.find((f) => f.id === fieldId);
      if (!field) continue;
      const json = this.publicViews.publicField(await this.fields.serialize(field, access.context));
      deliveries.push(toViewPage(access.view.slug, build(json, await this.relatedIn(access, relatedFieldIds))));
    }
    await this.broadcaster.send(...deliveries);
  }

  /** The related fields the view shows (of its own table: another table's fields are not the view's to show). */
  private async relatedIn(access: PublicViewAccess, fieldIds: number[]): Promise<FieldJson[]> {
    const shown = access.visible.filter((field) => fieldIds.includes(field.id));
    const jsons = await Promise.all(shown.map((field) => this.fields.serialize(field, access.context)));
    return jsons.map((json) => this.publicViews.publicField(json));
  }

  // Rows

  @OnEvent('rows.created')
  async rowsCreated(event: DomainEvent<'rows.created'>): Promise<void> {
    const { tableId, rowIds, beforeRowId } = event.payload;
    const deliveries: Delivery[] = [];
    for (const access of await this.sharedViews(tableId)) {
      const visible = await this.publicViews.visibleRowIds(access, rowIds);
      if (!visible.size) continue;
      const rows = await this.currentRows(access, [...visible]);
      deliveries.push(toViewPage(access.view.slug, { type: 'rows_created', table_id: 0, rows, metadata: {}, before_row_id: beforeRowId }));
    }
    await this.broadcaster.send(...deliveries);
  }

  /**
   * Per view: the rows it shows now are `rows_updated`; the ones it no longer shows (its
   * filter) are `rows_deleted`. Which rows a filtered view showed before the write is not
   * known after it: rows leaving it are sent with their id and order only, so nothing of a row
   * the view never showed is sent.
   */
  @OnEvent('rows.updated')
  async rowsUpdated(event: DomainEvent<'rows.updated'>): Promise<void> {
    const { tableId, rowIds, rowsBefore, updatedFieldIds } = event.payload;
    const deliveries: Delivery[] = [];
    for (const access of await this.sharedViews(tableId)) {
      const visible = await this.publicViews.visibleRowIds(access, rowIds);
      const stay = rowIds.filter((id) => visible.has(id));
      const leave = rowIds.filter((id) => !visible.has(id));
      if (stay.length) {
        const before = this.publicViews.restrict(rowsBefore.filter((row) => visible.has(Number(row.id))) as never, access.visible);
        const rows = await this.currentRows(access, stay);
        deliveries.push(toViewPage(access.view.slug, { type: 'rows_updated', table_id: 0, rows_before_update: before, rows, metadata: {}, updated_field_ids: updatedFieldIds }));
      }
      if (leave.length) deliveries.push(toViewPage(access.view.slug, { type: 'rows_deleted', table_id: 0, row_ids: leave, rows: idsOnly(rowsBefore, leave) }));
    }
    await this.broadcaster.send(...deliveries);
  }

  /**
   * The deleted rows as they were, reduced to the visible fields. A view with saved filters may
   * not have shown them all (that is not known once they are gone): then only ids and orders.
   */
  @OnEvent('rows.deleted')
  async rowsDeleted(event: DomainEvent<'rows.deleted'>): Promise<void> {
    const { tableId, rowIds, rows } = event.payload;
    const deliveries: Delivery[] = [];
    for (const access of await this.sharedViews(tableId)) {
      const shown = this.publicViews.savedFilters(access) ? idsOnly(rows, rowIds) : this.publicViews.restrict(rows as never, access.visible);
      deliveries.push(toViewPage(access.view.slug, { type: 'rows_deleted', table_id: 0, row_ids: rowIds, rows: shown }));
    }
    await this.broadcaster.send(...deliveries);
  }

  private async currentRows(access: PublicViewAccess, ids: number[]) {
    return this.publicViews.restrict(await this.rowsOf(access, ids), access.visible);
  }

  private rowsOf(access: PublicViewAccess, ids: number[]) {
    return this.rows.rowsByIds(access.context, ids, { userFieldNames: false, fields: access.visible });
  }

  // Views

  @OnEvent('view.updated')
  async viewUpdated(event: DomainEvent<'view.updated'>): Promise<void> {
    await this.forceRefresh(event.payload.viewId);
  }

  @OnEvent('view.field_options_updated')
  async fieldOptionsUpdated(event: DomainEvent<'view.field_options_updated'>): Promise<void> {
    await this.forceRefresh(event.payload.viewId);
  }

  /** The link stopped opening for some (not public, new password, new slug): their pages are checked again. */
  @OnEvent('view.public_access_changed')
  async publicAccessChanged(event: DomainEvent<'view.public_access_changed'>): Promise<void> {
    await this.broadcaster.send({ kind: 'recheck_pages', group: viewPageGroup(event.payload.slug) });
  }

  @OnEvent('view.deleted')
  async viewDeleted(event: DomainEvent<'view.deleted'>): Promise<void> {
    const view = await this.views.findAny(event.payload.viewId);
    if (view) await this.broadcaster.send({ kind: 'recheck_pages', group: viewPageGroup(view.slug) });
  }

  /** `force_view_refresh` with the public fields and view, to a public view's page. */
  private async forceRefresh(viewId: number): Promise<void> {
    const view = await this.views.findLive(viewId);
    if (!view || !view.public || !hasPublicRows(view.type)) return;
    const context = await this.contexts.ofTable(view.tableId);
    if (!context) return;
    const access: PublicViewAccess = { view, context, visible: await this.publicViews.visibleFields(view, context), member: false };
    const message = { type: 'force_view_refresh', view_id: view.slug, fields: await this.publicViews.publicFields(access), view: this.publicViews.publicView(view, context) };
    await this.broadcaster.send(toViewPage(view.slug, message));
  }
}

/** `{id, order}` of the listed rows (what may be said of a row the view may never have shown). */
function idsOnly(rows: RowSnapshot[], ids: number[]): RowSnapshot[] {
  const wanted = new Set(ids);
  return rows.filter((row) => wanted.has(Number(row.id))).map((row) => ({ id: row.id, order: row.order }) as RowSnapshot);
}
