import { Caches, MetadataCache } from '../../core/cache/caches';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../core/config/config';
import { pageLinks } from '../../core/http/pagination';
import { DatabaseErrors } from '../../database/database.errors';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldJson, FieldsService } from '../../database/fields/fields.service';
import type { FilterTree } from '../../database/filters/filter-tree';
import { RowListQuery, RowSelection, RowSort, SearchMode } from '../../database/rows/row-list.query';
import type { FilteredRowsQuery } from '../../database/rows/rows.query';
import { RowReader } from '../../database/rows/row-reader';
import { RowJson, RowsService, RowVisibilitySource } from '../../database/rows/rows.service';
import type { RowVisibility } from '../../core/events/domain-events';
import type { TableContext } from '../../database/table-context';
import { TableContextService } from '../../database/table-context';
import { TableRepository } from '../../database/table.repository';
import { PasswordHasher } from '../../users/password-hasher';
import type { ViewEntity } from '../view.entity';
import { ViewRepository } from '../view.repository';
import { specDefaults, ViewTypeRegistry } from '../view-type';
import { adhocParameters, groupsFirst } from '../filters/view-selection.service';
import type { SlugCaller } from '../view-access.service';
import { ViewsService } from '../views.service';
import { PublicViewErrors } from './public-view.errors';
import { PublicViewTokens } from '../public-view-tokens';
import { AggregationsService } from '../aggregations/aggregations.service';
import type { AggregationsQuery } from '../aggregations/aggregations.dto';
import { ViewErrors } from '../views.errors';
import { ViewVisibleFields } from '../view-visible-fields';
import { ViewSelectionService } from '../filters/view-selection.service';

/** Who asks for a shared view: a user (JWT) or nobody, with the view's password token if any. */
export type PublicViewCaller = SlugCaller;

/** A shared view as a caller may see it: its table's context and the fields it shows, in its order. */
export interface PublicViewAccess {
  view: ViewEntity;
  context: TableContext;
  /** The fields the view shows (not hidden), by field option order then id. */
  visible: FieldEntity[];
  /** Whether the caller is a member of the view's workspace. */
  member: boolean;
}

/** View types whose shared page has rows (and real time): every shareable type but the form. */
export function hasPublicRows(type: string): boolean {
  return type !== 'form';
}

const LOOKUP_PAGE_SIZE = 100;

/**
 * Views shared by their slug (Baserow's `get_public_view_by_slug` and the public endpoints):
 * who may open one, its password token, its public info, one of its rows and the values of
 * its link fields. Hidden fields never leave here, and nothing but the view's table is reachable.
 */
@Injectable()
export class PublicViewsService implements RowVisibilitySource {
  constructor(
    private readonly repo: ViewRepository,
    private readonly views: ViewsService,
    private readonly types: ViewTypeRegistry,
    private readonly tables: TableRepository,
    private readonly contexts: TableContextService,
    private readonly fields: FieldsService,
    private readonly rows: RowsService,
    private readonly reader: RowReader,
    private readonly listQuery: RowListQuery,
    private readonly hasher: PasswordHasher,
    private readonly tokens: PublicViewTokens,
    private readonly aggregationsService: AggregationsService,
    private readonly visible: ViewVisibleFields,
    private readonly selections: ViewSelectionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    caches: Caches,
  ) {
    this.shareable = caches.metadata<number, ViewEntity[]>('shareable-views');
  }

  /** The shareable views of tables (every row write asks: most tables have none). */
  private readonly shareable: MetadataCache<number, ViewEntity[]>;

  // ------------------------------------------------------------------ access

  /**
   * The view with this slug for the caller: 404 ERROR_VIEW_DOES_NOT_EXIST when it is gone, or
   * not public and the caller is not a member of its workspace; 401
   * ERROR_NO_AUTHORIZATION_TO_PUBLICLY_SHARED_VIEW when it has a password, the caller is not a
   * member and the token is not this view's (unless `checkPassword` is false).
   */
  async require(slug: string, caller: PublicViewCaller, checkPassword = true, expected?: { type: string; notFound: () => Error }): Promise<PublicViewAccess> {
    const { view, context, isMember } = await this.views.requireBySlug(slug, caller, {
      notFound: expected?.notFound ?? DatabaseErrors.viewDoesNotExist,
      passwordRequired: PublicViewErrors.noAuthorization,
      checkPassword,
      type: expected?.type,
    });
    return { view, context, visible: await this.visibleFields(view, context), member: isMember };
  }

  /** Whether a socket may follow the view's page (the `view` page's check): as `require`, without answering errors. */
  async canListen(slug: string, caller: PublicViewCaller): Promise<boolean> {
    try {
      const { view } = await this.require(slug, caller);
      return hasPublicRows(view.type);
    } catch {
      return false;
    }
  }

  /** The fields a view shows (its visible and needed fields, in its order). */
  visibleFields(view: ViewEntity, context: TableContext): Promise<FieldEntity[]> {
    return this.visible.of(view, context);
  }

  // ------------------------------------------------------------------ password

  /** The view's password token, for anyone who knows the password (members too: the view must be public). */
  async authenticate(slug: string, caller: PublicViewCaller, password: string): Promise<{ access_token: string }> {
    const { view } = await this.require(slug, caller, false);
    if (!view.passwordHash || !(await this.hasher.verify(view.passwordHash, password))) throw PublicViewErrors.incorrectPassword();
    return { access_token: this.tokens.issue(view) };
  }

  // ------------------------------------------------------------------ serialization

  /** A field as a shared view shows it: no ids of its table, database or workspace. */
  publicField(json: FieldJson): FieldJson {
    return { ...json, table_id: 0, database_id: 0, workspace_id: 0 };
  }

  /** The visible fields as Baserow lists them (its field ordering: primary first, then order and id). */
  async publicFields(access: Pick<PublicViewAccess, 'context' | 'visible'>): Promise<FieldJson[]> {
    const shown = new Set(access.visible.map((field) => field.id));
    const fields = access.context.fields.filter((field) => shown.has(field.id));
    const jsons = await Promise.all(fields.map((field) => this.fields.serialize(field, access.context)));
    return jsons.map((json) => this.publicField(json));
  }

  /**
   * Baserow's PublicViewSerializer: the slug as id, a table without ids, the sortings and
   * group-bys on the fields it shows (each naming the view by its slug; no group-bys for a type
   * that cannot group), the sharing settings and the type's keys.
   */
  async publicView(access: Pick<PublicViewAccess, 'view' | 'context' | 'visible'>): Promise<Record<string, unknown>> {
    const { view, context } = access;
    const type = this.types.of(view);
    const parts = await this.selections.includes(view, narrowed(context, access.visible), { filters: false, sortings: true, groupBys: type.canGroupBy });
    const bySlug = (items: unknown): Record<string, unknown>[] => ((items as Record<string, unknown>[] | undefined) ?? []).map((item) => ({ ...item, view: view.slug }));
    const full = this.views.serialize(view, context.table, { filters: false, sortings: false, decorations: false, groupBys: false });
    const json: Record<string, unknown> = {
      id: view.slug,
      table: { id: 0, database_id: 0 },
      name: view.name,
      order: view.order,
      type: view.type,
      sortings: bySlug(parts.sortings),
      group_bys: bySlug(parts.group_bys),
      public: view.public,
      slug: view.slug,
      show_logo: view.showLogo,
      allow_public_export: view.allowPublicExport,
    };
    const defaults = specDefaults(type.properties);
    for (const key of Object.keys(type.properties)) json[key] = full[key] ?? defaults[key];
    return json;
  }

  /** `GET /api/database/views/{slug}/public/info/`. */
  async info(slug: string, caller: PublicViewCaller): Promise<{ fields: FieldJson[]; view: Record<string, unknown> }> {
    const access = await this.require(slug, caller);
    if (!this.types.of(access.view).canShare) throw DatabaseErrors.viewDoesNotExist();
    return { fields: await this.publicFields(access), view: await this.publicView(access) };
  }

  /** Rows keyed `field_<id>` reduced to the fields the view shows (copies). */
  restrict(rows: RowJson[], visible: FieldEntity[]): RowJson[] {
    const keys = new Set(visible.map((field) => `field_${field.id}`));
    return rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => key === 'id' || key === 'order' || keys.has(key))) as RowJson);
  }

  // ------------------------------------------------------------------ rows

  /**
   * The view's saved filters for public requests (every field, hidden ones too): their leaves
   * hold the table's field objects, so they combine with requests that only know the visible fields.
   */
  async savedFilters(access: Pick<PublicViewAccess, 'view' | 'context'>): Promise<FilterTree | null> {
    // Compiled with the table's field objects (null while the view's filters are disabled).
    return (await this.views.savedSelection(access.view, access.context)).filters;
  }

  /** The table's context as the view shows it: only its visible fields can be named. */
  shown(access: Pick<PublicViewAccess, 'context' | 'visible'>): TableContext {
    return narrowed(access.context, access.visible);
  }

  /**
   * A shared view's rows as a request asks for them: the saved filters AND the request's
   * (`filters`, `filter__…`, `filter_type`), the search on the visible fields only, and (when the
   * endpoint takes them) `order_by` instead of the saved sorts and `group_by` instead of the
   * saved group-bys. The request can only name visible fields (another is not found); saved
   * sorts and group-bys on hidden fields are left out, as Baserow does.
   */
  async selection(access: PublicViewAccess, query: PublicSelectionQuery, takes: { orderBy: boolean; groupBy: boolean }): Promise<RowSelection & { groupBys: RowSort[] }> {
    const { context, visible } = access;
    const shown = narrowed(context, visible);
    // Parsed against the visible fields only: a hidden field is not found.
    const selection = await this.rows.selection(shown, adhocParameters(query, false), false);
    const adhoc = typeof query.filters === 'string' ? onlyResolved(resolveTree(selection.filters, shown)) : selection.filters;
    const trees = [await this.savedFilters(access), adhoc].filter((tree): tree is FilterTree => !!tree);
    selection.filters = trees.length > 1 ? { filter_type: 'AND', filters: [], groups: trees } : (trees[0] ?? null);
    selection.searchFields = visible;
    const saved = await this.views.savedSelection(access.view, context);
    const isShown = (sort: RowSort): boolean => shown.byId.has(sort.field.id);
    const groupBys = takes.groupBy && query.group_by ? this.listQuery.parseOrderBy(shown, query.group_by, false) : takes.groupBy ? saved.groupBys.filter(isShown) : [];
    const savedGroups = new Set(saved.groupBys.map((s) => s.field.id));
    const sorts = takes.orderBy && query.order_by ? this.listQuery.parseOrderBy(shown, query.order_by, false) : saved.sorts.filter((s) => isShown(s) && !savedGroups.has(s.field.id));
    selection.sorts = groupsFirst(groupBys, sorts);
    return { ...selection, groupBys };
  }

  /**
   * `GET /api/database/views/grid/{slug}/public/aggregations/`: the aggregations of the visible
   * fields that have one, over the saved filters AND the request's, searched on visible fields.
   */
  async aggregations(slug: string, caller: PublicViewCaller, query: AggregationsQuery): Promise<Record<string, unknown>> {
    const access = await this.require(slug, caller, true, { type: 'grid', notFound: ViewErrors.gridDoesNotExist });
    const selection = await this.selection(access, query, { orderBy: false, groupBy: false });
    return this.aggregationsService.ofSelection(access, selection, access.visible, query.include, null);
  }

  /**
   * What a public export of the view reads (Baserow premium's `export_public_view`): the saved
   * filters AND the request's filter tree, the request's `order_by` instead of the saved sorts;
   * both may name visible fields only (ERROR_FILTER_FIELD_NOT_FOUND, ERROR_ORDER_BY_FIELD_NOT_FOUND).
   */
  async exportSelection(access: PublicViewAccess, filters: Record<string, unknown> | null, orderBy: string | null): Promise<RowSelection> {
    const shown = narrowed(access.context, access.visible);
    const adhoc = filters ? onlyResolved(resolveTree(this.listQuery.parseFiltersJson(JSON.stringify(filters)), shown)) : null;
    const trees = [await this.savedFilters(access), adhoc].filter((tree): tree is FilterTree => !!tree);
    const saved = await this.views.savedSelection(access.view, access.context);
    return {
      filters: trees.length > 1 ? { filter_type: 'AND', filters: [], groups: trees } : (trees[0] ?? null),
      search: null,
      sorts: orderBy ? this.listQuery.parseOrderBy(shown, orderBy, false) : saved.sorts,
    };
  }

  /** Which of these rows the view shows now (its saved filters), in the given order. */
  async visibleRowIds(access: Pick<PublicViewAccess, 'view' | 'context'>, rowIds: number[], filters?: FilterTree | null): Promise<Set<number>> {
    if (!rowIds.length) return new Set();
    const selection: RowSelection = { filters: filters === undefined ? await this.savedFilters(access) : filters, search: null, sorts: [], rowIds };
    const { rows } = await this.rows.select(access.context, selection, false, rowIds.length, 0);
    return new Set(rows.map((row) => Number(row.id)));
  }

  /** The live shared views of a table with rows pages, as anyone sees them (the real-time fan-out). */
  async sharedViews(tableId: number): Promise<PublicViewAccess[]> {
    const views = await this.shareableViewsOf(tableId);
    // Most tables have none: their context is not even read.
    const context = views.length ? await this.contexts.ofTable(tableId) : null;
    if (!context) return [];
    const result: PublicViewAccess[] = [];
    for (const view of views) result.push({ view, context, visible: await this.visibleFields(view, context), member: false });
    return result;
  }

  /**
   * Right before rows are updated or deleted: for each shared view with saved filters, which
   * of the rows it shows (a view without filters shows them all and is left out).
   */
  async visibleBefore(context: TableContext, rowIds: number[]): Promise<RowVisibility | undefined> {
    let result: RowVisibility | undefined;
    for (const view of await this.shareableViewsOf(context.table.id)) {
      // Only the filters matter here: the visible fields are not read (nothing is written in the row's transaction).
      const filters = await this.savedFilters({ view, context });
      if (filters) (result ??= {})[String(view.id)] = [...(await this.visibleRowIds({ view, context }, rowIds, filters))];
    }
    return result;
  }

  /** The table's public views whose shared page has rows. */
  private shareableViewsOf(tableId: number): Promise<ViewEntity[]> {
    return this.shareable.get(tableId, async () => (await this.repo.publicOfTable(tableId)).filter((view) => hasPublicRows(view.type) && this.types.of(view).canShare));
  }

  /** `GET /api/database/views/{slug}/row/{row_id}/`: a row the view shows, with the fields it shows. */
  async row(slug: string, caller: PublicViewCaller, rowId: number): Promise<RowJson> {
    const access = await this.require(slug, caller);
    if (!this.types.of(access.view).canShare) throw DatabaseErrors.viewDoesNotExist();
    if (!(await this.visibleRowIds(access, [rowId])).has(rowId)) throw DatabaseErrors.rowDoesNotExist([String(rowId)]);
    const [row] = await this.rows.rowsByIds(access.context, [rowId], { userFieldNames: false, fields: access.visible });
    if (!row) throw DatabaseErrors.rowDoesNotExist([String(rowId)]);
    return row;
  }

  /**
   * `GET /api/database/views/{slug}/link-row-field-lookup/{field_id}/` (Baserow's
   * PublicViewLinkRowFieldLookupView): for a link field the view shows, the linked table's rows
   * (`{id, value, order}`) in their order, searched on the primary field, by page (`page`,
   * `size`, at most ROW_PAGE_SIZE_LIMIT). Only rows that the rows the view shows (its saved
   * filters) link to are reachable, except on a form, where a visitor picks any row to link; a
   * link limited to a view of the linked table also keeps that view's filters. One paged query,
   * its count cached by the tables' write versions, as members' listings.
   */
  async linkRowLookup(slug: string, caller: PublicViewCaller, fieldId: number, query: { search?: string; search_mode?: SearchMode; page?: number; size?: number }, url: URL) {
    const access = await this.require(slug, caller);
    const type = this.types.of(access.view);
    if (!type.canShare) throw DatabaseErrors.viewDoesNotExist();
    const field = access.visible.find((f) => f.id === fieldId && f.type === 'link_row');
    if (!field) throw DatabaseErrors.fieldDoesNotExist();
    const page = query.page ?? 1;
    const size = query.size ?? LOOKUP_PAGE_SIZE;
    if (size > this.config.rowPageSizeLimit) throw DatabaseErrors.pageSizeLimit(this.config.rowPageSizeLimit);
    const linkedContext = await this.contexts.ofTable(Number(field.properties.link_row_table_id));
    if (!linkedContext) return { count: 0, next: null, previous: null, results: [] };
    const primary = linkedContext.fields.find((f) => f.primary);
    const selection: RowSelection = {
      filters: await this.limitSelectionFilters(field, linkedContext),
      search: query.search || null,
      searchMode: query.search_mode,
      sorts: [],
      searchFields: primary ? [primary] : [],
      linkedFrom: type.linksAnyRowPublicly ? undefined : { context: access.context, field, filters: type.canFilter ? await this.savedFilters(access) : null },
    };
    const { count, rows } = await this.rows.select(linkedContext, selection, false, size, (page - 1) * size);
    const values = await this.reader.primaryTexts(linkedContext, rows);
    const serialized = await this.reader.serialize(linkedContext, rows, { userFieldNames: false, fields: [] });
    const results = serialized.map((row, i) => ({ id: row.id, value: values[i], order: row.order }));
    return { count, ...pageLinks(url, page, size, count), results };
  }

  /** The filters of the view of the linked table a link field limits its choices to (Baserow's `link_row_limit_selection_view`). */
  private async limitSelectionFilters(field: FieldEntity, linkedContext: TableContext): Promise<FilterTree | null> {
    const viewId = Number(field.properties.link_row_limit_selection_view_id);
    if (!viewId) return null;
    const view = await this.repo.findLive(viewId);
    if (!view || view.tableId !== linkedContext.table.id) return null;
    return (await this.views.savedSelection(view, linkedContext)).filters;
  }
}

/** The request parameters a shared view's rows go through (each endpoint takes some of them). */
export type PublicSelectionQuery = FilteredRowsQuery & { group_by?: string };

/** The table's context as a shared view shows it: only the visible fields can be named. */
function narrowed(context: TableContext, visible: FieldEntity[]): TableContext {
  return {
    ...context,
    fields: visible,
    byId: new Map(visible.map((field) => [field.id, field])),
    byName: new Map(visible.map((field) => [field.name, field])),
  };
}

/** A request's filter tree whose every leaf named a visible field; any other is ERROR_FILTER_FIELD_NOT_FOUND. */
function onlyResolved(tree: FilterTree | null): FilterTree | null {
  if (!tree) return null;
  for (const leaf of tree.filters) if (typeof leaf.field !== 'object') throw DatabaseErrors.filterFieldNotFound(String(leaf.field));
  for (const group of tree.groups) onlyResolved(group);
  return tree;
}

/** A filter tree whose leaves name their fields by the table's field objects (so a narrower context still compiles them). */
export function resolveTree(tree: FilterTree | null, context: TableContext): FilterTree | null {
  if (!tree) return null;
  return {
    filter_type: tree.filter_type,
    filters: tree.filters.map((leaf) => {
      if (typeof leaf.field === 'object') return leaf;
      const id = typeof leaf.field === 'number' ? leaf.field : /^\d+$/.test(leaf.field) ? Number(leaf.field) : NaN;
      const field = context.byId.get(id);
      return field ? { ...leaf, field } : leaf;
    }),
    groups: tree.groups.map((group) => resolveTree(group, context)!),
  };
}
