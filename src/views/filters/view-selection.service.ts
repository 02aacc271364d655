import { Injectable } from '@nestjs/common';
import { Caches, VersionedCache } from '../../core/cache/caches';
import { UnitOfWork } from '../../core/database/unit-of-work';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldTypeRegistry, sortExpressionOf } from '../../database/fields/field-type';
import { FilterCompiler } from '../../database/filters/filter-tree';
import type { FilterLeaf, FilterTree } from '../../database/filters/filter-tree';
import type { RowSort } from '../../database/rows/row-list.query';
import type { FilteredRowsQuery } from '../../database/rows/rows.query';
import { RowRepository } from '../../database/rows/row.repository';
import { RowsService } from '../../database/rows/rows.service';
import { TableContext, TableContextService } from '../../database/table-context';
import type { ViewEntity } from '../view.entity';
import type { ImportIds, ViewDocument } from '../../database/serialization/database-document';
import { FilterTypeRegistry } from '../../database/filters/filter-type';
import { ViewRepository } from '../view.repository';
import { ViewGroupByEntity, ViewSortEntity } from '../sorts/view-sort.entity';
import { ViewSortRepository } from '../sorts/view-sort.repository';
import { ViewFilterEntity, ViewFilterGroupEntity } from './view-filter.entity';
import { ViewFilterRepository } from './view-filter.repository';

/** What a view keeps besides its settings: filters, filter groups, sorts and group-bys (every field's, trashed ones too). */
export interface SavedSelection {
  filters: ViewFilterEntity[];
  groups: ViewFilterGroupEntity[];
  sorts: ViewSortEntity[];
  groupBys: ViewGroupByEntity[];
}

/** The view's saved selection as the rows endpoints apply it (fields of the table's live fields only). */
export interface CompiledSelection {
  filters: FilterTree | null;
  sorts: RowSort[];
  groupBys: RowSort[];
}

/** Sorts with the group-bys first (a field already grouped on is not sorted again). */
export function groupsFirst(groupBys: RowSort[], sorts: RowSort[]): RowSort[] {
  const grouped = new Set(groupBys.map((s) => s.field.id));
  return [...groupBys, ...sorts.filter((s) => !grouped.has(s.field.id))];
}

/** A request's ad-hoc selection parameters: filters (`filters`, `filter_type`, `filter__…`), search and, when taken, `order_by`. */
export function adhocParameters(query: Record<string, unknown>, takesOrderBy: boolean): FilteredRowsQuery {
  const keys = takesOrderBy ? ['search', 'search_mode', 'filters', 'filter_type', 'order_by'] : ['search', 'search_mode', 'filters', 'filter_type'];
  return Object.fromEntries(Object.entries(query).filter(([key]) => keys.includes(key) || key.startsWith('filter__')));
}

/** Filter types whose `preload_values` name the linked row. */
const LINK_ROW_PRELOAD = new Set(['link_row_has', 'link_row_has_not']);

export const filterGroupJson = (group: ViewFilterGroupEntity) => ({ id: group.id, filter_type: group.filterType, view: group.viewId, parent_group: group.parentGroupId });
export const sortJson = (sort: ViewSortEntity) => ({ id: sort.id, view: sort.viewId, field: sort.fieldId, order: sort.order, type: sort.type });
export const groupByJson = (groupBy: ViewGroupByEntity) => ({ id: groupBy.id, view: groupBy.viewId, field: groupBy.fieldId, order: groupBy.order, width: groupBy.width, type: groupBy.type });

/**
 * Reads, serializes, compiles and copies what views keep (filters, groups, sorts, group-bys).
 * A view's saved selection is cached by the view's `version`, which every change of them
 * bumps in its transaction; things on trashed fields are kept but hidden (not listed, not
 * applied) and come back with the field.
 */
@Injectable()
export class ViewSelectionService {
  private readonly cache: VersionedCache<number, SavedSelection>;

  constructor(
    caches: Caches,
    private readonly db: UnitOfWork,
    private readonly filters: ViewFilterRepository,
    private readonly sorts: ViewSortRepository,
    private readonly views: ViewRepository,
    private readonly fieldTypes: FieldTypeRegistry,
    private readonly compiler: FilterCompiler,
    private readonly contexts: TableContextService,
    private readonly rows: RowsService,
    private readonly rowRepo: RowRepository,
    private readonly filterTypes: FilterTypeRegistry,
  ) {
    this.cache = caches.versioned<number, SavedSelection>('view-selection');
  }

  /** The saved selection of a view as of its version (read once per version outside transactions). */
  async saved(view: ViewEntity): Promise<SavedSelection> {
    const cached = this.cache.get(view.id, view.version);
    if (cached) return cached;
    const [saved] = (await this.savedOfViews([view.id])).values();
    if (!this.db.inTransaction) this.cache.set(view.id, view.version, saved);
    return saved;
  }

  /** Several views' saved selections in four queries. */
  async savedOfViews(viewIds: number[]): Promise<Map<number, SavedSelection>> {
    // One after the other: inside a transaction they share one connection (pg refuses overlapping queries in its next major).
    const filters = await this.filters.ofViews(viewIds);
    const groups = await this.filters.groupsOfViews(viewIds);
    const sorts = await this.sorts.ofViews(ViewSortEntity, viewIds);
    const groupBys = await this.sorts.ofViews(ViewGroupByEntity, viewIds);
    const result = new Map<number, SavedSelection>(viewIds.map((id) => [id, { filters: [], groups: [], sorts: [], groupBys: [] }]));
    for (const f of filters) result.get(f.viewId)?.filters.push(f);
    for (const g of groups) result.get(g.viewId)?.groups.push(g);
    for (const s of sorts) result.get(s.viewId)?.sorts.push(s);
    for (const g of groupBys) result.get(g.viewId)?.groupBys.push(g);
    return result;
  }

  /** Counts a change of what the views keep (call inside the writer's transaction). */
  bump(viewIds: number[]): Promise<void> {
    return this.views.bumpVersion([...new Set(viewIds)]);
  }

  // ------------------------------------------------------------------ compiling

  /** The filter tree (null while filters are disabled or none apply) and the sorts of a view. */
  async compiled(view: ViewEntity, context: TableContext): Promise<CompiledSelection> {
    const saved = await this.saved(view);
    const toSort = (s: ViewSortEntity | ViewGroupByEntity): RowSort | null => {
      const field = context.byId.get(s.fieldId);
      // A sort type the field no longer has (its type changed meanwhile) sorts nothing.
      if (!field || !this.sortable(field, s.type)) return null;
      return { field, descending: s.order === 'DESC', ...(s.type && s.type !== 'default' ? { type: s.type } : {}) };
    };
    return {
      filters: view.filtersDisabled ? null : this.tree(view, saved, context),
      sorts: saved.sorts.map(toSort).filter((s): s is RowSort => !!s),
      groupBys: saved.groupBys.map(toSort).filter((s): s is RowSort => !!s),
    };
  }

  private tree(view: ViewEntity, saved: SavedSelection, context: TableContext): FilterTree | null {
    const leaves = (groupId: number | null): FilterLeaf[] =>
      saved.filters
        .filter((f) => f.groupId === groupId && context.byId.has(f.fieldId))
        .map((f) => ({ field: context.byId.get(f.fieldId) as FieldEntity, type: f.type, value: f.value }));
    const build = (filterType: string, groupId: number | null, seen: Set<number>): FilterTree => ({
      filter_type: filterType === 'OR' ? 'OR' : 'AND',
      filters: leaves(groupId),
      groups: saved.groups.filter((g) => g.parentGroupId === groupId && !seen.has(g.id)).map((g) => build(g.filterType, g.id, new Set([...seen, g.id]))),
    });
    const root = build(view.filterType, null, new Set());
    const empty = (tree: FilterTree): boolean => !tree.filters.length && tree.groups.every(empty);
    return empty(root) ? null : root;
  }

  // ------------------------------------------------------------------ serialization

  /** The view JSON's sub-object lists (only those asked for), hiding what is on trashed fields. */
  async includes(view: ViewEntity, context: TableContext, includes: { filters: boolean; sortings: boolean; groupBys: boolean }): Promise<Record<string, unknown>> {
    if (!includes.filters && !includes.sortings && !includes.groupBys) return {};
    const saved = await this.saved(view);
    const live = (item: { fieldId: number }) => context.byId.has(item.fieldId);
    const out: Record<string, unknown> = {};
    if (includes.filters) {
      out.filters = await this.filtersJson(saved.filters.filter(live), context);
      out.filter_groups = saved.groups.map(filterGroupJson);
    }
    if (includes.sortings) out.sortings = saved.sorts.filter(live).map(sortJson);
    if (includes.groupBys) out.group_bys = saved.groupBys.filter(live).map(groupByJson);
    return out;
  }

  /** Filters as the API answers them, with `preload_values` (`link_row_has`: the linked row's primary value). */
  async filtersJson(filters: ViewFilterEntity[], context: TableContext | null): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    for (const filter of filters) {
      out.push({ id: filter.id, view: filter.viewId, field: filter.fieldId, type: filter.type, value: filter.value, preload_values: await this.preloadValues(filter, context), group: filter.groupId });
    }
    return out;
  }

  private async preloadValues(filter: ViewFilterEntity, context: TableContext | null): Promise<Record<string, unknown>> {
    if (!LINK_ROW_PRELOAD.has(filter.type)) return {};
    let displayName: string | null = null;
    const field = context?.byId.get(filter.fieldId);
    const rowId = /^\s*\d{1,10}\s*$/.test(filter.value) ? Number(filter.value) : null;
    const tableId = Number(field?.properties.link_row_table_id);
    if (field && rowId !== null && rowId <= 2147483647 && tableId) {
      const linked = tableId === context!.table.id ? context : await this.contexts.ofTable(tableId);
      if (linked) displayName = (await this.rows.primaryValues(linked, [rowId]))[String(rowId)] ?? null;
    }
    return { display_name: displayName };
  }

  /** What a restored field carries in `field_restored`: its filters, sorts and group-bys (by field id, with its table). */
  async fieldUse(fields: { id: number; tableId: number }[]): Promise<Map<number, { filters: unknown[]; sortings: unknown[]; group_bys: unknown[] }>> {
    const fieldIds = fields.map((f) => f.id);
    const filters = await this.filters.ofFields(fieldIds);
    const sorts = await this.sorts.ofFields(ViewSortEntity, fieldIds);
    const groupBys = await this.sorts.ofFields(ViewGroupByEntity, fieldIds);
    const result = new Map(fieldIds.map((id) => [id, { filters: [] as unknown[], sortings: [] as unknown[], group_bys: [] as unknown[] }]));
    const contexts = new Map<number, TableContext | null>();
    for (const field of fields) if (!contexts.has(field.tableId)) contexts.set(field.tableId, await this.contexts.ofTable(field.tableId));
    const tableOf = new Map(fields.map((f) => [f.id, f.tableId]));
    for (const filter of filters) {
      const context = contexts.get(tableOf.get(filter.fieldId)!) ?? null;
      result.get(filter.fieldId)?.filters.push(...(await this.filtersJson([filter], context)));
    }
    for (const sort of sorts) result.get(sort.fieldId)?.sortings.push(sortJson(sort));
    for (const groupBy of groupBys) result.get(groupBy.fieldId)?.group_bys.push(groupByJson(groupBy));
    return result;
  }

  // ------------------------------------------------------------------ field changes and copies

  /**
   * After a field's type changed (inside its transaction): the filters the new type is not
   * compatible with, and the sorts and group-bys it cannot sort, are deleted, as Baserow does.
   */
  async afterFieldTypeChange(field: FieldEntity): Promise<void> {
    const stale = (await this.filters.ofFields([field.id])).filter((f) => !this.compiler.applies(f.type, field));
    const sorts = (await this.sorts.ofFields(ViewSortEntity, [field.id])).filter((s) => !this.sortable(field, s.type));
    const groupBys = (await this.sorts.ofFields(ViewGroupByEntity, [field.id])).filter((g) => !this.groupable(field, g.type));
    await this.filters.delete(stale.map((f) => f.id));
    await this.sorts.delete(ViewSortEntity, sorts.map((s) => s.id));
    await this.sorts.delete(ViewGroupByEntity, groupBys.map((g) => g.id));
    await this.bump([...stale, ...sorts, ...groupBys].map((x) => x.viewId));
  }

  /** Whether views can sort by the field with that sort type (its type has a sort expression for it). */
  sortable(field: FieldEntity, sortType = 'default'): boolean {
    return !!sortExpressionOf(this.fieldTypes.of(field), field, { alias: 'r', sql: this.rowsSql() }, sortType);
  }

  /** Whether grid views can group by the field: sortable (with that sort type), stored in one column of the row or keyed (a list), and its type groups it. */
  groupable(field: FieldEntity, sortType = 'default'): boolean {
    const type = this.fieldTypes.of(field);
    return this.sortable(field, sortType) && (!!type.column(field) || !!type.groupKey) && (type.groupable?.(field) ?? true);
  }

  private rowsSql() {
    return this.rowRepo.sql();
  }

  /** A view's filter groups, filters, sorts and group-bys as a serialized view keeps them. */
  async exportParts(viewId: number): Promise<Pick<ViewDocument, 'filter_groups' | 'filters' | 'sorts' | 'group_bys'>> {
    const saved = (await this.savedOfViews([viewId])).get(viewId)!;
    return {
      filter_groups: saved.groups.map((g) => ({ id: g.id, filter_type: g.filterType, parent_group_id: g.parentGroupId })),
      filters: saved.filters.map((f) => ({ field_id: f.fieldId, type: f.type, value: f.value, group_id: f.groupId })),
      sorts: saved.sorts.map((s) => ({ field_id: s.fieldId, order: s.order, type: s.type })),
      group_bys: saved.groupBys.map((g) => ({ field_id: g.fieldId, order: g.order, type: g.type, width: g.width })),
    };
  }

  /**
   * Creates a serialized view's filter groups (parents first), filters (values mapped by their
   * filter type), sorts and group-bys; what names a field the import did not create is left out.
   */
  async importParts(viewId: number, doc: ViewDocument, ids: ImportIds): Promise<void> {
    const groupIds = new Map<number, number>();
    for (const group of doc.filter_groups ?? []) {
      const parent = group.parent_group_id == null ? null : (groupIds.get(group.parent_group_id) ?? null);
      const created = await this.filters.createGroup({ viewId, filterType: group.filter_type === 'OR' ? 'OR' : 'AND', parentGroupId: parent });
      if (created) groupIds.set(group.id, created.id);
    }
    for (const filter of doc.filters ?? []) {
      const fieldId = ids.fields.get(filter.field_id);
      if (fieldId === undefined || !this.filterTypes.get(filter.type)) continue;
      const value = this.filterTypes.get(filter.type)!.importValue?.(String(filter.value ?? ''), ids) ?? String(filter.value ?? '');
      const groupId = filter.group_id == null ? null : (groupIds.get(filter.group_id) ?? null);
      await this.filters.create({ viewId, fieldId, type: filter.type, value, groupId });
    }
    for (const sort of doc.sorts ?? []) {
      const fieldId = ids.fields.get(sort.field_id);
      if (fieldId !== undefined) await this.sorts.create(ViewSortEntity, { viewId, fieldId, order: sort.order === 'DESC' ? 'DESC' : 'ASC', type: sort.type ?? 'default' });
    }
    for (const groupBy of doc.group_bys ?? []) {
      const fieldId = ids.fields.get(groupBy.field_id);
      if (fieldId !== undefined) await this.sorts.create(ViewGroupByEntity, { viewId, fieldId, order: groupBy.order === 'DESC' ? 'DESC' : 'ASC', type: groupBy.type ?? 'default', width: groupBy.width ?? 200 });
    }
  }

  /**
   * Copies a view's filters, filter groups (parents mapped), sorts and group-bys to another
   * view of the same table (view duplication).
   */
  async copy(fromViewId: number, toViewId: number): Promise<void> {
    const saved = (await this.savedOfViews([fromViewId])).get(fromViewId)!;
    const mapField = (id: number): number | undefined => id;
    const groupIds = new Map<number, number>();
    for (const group of saved.groups) {
      const parent = group.parentGroupId === null ? null : (groupIds.get(group.parentGroupId) ?? null);
      const created = await this.filters.createGroup({ viewId: toViewId, filterType: group.filterType, parentGroupId: parent });
      if (created) groupIds.set(group.id, created.id);
    }
    for (const filter of saved.filters) {
      const fieldId = mapField(filter.fieldId);
      if (fieldId === undefined) continue;
      const groupId = filter.groupId === null ? null : (groupIds.get(filter.groupId) ?? null);
      await this.filters.create({ viewId: toViewId, fieldId, type: filter.type, value: filter.value, groupId });
    }
    for (const sort of saved.sorts) {
      const fieldId = mapField(sort.fieldId);
      if (fieldId !== undefined) await this.sorts.create(ViewSortEntity, { viewId: toViewId, fieldId, order: sort.order, type: sort.type });
    }
    for (const groupBy of saved.groupBys) {
      const fieldId = mapField(groupBy.fieldId);
      if (fieldId !== undefined) await this.sorts.create(ViewGroupByEntity, { viewId: toViewId, fieldId, order: groupBy.order, type: groupBy.type, width: groupBy.width });
    }
  }
}
