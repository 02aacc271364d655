import { Errors } from '../core/errors/api-error';
import { OnEvent } from '@nestjs/event-emitter';
import type { DomainEvent } from '../core/events/domain-events';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import type { FieldEntity } from '../database/fields/field.entity';
import type { RowSelection } from '../database/rows/row-list.query';
import type { ViewSelectionSource } from '../database/rows/rows.service';
import type { ImportIds, ViewDocument } from '../database/serialization/database-document';
import type { ViewSerializer } from '../database/serialization/database-serializer';
import type { TableContext } from '../database/table-context';
import type { DefaultViewFactory } from '../database/tables/tables.service';
import { DecorationCopier } from './decorations/decoration-copier';
import { ViewSelectionService } from './filters/view-selection.service';
import { ViewFieldOptionsService } from './view-field-options.service';
import { ViewRepository } from './view.repository';
import { isPersonal } from './view-ownership';
import { specDefaults, ViewTypeRegistry } from './view-type';
import { ViewsService } from './views.service';

/**
 * What views do for the database core (wired by the views module): a new table's first view,
 * the `view_id` selection of the rows endpoints, views exported with their table and imported
 * into a new one, and what views keep about a field as it is duplicated, changed or trashed.
 */
@Injectable()
export class ViewHooksService implements DefaultViewFactory, ViewSelectionSource, ViewSerializer {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: ViewRepository,
    private readonly types: ViewTypeRegistry,
    private readonly views: ViewsService,
    private readonly options: ViewFieldOptionsService,
    private readonly parts: ViewSelectionService,
    private readonly decorations: DecorationCopier,
  ) {}

  /** A new table's first view: grid "Grid" with the given field widths (inside the table's unit of work). */
  async createDefaultView(context: TableContext, widths: Map<number, number>): Promise<void> {
    const view = await this.views.insert(context.table.id, { name: 'Grid', type: 'grid', properties: specDefaults(this.types.of({ type: 'grid' }).properties) });
    await this.options.applyFieldOptions(view, context, new Map([...widths].map(([fieldId, width]) => [fieldId, { width }])));
  }

  /** The serializer's export: every live view of the table with its settings, field options, filters, sorts, group-bys and decorations. */
  async exportViews(context: TableContext): Promise<ViewDocument[]> {
    const result: ViewDocument[] = [];
    for (const view of await this.repo.ofTable(context.table.id)) {
      const options = [...(await this.repo.fieldOptions(view.id)).values()].filter((o) => context.byId.has(o.fieldId)).sort((a, b) => a.fieldId - b.fieldId);
      result.push({
        id: view.id,
        name: view.name,
        type: view.type,
        order: view.order,
        filter_type: view.filterType,
        filters_disabled: view.filtersDisabled,
        show_logo: view.showLogo,
        allow_public_export: view.allowPublicExport,
        ownership_type: view.ownershipType,
        properties: structuredClone(view.properties),
        field_options: options.map((o) => ({ ...structuredClone(o.options), field_id: o.fieldId })),
        ...(await this.parts.exportParts(view.id)),
        decorations: await this.decorations.exportOf(view.id),
      });
    }
    return result;
  }

  /**
   * The serializer's import (inside its unit of work): the views of a new table, not shared,
   * their fields mapped through `ids` (options of fields the import did not create are left out).
   */
  async importViews(context: TableContext, docs: ViewDocument[], ids: ImportIds): Promise<void> {
    for (const doc of docs) {
      const type = this.types.get(doc.type);
      if (!type) continue;
      const properties = { ...specDefaults(type.properties), ...structuredClone(doc.properties ?? {}) };
      const options = (doc.field_options ?? [])
        .filter((o) => ids.fields.has(Number(o.field_id)))
        .map(({ field_id, ...values }) => ({ fieldId: ids.fields.get(Number(field_id))!, options: structuredClone(values) as Record<string, unknown> }));
      type.remapFields?.(properties, options.map((o) => o.options), ids.fields);
      const created = await this.views.insert(context.table.id, {
        name: doc.name,
        type: doc.type,
        order: doc.order,
        filterType: doc.filter_type === 'OR' ? 'OR' : 'AND',
        filtersDisabled: doc.filters_disabled ?? false,
        showLogo: doc.show_logo ?? true,
        allowPublicExport: doc.allow_public_export ?? false,
        ownershipType: doc.ownership_type ?? 'collaborative',
        ownedById: null,
        properties,
      });
      await this.repo.createFieldOptions(created.id, options);
      await this.parts.importParts(created.id, doc, ids);
      await this.decorations.importInto(created.id, doc.decorations ?? [], ids);
    }
  }

  /**
   * Field duplication: in every view of the table with field options the copy gets the
   * original's options; where fields are ordered (grid `order`) it comes right after the
   * original, the fields after it moving one place on.
   */
  async fieldDuplicated(context: TableContext, originalId: number, copyId: number): Promise<void> {
    const original = context.byId.get(originalId);
    const copy = context.byId.get(copyId);
    if (!original || !copy) return;
    for (const view of await this.repo.ofTable(context.table.id)) {
      const type = this.types.of(view);
      if (!type.fieldOptions) continue;
      const stored = await this.repo.fieldOptions(view.id);
      const optionsOf = (field: FieldEntity) => ({ ...type.defaultFieldOptions(field), ...(stored.get(field.id)?.options ?? {}) });
      const changes = new Map<number, Record<string, unknown>>([[copyId, { ...optionsOf(original) }]]);
      if ('order' in type.fieldOptions) {
        const others = context.fields.filter((f) => f.id !== copyId);
        const ordered = others.sort((a, b) => Number(optionsOf(a).order) - Number(optionsOf(b).order) || a.id - b.id);
        ordered.splice(ordered.findIndex((f) => f.id === originalId) + 1, 0, copy);
        ordered.forEach((field, index) => {
          if (field.id === copyId || Number(optionsOf(field).order) !== index) changes.set(field.id, { ...(changes.get(field.id) ?? {}), order: index });
        });
      }
      await this.options.applyFieldOptions(view, context, changes);
      this.db.record('view.field_options_updated', { viewId: view.id, tableId: view.tableId });
    }
  }

  /**
   * A field was trashed or changed (inside its unit of work): the views of its table whose
   * settings name it and can no longer use it are changed (a kanban loses its single select field).
   */
  async fieldChanged(field: FieldEntity, removed: boolean): Promise<void> {
    for (const view of await this.repo.ofTable(field.tableId)) {
      const changes = this.types.of(view).fieldChanged?.(view, field, removed);
      if (changes) await this.repo.update(view.id, { properties: { ...view.properties, ...changes } });
    }
  }

  /** A user deleted for good takes their personal views with them, as Baserow's `delete_personal_views`. */
  @OnEvent('user.permanently_deleted')
  async deletePersonalViews(event: DomainEvent<'user.permanently_deleted'>): Promise<void> {
    await this.db.run(async () => {
      for (const view of await this.repo.personalOf(event.payload.userId)) await this.repo.delete(view.id);
    });
  }

  /** `view_id` on the rows endpoints: the view's saved filters and sorts, or null when it is not a live view of the table. */
  async selection(viewId: number, context: TableContext, userId?: number): Promise<Pick<RowSelection, 'filters' | 'sorts'> | null> {
    const view = await this.repo.findLive(viewId);
    if (!view || view.tableId !== context.table.id) return null;
    // Someone else's personal view is refused (Baserow's view_ownership manager: PERMISSION_DENIED).
    if (userId !== undefined && isPersonal(view) && view.ownedById !== userId) throw Errors.permissionDenied();
    return this.views.savedSelection(view, context);
  }
}
