import { Caches, MetadataCache } from '../core/cache/caches';
import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { Errors, ErrorTree, validationError } from '../core/errors/api-error';
import { checkObject, checkValue, FieldSpec } from '../core/validation/field';
import type { FieldEntity } from '../database/fields/field.entity';
import type { RowSelection } from '../database/rows/row-list.query';
import type { ViewSelectionSource } from '../database/rows/rows.service';
import type { DefaultViewFactory } from '../database/tables/tables.service';
import { TableContext, TableContextService } from '../database/table-context';
import type { TableEntity } from '../database/table.entity';
import { TrashService } from '../trash/trash.service';
import type { UserEntity } from '../users/user.entity';
import { PasswordHasher } from '../users/password-hasher';
import { DecorationCopier } from './decorations/decoration-copier';
import type { ImportIds, ViewDocument } from '../database/serialization/database-document';
import type { DecorationJson } from './decorations/decoration.entity';
import { PublicViewTokens } from './public-view-tokens';
import { groupsFirst, ViewSelectionService } from './filters/view-selection.service';
import { ViewEntity } from './view.entity';
import { ViewRepository } from './view.repository';
import { specDefaults, ViewType, ViewTypeRegistry } from './view-type';
import { ViewErrors } from './views.errors';

export type ViewJson = Record<string, unknown>;
/** A view's sub-object lists by their JSON key (`filters`, `filter_groups`, `sortings`, `group_bys`, `decorations`). */
export type ViewParts = Record<string, unknown>;
export type FieldOptionsJson = Record<string, Record<string, unknown>>;

/** `?include=filters,sortings,decorations,group_bys`: which sub-object lists the view JSON carries. */
export interface ViewIncludes {
  filters: boolean;
  sortings: boolean;
  decorations: boolean;
  groupBys: boolean;
}

export const NO_INCLUDES: ViewIncludes = { filters: false, sortings: false, decorations: false, groupBys: false };
export const ALL_INCLUDES: ViewIncludes = { filters: true, sortings: true, decorations: true, groupBys: true };

export function parseIncludes(value: unknown): ViewIncludes {
  const names = new Set(
    String(value ?? '')
      .split(',')
      .map((n) => n.trim()),
  );
  return { filters: names.has('filters'), sortings: names.has('sortings'), decorations: names.has('decorations'), groupBys: names.has('group_bys') };
}

/** Who opens a view by its slug: a user (JWT) or nobody, with the view's password token if any. */
export interface SlugCaller {
  userId: number | null;
  token: string | null;
}

/** A view a member may use, with its table's context. */
export interface ViewAccess {
  view: ViewEntity;
  context: TableContext;
}

const OWNERSHIP_TYPES = ['collaborative'];

/** Keys every view accepts on create (the type's own keys come on top). */
const CREATE_SPECS: Record<string, FieldSpec> = {
  name: { kind: 'string', max: 255 },
  ownership_type: { kind: 'choice', choices: OWNERSHIP_TYPES, required: false, default: 'collaborative' },
  filter_type: { kind: 'choice', choices: ['AND', 'OR'], required: false, default: 'AND' },
  filters_disabled: { kind: 'bool', required: false, default: false },
};

const UPDATE_SPECS: Record<string, FieldSpec> = {
  name: { kind: 'string', max: 255, required: false },
  ownership_type: { kind: 'choice', choices: OWNERSHIP_TYPES, required: false },
  filter_type: { kind: 'choice', choices: ['AND', 'OR'], required: false },
  filters_disabled: { kind: 'bool', required: false },
  public_view_password: { kind: 'string', min: 8, max: 256, allowBlank: true, required: false },
};

const PUBLIC_SPEC: FieldSpec = { kind: 'bool', required: false, default: false };

/** Baserow's `secrets.token_urlsafe()`: 43 url-safe characters. */
const newSlug = (): string => randomBytes(32).toString('base64url');

/**
 * The rules of views: create, update, trash, order and duplicate; field options (created on
 * the fly); the saved selection the rows endpoints apply; and the first grid view of a table.
 */
@Injectable()
export class ViewsService implements DefaultViewFactory, ViewSelectionSource {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: ViewRepository,
    private readonly types: ViewTypeRegistry,
    private readonly contexts: TableContextService,
    private readonly hasher: PasswordHasher,
    private readonly trash: TrashService,
    private readonly publicTokens: PublicViewTokens,
    private readonly decorations: DecorationCopier,
    private readonly parts: ViewSelectionService,
    caches: Caches,
  ) {
    this.live = caches.metadata<string, ViewEntity | null>('live-views');
  }

  /** Live views by id (`id:<n>`) and by slug (`slug:<s>`), as every view request reads them. */
  private readonly live: MetadataCache<string, ViewEntity | null>;

  /** A copy of the cached live view (callers may change what they got before saving it). */
  private async findLive(key: string, read: () => Promise<ViewEntity | null>): Promise<ViewEntity | null> {
    const view = await this.live.get(key, read);
    return view && Object.assign(new ViewEntity(), view);
  }

  // ------------------------------------------------------------------ access

  /** A live view for a member: 404 when it (or its table, database, workspace) is gone, 400 when not a member. */
  async require(viewId: number, userId: number, notFound = ViewErrors.viewDoesNotExist): Promise<ViewAccess> {
    const view = await this.findLive(`id:${viewId}`, () => this.repo.findLive(viewId));
    if (!view) throw notFound();
    const access = await this.contexts.access(view.tableId, userId);
    if (!access) throw notFound();
    if (!access.isMember) throw Errors.userNotInWorkspace();
    return { view, context: await this.contexts.withFields(access.table, access.workspaceId) };
  }

  /**
   * The view with this slug for a caller (a user or nobody, with the view's password token if
   * any): members of its workspace always; anyone else only when it is public and shareable
   * (`notFound` otherwise, as if it did not exist), and `passwordRequired` when it has a
   * password the caller's token does not open (unless `checkPassword` is false).
   */
  async requireBySlug(
    slug: string,
    caller: SlugCaller,
    errors: { notFound: () => Error; passwordRequired: () => Error; type?: string; checkPassword?: boolean },
  ): Promise<ViewAccess & { isMember: boolean }> {
    const view = slug.length <= 64 && !slug.includes('\0') ? await this.findLive(`slug:${slug}`, () => this.repo.findLiveBySlug(slug)) : null;
    if (!view || (errors.type !== undefined && view.type !== errors.type)) throw errors.notFound();
    const access = await this.contexts.access(view.tableId, caller.userId ?? 0);
    if (!access) throw errors.notFound();
    const isMember = caller.userId !== null && access.isMember;
    if (!isMember) {
      if (!view.public || !this.types.of(view).canShare) throw errors.notFound();
      if (errors.checkPassword !== false && view.passwordHash && !this.publicTokens.isValid(view, caller.token)) throw errors.passwordRequired();
    }
    return { view, context: await this.contexts.withFields(access.table, access.workspaceId), isMember };
  }

  /** A live view's table context without a member check (for messages built after commit); null when the table is gone. */
  async systemAccess(view: ViewEntity): Promise<ViewAccess | null> {
    const access = await this.contexts.access(view.tableId, 0);
    return access ? { view, context: await this.contexts.withFields(access.table, access.workspaceId) } : null;
  }

  // ------------------------------------------------------------------ serialization

  /** Baserow's ViewSerializer keys in order, the type's keys, then `public`/`slug` for shareable types. */
  serialize(view: ViewEntity, table: TableEntity, includes: ViewIncludes, parts: ViewParts = {}, userId: number | null = null): ViewJson {
    const type = this.types.of(view);
    const json: ViewJson = {
      id: view.id,
      table_id: view.tableId,
      name: view.name,
      order: view.order,
      type: view.type,
      table: { id: table.id, name: table.name, order: table.order, database_id: table.databaseId },
      filter_type: view.filterType,
    };
    // `parts`: the sub-object lists `serializeAll` read (none for a view just created).
    if (includes.filters) {
      json.filters = parts.filters ?? [];
      json.filter_groups = parts.filter_groups ?? [];
    }
    if (includes.sortings) json.sortings = parts.sortings ?? [];
    if (includes.groupBys) json.group_bys = parts.group_bys ?? [];
    if (includes.decorations) json.decorations = parts.decorations ?? [];
    Object.assign(json, {
      filters_disabled: view.filtersDisabled,
      public_view_has_password: !!view.passwordHash,
      show_logo: view.showLogo,
      allow_public_export: view.allowPublicExport,
      ownership_type: view.ownershipType,
      owned_by_id: view.ownedById,
    });
    const defaults = specDefaults(type.properties);
    const properties: Record<string, unknown> = {};
    for (const key of Object.keys(type.properties)) properties[key] = view.properties[key] ?? defaults[key];
    Object.assign(json, type.serializeProperties ? type.serializeProperties(properties, userId) : properties);
    if (type.canShare) {
      json.public = view.public;
      json.slug = view.slug;
    }
    return json;
  }

  /** Views of one table as JSON, with the sub-object lists `includes` asks for (those on trashed fields hidden). */
  async serializeAll(views: ViewEntity[], context: TableContext, includes: ViewIncludes, userId: number | null = null): Promise<ViewJson[]> {
    const decorations = includes.decorations ? await this.decorations.jsonOf(views.map((v) => v.id)) : new Map<number, DecorationJson[]>();
    return Promise.all(
      views.map(async (view) => {
        const parts: ViewParts = { ...(await this.parts.includes(view, context, includes)), decorations: decorations.get(view.id) ?? [] };
        return this.serialize(view, context.table, includes, parts, userId);
      }),
    );
  }

  /** The JSON of a live view as anyone sees it right now (for messages sent after commit); null when gone. */
  async viewJson(viewId: number, includes: ViewIncludes): Promise<ViewJson | null> {
    const view = await this.repo.findLive(viewId);
    if (!view) return null;
    const access = await this.systemAccess(view);
    return access ? (await this.serializeAll([view], access.context, includes))[0] : null;
  }

  // ------------------------------------------------------------------ reading

  async list(user: UserEntity, tableId: number, options: { type?: string; limit?: number; includes: ViewIncludes }): Promise<ViewJson[]> {
    const context = await this.contexts.require(tableId, user.id);
    const views = await this.repo.ofTable(tableId, { type: options.type, limit: options.limit });
    return this.serializeAll(views, context, options.includes, user.id);
  }

  async get(user: UserEntity, viewId: number, includes: ViewIncludes): Promise<ViewJson> {
    const { view, context } = await this.require(viewId, user.id);
    return (await this.serializeAll([view], context, includes, user.id))[0];
  }

  // ------------------------------------------------------------------ writing

  async create(user: UserEntity, tableId: number, body: Record<string, unknown>, includes: ViewIncludes): Promise<ViewJson> {
    const { type, values } = this.validateCreate(body);
    const { view, table } = await this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id);
      await type.prepareProperties?.(values.properties as Record<string, unknown>, { properties: {} }, context, user.id);
      const view = await this.insert(context.table.id, {
        name: values.name as string,
        type: type.type,
        filterType: values.filter_type as string,
        filtersDisabled: values.filters_disabled as boolean,
        ownershipType: values.ownership_type as string,
        public: (values.public as boolean | undefined) ?? false,
        properties: values.properties as Record<string, unknown>,
      });
      if (type.createdFieldOptions) await this.applyFieldOptions(view, context, type.createdFieldOptions(context));
      this.db.record('view.created', { viewId: view.id, tableId });
      return { view, table: context.table };
    });
    // A new view has no filters, sorts, group-bys or decorations yet.
    return this.serialize(view, table, includes, {}, user.id);
  }

  private validateCreate(body: Record<string, unknown>): { type: ViewType; values: Record<string, unknown> } {
    const errors: ErrorTree = {};
    const common = checkObject(CREATE_SPECS, body);
    Object.assign(errors, common.errors);
    let type: ViewType | undefined;
    if (body.type === undefined) errors.type = [{ error: 'This field is required.', code: 'required' }];
    else {
      const checked = checkValue({ kind: 'choice', choices: this.types.names() }, body.type);
      if ('error' in checked) errors.type = checked.error;
      else type = this.types.get(String(checked.value));
    }
    if (Object.keys(errors).length || !type) throw validationError(errors);
    const props = checkObject(type.properties, body);
    const shared = type.canShare ? checkObject({ public: PUBLIC_SPEC }, body) : { values: {}, errors: {} };
    Object.assign(errors, props.errors, shared.errors);
    if (Object.keys(errors).length) throw validationError(errors);
    return { type, values: { ...common.values, ...shared.values, properties: props.values } };
  }

  /** Inserts a view last in its table with a fresh unique slug. */
  private async insert(tableId: number, values: Partial<ViewEntity>): Promise<ViewEntity> {
    let slug = newSlug();
    while (await this.repo.slugExists(slug)) slug = newSlug();
    return this.repo.create({
      tableId,
      order: (await this.repo.maxOrder(tableId)) + 1,
      filterType: 'AND',
      filtersDisabled: false,
      public: false,
      passwordHash: null,
      showLogo: true,
      allowPublicExport: false,
      ownershipType: 'collaborative',
      ownedById: null,
      properties: {},
      createdOn: new Date(),
      trashed: false,
      ...values,
      slug,
    });
  }

  async update(user: UserEntity, viewId: number, body: Record<string, unknown>, includes: ViewIncludes): Promise<ViewJson> {
    const { view, context } = await this.db.run(async () => {
      const { view, context } = await this.require(viewId, user.id);
      const type = this.types.of(view);
      const errors: ErrorTree = {};
      // DRF answers a blank value before checking its length: "" removes the password.
      const removesPassword = typeof body.public_view_password === 'string' && body.public_view_password.trim() === '';
      const common = checkObject(UPDATE_SPECS, removesPassword ? { ...body, public_view_password: undefined } : body, { partial: true });
      if (removesPassword) common.values.public_view_password = '';
      const props = checkObject(type.properties, body, { partial: true });
      const shared = type.canShare ? checkObject({ public: PUBLIC_SPEC }, body, { partial: true }) : { values: {}, errors: {} };
      Object.assign(errors, common.errors, props.errors, shared.errors);
      if (Object.keys(errors).length) throw validationError(errors);
      await type.prepareProperties?.(props.values, view, context, user.id);
      const values = common.values;
      const changes: Partial<ViewEntity> = {};
      if (values.name !== undefined) changes.name = values.name as string;
      if (values.filter_type !== undefined) changes.filterType = values.filter_type as string;
      if (values.filters_disabled !== undefined) changes.filtersDisabled = values.filters_disabled as boolean;
      if (values.ownership_type !== undefined) changes.ownershipType = values.ownership_type as string;
      if (values.public_view_password !== undefined) {
        const password = values.public_view_password as string;
        changes.passwordHash = password === '' ? null : await this.hasher.hash(password);
      }
      if ((shared.values as Record<string, unknown>).public !== undefined) changes.public = (shared.values as Record<string, unknown>).public as boolean;
      if (Object.keys(props.values).length) changes.properties = { ...view.properties, ...props.values };
      if (Object.keys(changes).length) await this.repo.update(view.id, changes);
      this.db.record('view.updated', { viewId: view.id, tableId: view.tableId });
      // No longer shared, or a new password: who followed the shared page may have lost it.
      const revokes = (changes.public === false && view.public) || (changes.passwordHash !== undefined && changes.passwordHash !== null);
      if (revokes) this.db.record('view.public_access_changed', { viewId: view.id, slug: view.slug });
      return { view: { ...view, ...changes }, context };
    });
    return (await this.serializeAll([view], context, includes, user.id))[0];
  }

  /**
   * A new slug for a shareable view: the old shared link stops working (and the sockets that
   * followed it are dropped).
   */
  async rotateSlug(user: UserEntity, viewId: number): Promise<ViewJson> {
    const { view, table } = await this.db.run(async () => {
      const { view, context } = await this.require(viewId, user.id);
      if (!this.types.of(view).canShare) throw ViewErrors.cannotShare();
      let slug = newSlug();
      while (await this.repo.slugExists(slug)) slug = newSlug();
      await this.repo.update(view.id, { slug });
      this.db.record('view.updated', { viewId: view.id, tableId: view.tableId });
      this.db.record('view.public_access_changed', { viewId: view.id, slug: view.slug });
      return { view: { ...view, slug }, table: context.table };
    });
    return this.serialize(view, table, NO_INCLUDES, {}, user.id);
  }

  /** Moves the view to the trash. */
  async delete(user: UserEntity, viewId: number): Promise<void> {
    await this.db.run(async () => {
      const { view, context } = await this.require(viewId, user.id);
      await this.trash.trashItem(ViewEntity, user, {
        type: 'view',
        itemId: view.id,
        workspaceId: context.workspaceId,
        applicationId: context.table.databaseId,
        name: view.name,
        parentName: context.table.name,
      });
      this.db.record('view.deleted', { viewId: view.id, tableId: view.tableId });
    });
  }

  /** Orders the table's views as listed; the ones not listed get order 0 (and come first). */
  async order(user: UserEntity, tableId: number, viewIds: number[]): Promise<void> {
    await this.db.run(async () => {
      await this.contexts.require(tableId, user.id);
      const all = (await this.repo.ofTable(tableId)).map((v) => v.id);
      const known = new Set(all);
      for (const id of viewIds) if (!known.has(id)) throw ViewErrors.viewNotInTable(id);
      const ordered = await this.applyOrder(all, viewIds);
      this.db.record('views.reordered', { tableId, viewIds: ordered });
    });
  }

  private async applyOrder(all: number[], viewIds: number[]): Promise<number[]> {
    const positions = new Map<number, number>();
    viewIds.forEach((id, index) => positions.set(id, index + 1));
    for (const id of all) await this.repo.update(id, { order: positions.get(id) ?? 0 });
    return [...all].sort((a, b) => (positions.get(a) ?? 0) - (positions.get(b) ?? 0) || a - b);
  }

  /**
   * A copy named "<name> 2" (" 3"…), not shared, with the same settings and field options,
   * placed right after the original.
   */
  async duplicate(user: UserEntity, viewId: number): Promise<ViewJson> {
    const { viewId: copyId, table } = await this.db.run(async () => {
      const { view, context } = await this.require(viewId, user.id);
      const siblings = await this.repo.ofTable(view.tableId);
      const copy = await this.insert(view.tableId, {
        name: unusedName(view.name, new Set(siblings.map((v) => v.name))),
        type: view.type,
        filterType: view.filterType,
        filtersDisabled: view.filtersDisabled,
        showLogo: view.showLogo,
        allowPublicExport: view.allowPublicExport,
        ownershipType: view.ownershipType,
        ownedById: view.ownedById,
        properties: { ...view.properties },
      });
      const options = await this.repo.fieldOptions(view.id);
      await this.repo.createFieldOptions(
        copy.id,
        [...options.values()].map((o) => ({ fieldId: o.fieldId, options: { ...o.options } })),
      );
      await this.parts.copy(view.id, copy.id);
      await this.decorations.copy(view.id, copy.id);
      const ids: number[] = [];
      for (const sibling of siblings) {
        ids.push(sibling.id);
        if (sibling.id === view.id) ids.push(copy.id);
      }
      const ordered = await this.applyOrder([...siblings.map((v) => v.id), copy.id], ids);
      this.db.record('view.created', { viewId: copy.id, tableId: view.tableId });
      this.db.record('views.reordered', { tableId: view.tableId, viewIds: ordered });
      return { viewId: copy.id, table: context };
    });
    const copy = await this.repo.findLive(copyId);
    return (await this.serializeAll([copy!], table, ALL_INCLUDES))[0];
  }

  // ------------------------------------------------------------------ field options

  /**
   * Options of every live field of the table, keyed by field id; missing ones are created with
   * their defaults (only answered with them when `create` is false: a read that must not write).
   */
  async fieldOptions(view: ViewEntity, context: TableContext, create = true): Promise<FieldOptionsJson> {
    const type = this.types.of(view);
    const specs = type.fieldOptions;
    if (!specs) throw ViewErrors.noFieldOptions();
    let stored = await this.repo.fieldOptions(view.id);
    const missing = context.fields.filter((f) => !stored.has(f.id));
    if (missing.length && create) {
      await this.repo.createFieldOptions(
        view.id,
        missing.map((f) => ({ fieldId: f.id, options: type.defaultFieldOptions(f) })),
      );
      stored = await this.repo.fieldOptions(view.id);
    }
    const result: FieldOptionsJson = {};
    for (const field of [...context.fields].sort((a, b) => a.id - b.id)) {
      const options = { ...type.defaultFieldOptions(field), ...(stored.get(field.id)?.options ?? {}) };
      result[String(field.id)] = Object.fromEntries(Object.keys(specs).map((key) => [key, options[key]]));
    }
    return result;
  }

  async getFieldOptions(user: UserEntity, viewId: number): Promise<{ field_options: FieldOptionsJson }> {
    const { view, context } = await this.require(viewId, user.id);
    return { field_options: await this.fieldOptions(view, context) };
  }

  /** `{"field_options": {"<field_id>": {partial options}}}`: keys numeric, fields of the view's table. */
  async updateFieldOptions(user: UserEntity, viewId: number, body: Record<string, unknown>): Promise<{ field_options: FieldOptionsJson }> {
    return this.db.run(async () => {
      const { view, context } = await this.require(viewId, user.id);
      const type = this.types.of(view);
      if (!type.fieldOptions) throw ViewErrors.noFieldOptions();
      const changes = parseFieldOptions(type.fieldOptions, body.field_options);
      for (const fieldId of changes.keys()) if (!context.byId.has(fieldId)) throw ViewErrors.unrelatedField();
      if (type.prepareFieldOptions) {
        const stored = await this.repo.fieldOptions(view.id);
        const current = new Map(context.fields.map((f) => [f.id, { ...type.defaultFieldOptions(f), ...(stored.get(f.id)?.options ?? {}) }]));
        type.prepareFieldOptions(changes, current, context);
      }
      await this.applyFieldOptions(view, context, changes);
      this.db.record('view.field_options_updated', { viewId: view.id, tableId: view.tableId });
      return { field_options: await this.fieldOptions(view, context) };
    });
  }

  private async applyFieldOptions(view: ViewEntity, context: TableContext, changes: Map<number, Record<string, unknown>>): Promise<void> {
    const type = this.types.of(view);
    const stored = await this.repo.fieldOptions(view.id);
    const created: { fieldId: number; options: Record<string, unknown> }[] = [];
    for (const [fieldId, values] of changes) {
      const row = stored.get(fieldId);
      if (row) await this.repo.updateFieldOptions(row.id, { ...row.options, ...values });
      else created.push({ fieldId, options: { ...type.defaultFieldOptions(context.byId.get(fieldId)!), ...values } });
    }
    await this.repo.createFieldOptions(view.id, created);
  }

  // ------------------------------------------------------------------ hooks of the database core

  /** A new table's first view: grid "Grid" with the given field widths (inside the table's unit of work). */
  async createDefaultView(context: TableContext, widths: Map<number, number>): Promise<void> {
    const view = await this.insert(context.table.id, { name: 'Grid', type: 'grid', properties: specDefaults(this.types.of({ type: 'grid' }).properties) });
    await this.applyFieldOptions(view, context, new Map([...widths].map(([fieldId, width]) => [fieldId, { width }])));
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
      const created = await this.insert(context.table.id, {
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
      await this.applyFieldOptions(view, context, changes);
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

  /** `view_id` on the rows endpoints: the view's saved filters and sorts, or null when it is not a live view of the table. */
  async selection(viewId: number, context: TableContext): Promise<Pick<RowSelection, 'filters' | 'sorts'> | null> {
    const view = await this.repo.findLive(viewId);
    if (!view || view.tableId !== context.table.id) return null;
    return this.savedSelection(view, context);
  }

  /**
   * The view's saved filters (none while disabled) and its sorts, group-bys first (cached by
   * the view's version: a saved view costs what the same ad-hoc query costs).
   */
  async savedSelection(view: ViewEntity, context: TableContext): Promise<Pick<RowSelection, 'filters' | 'sorts'> & { groupBys: RowSelection['sorts'] }> {
    const compiled = await this.parts.compiled(view, context);
    return { filters: compiled.filters, sorts: groupsFirst(compiled.groupBys, compiled.sorts), groupBys: compiled.groupBys };
  }
}

/** `"<name> 2"`, `"<name> 3"`… : the first that no view of the table has (kept within 255 characters). */
export function unusedName(name: string, taken: Set<string>): string {
  for (let n = 2; ; n++) {
    const suffix = ` ${n}`;
    const candidate = name.slice(0, 255 - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Baserow's FieldOptionsField: numeric keys, each value valid options (all or nothing). */
function parseFieldOptions(specs: Readonly<Record<string, FieldSpec>>, value: unknown): Map<number, Record<string, unknown>> {
  if (value === undefined) throw validationError({ field_options: [{ error: 'This field is required.', code: 'required' }] });
  const invalid = () => validationError({ field_options: [{ error: 'Must be valid field options.', code: 'invalid_value' }] });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid();
  const result = new Map<number, Record<string, unknown>>();
  for (const [key, options] of Object.entries(value as Record<string, unknown>)) {
    if (!/^\d+$/.test(key)) throw validationError({ field_options: [{ error: 'Field option key must be numeric.', code: 'invalid_key' }] });
    if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalid();
    const checked = checkObject(specs, options as Record<string, unknown>, { partial: true });
    if (Object.keys(checked.errors).length) throw invalid();
    result.set(Number(key), checked.values);
  }
  return result;
}
