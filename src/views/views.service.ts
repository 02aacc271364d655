import { newSlug } from './view-slug';
import { OperationType, ViewOperations as V } from '../permissions';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../core/database/unit-of-work';
import { ErrorTree, validationError } from '../core/errors/api-error';
import { checkObject, checkValue, FieldSpec } from '../core/validation/field';
import type { RowSelection } from '../database/rows/row-list.query';
import { TableContext, TableContextService } from '../database/table-context';
import type { TableEntity } from '../database/table.entity';
import { TrashService } from '../trash/trash.service';
import type { UserEntity } from '../users/user.entity';
import { PasswordHasher } from '../users/password-hasher';
import { DecorationCopier } from './decorations/decoration-copier';
import { groupsFirst, ViewSelectionService } from './filters/view-selection.service';
import { SlugCaller, ViewAccess, ViewAccessService } from './view-access.service';
import { FieldOptionsJson, ViewFieldOptionsService } from './view-field-options.service';
import { ALL_INCLUDES, NO_INCLUDES, ViewIncludes, ViewJson, ViewJsonService, ViewParts } from './view-json.service';
import { ViewEntity } from './view.entity';
import { ViewRepository } from './view.repository';
import { ViewType, ViewTypeRegistry } from './view-type';
import { ViewErrors } from './views.errors';
import { isPersonal, OWNERSHIP_TYPES, PERSONAL } from './view-ownership';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';


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

/** Baserow premium's view attributes (`PATCH /api/database/view/{view_id}/premium`). */
const PREMIUM_SPECS: Record<string, FieldSpec> = {
  show_logo: { kind: 'bool', required: false },
  allow_public_export: { kind: 'bool', required: false },
};

const PUBLIC_SPEC: FieldSpec = { kind: 'bool', required: false, default: false };


/**
 * The rules of views: create, update, trash, order and duplicate; the saved selection the rows
 * endpoints apply. Who may use a view (ViewAccessService), its JSON (ViewJsonService) and its
 * field options (ViewFieldOptionsService) have their own services, which this one answers for
 * too; what views do for the database core is in ViewHooksService.
 */
@Injectable()
export class ViewsService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: ViewRepository,
    private readonly types: ViewTypeRegistry,
    private readonly contexts: TableContextService,
    private readonly hasher: PasswordHasher,
    private readonly trash: TrashService,
    private readonly access: ViewAccessService,
    private readonly json: ViewJsonService,
    private readonly options: ViewFieldOptionsService,
    private readonly decorations: DecorationCopier,
    private readonly parts: ViewSelectionService,
    private readonly actions: ActionLog,
  ) {}

  // ------------------------------------------------------------------ access, JSON and field options

  /** A live view the user may do `operation` on (see ViewAccessService.require). */
  require(viewId: number, userId: number, operation: OperationType, notFound = ViewErrors.viewDoesNotExist): Promise<ViewAccess> {
    return this.access.require(viewId, userId, operation, notFound);
  }

  /** The view with this slug for a caller (see ViewAccessService.requireBySlug). */
  requireBySlug(
    slug: string,
    caller: SlugCaller,
    errors: { notFound: () => Error; passwordRequired: () => Error; type?: string; checkPassword?: boolean },
  ): Promise<ViewAccess & { isMember: boolean }> {
    return this.access.requireBySlug(slug, caller, errors);
  }

  /** A live view's table context without a member check; null when the table is gone. */
  systemAccess(view: ViewEntity): Promise<ViewAccess | null> {
    return this.access.systemAccess(view);
  }

  /** A view's JSON (see ViewJsonService.serialize). */
  serialize(view: ViewEntity, table: TableEntity, includes: ViewIncludes, parts: ViewParts = {}, userId: number | null = null): ViewJson {
    return this.json.serialize(view, table, includes, parts, userId);
  }

  /** Views of one table as JSON, with the sub-object lists `includes` asks for. */
  serializeAll(views: ViewEntity[], context: TableContext, includes: ViewIncludes, userId: number | null = null): Promise<ViewJson[]> {
    return this.json.serializeAll(views, context, includes, userId);
  }

  /** The JSON of a live view as anyone sees it right now; null when gone. */
  viewJson(viewId: number, includes: ViewIncludes): Promise<ViewJson | null> {
    return this.json.viewJson(viewId, includes);
  }

  /** Options of every live field of the table (see ViewFieldOptionsService.fieldOptions). */
  fieldOptions(view: ViewEntity, context: TableContext, create = true): Promise<FieldOptionsJson> {
    return this.options.fieldOptions(view, context, create);
  }

  getFieldOptions(user: UserEntity, viewId: number): Promise<{ field_options: FieldOptionsJson }> {
    return this.options.getFieldOptions(user, viewId);
  }

  updateFieldOptions(user: UserEntity, viewId: number, body: Record<string, unknown>): Promise<{ field_options: FieldOptionsJson }> {
    return this.options.updateFieldOptions(user, viewId, body);
  }

  // ------------------------------------------------------------------ reading

  async list(user: UserEntity, tableId: number, options: { type?: string; limit?: number; includes: ViewIncludes }): Promise<ViewJson[]> {
    const context = await this.contexts.require(tableId, user.id, V.list);
    const views = await this.visibleViews(user.id, context, { type: options.type });
    return this.serializeAll(options.limit !== undefined ? views.slice(0, options.limit) : views, context, options.includes, user.id);
  }

  /** The table's live views the user sees: the collaborative ones and their own personal ones (while they may use them). */
  private async visibleViews(userId: number, context: TableContext, options: { type?: string } = {}): Promise<ViewEntity[]> {
    const views = await this.repo.ofTable(context.table.id, options);
    const visible: ViewEntity[] = [];
    for (const view of views) if (await this.access.visibleTo(view, userId, context)) visible.push(view);
    return visible;
  }

  async get(user: UserEntity, viewId: number, includes: ViewIncludes): Promise<ViewJson> {
    const { view, context } = await this.require(viewId, user.id, V.read);
    return (await this.serializeAll([view], context, includes, user.id))[0];
  }

  // ------------------------------------------------------------------ writing

  async create(user: UserEntity, tableId: number, body: Record<string, unknown>, includes: ViewIncludes): Promise<ViewJson> {
    const { type, values } = this.validateCreate(body);
    const { view, table } = await this.db.run(async () => {
      const personal = values.ownership_type === PERSONAL;
      // A personal view needs the right to use personal views (a VIEWER's by default), a collaborative one to create views.
      const context = await this.contexts.require(tableId, user.id, personal ? V.createAndUsePersonalView : V.create);
      if (values.public) await this.contexts.require(tableId, user.id, V.createPublic);
      await type.prepareProperties?.(values.properties as Record<string, unknown>, { properties: {} }, context, user.id);
      const view = await this.insert(context.table.id, {
        name: values.name as string,
        type: type.type,
        filterType: values.filter_type as string,
        filtersDisabled: values.filters_disabled as boolean,
        ownershipType: values.ownership_type as string,
        ownedById: personal ? user.id : null,
        public: (values.public as boolean | undefined) ?? false,
        properties: values.properties as Record<string, unknown>,
        ...type.entityChanges?.(values.properties as Record<string, unknown>, null),
      });
      if (type.createdFieldOptions) await this.options.applyFieldOptions(view, context, type.createdFieldOptions(context));
      this.db.record('view.created', { viewId: view.id, tableId });
      this.recordAction('create_view', context, ActionScopes.table(tableId), { viewId: view.id });
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
  /** Inserts a view last in its table with a fresh unique slug (also for a new table's first view and imported views). */
  async insert(tableId: number, values: Partial<ViewEntity>): Promise<ViewEntity> {
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

  /**
   * `premium`: the update of Baserow premium's attributes (`show_logo`, `allow_public_export`)
   * through `PATCH /api/database/view/{view_id}/premium`, and only those.
   */
  async update(user: UserEntity, viewId: number, body: Record<string, unknown>, includes: ViewIncludes, premium = false): Promise<ViewJson> {
    const { view, context } = await this.db.run(async () => {
      const { view, context } = await this.require(viewId, user.id, V.update);
      const type = this.types.of(view);
      const errors: ErrorTree = {};
      // DRF answers a blank value before checking its length: "" removes the password.
      const removesPassword = !premium && typeof body.public_view_password === 'string' && body.public_view_password.trim() === '';
      const common = checkObject(premium ? PREMIUM_SPECS : UPDATE_SPECS, removesPassword ? { ...body, public_view_password: undefined } : body, { partial: true });
      if (removesPassword) common.values.public_view_password = '';
      const none = { values: {} as Record<string, unknown>, errors: {} };
      const props = premium ? none : checkObject(type.properties, body, { partial: true });
      const shared = type.canShare && !premium ? checkObject({ public: PUBLIC_SPEC }, body, { partial: true }) : none;
      Object.assign(errors, common.errors, props.errors, shared.errors);
      if (Object.keys(errors).length) throw validationError(errors);
      await type.prepareProperties?.(props.values, view, context, user.id);
      const values = common.values;
      const changes: Partial<ViewEntity> = {};
      if (values.name !== undefined) changes.name = values.name as string;
      if (values.filter_type !== undefined) changes.filterType = values.filter_type as string;
      if (values.filters_disabled !== undefined) changes.filtersDisabled = values.filters_disabled as boolean;
      if (values.show_logo !== undefined) changes.showLogo = values.show_logo as boolean;
      if (values.allow_public_export !== undefined) changes.allowPublicExport = values.allow_public_export as boolean;
      if (values.ownership_type !== undefined && values.ownership_type !== view.ownershipType) {
        // Baserow's change_ownership_type: the one who changes it becomes the owner; a view made
        // collaborative needs the right to update collaborative views.
        await this.contexts.require(context.table.id, user.id, values.ownership_type === PERSONAL ? V.createAndUsePersonalView : V.update);
        changes.ownershipType = values.ownership_type as string;
        changes.ownedById = user.id;
      }
      if (values.public_view_password !== undefined) {
        const password = values.public_view_password as string;
        changes.passwordHash = password === '' ? null : await this.hasher.hash(password);
      }
      if ((shared.values as Record<string, unknown>).public !== undefined) changes.public = (shared.values as Record<string, unknown>).public as boolean;
      // Sharing or unsharing needs its own right (an owner of a personal view may lack it).
      if (changes.public !== undefined && changes.public !== view.public) await this.require(view.id, user.id, V.updatePublic);
      if (Object.keys(props.values).length) changes.properties = { ...view.properties, ...props.values };
      Object.assign(changes, type.entityChanges?.(props.values, view));
      if (Object.keys(changes).length) await this.repo.update(view.id, changes);
      this.db.record('view.updated', { viewId: view.id, tableId: view.tableId, ...(changes.ownershipType ? { previousOwnership: view.ownershipType } : {}) });
      this.recordAction('update_view', context, ActionScopes.view(view.id), { viewId: view.id, before: this.updateBody(view, type, values, props.values, shared.values), body: withoutPassword(body), ...(premium ? { premium } : {}) });
      // No longer shared, or a new password: who followed the shared page may have lost it.
      const revokes = (changes.public === false && view.public) || (changes.passwordHash !== undefined && changes.passwordHash !== null);
      if (revokes) this.db.record('view.public_access_changed', { viewId: view.id, slug: view.slug });
      return { view: { ...view, ...changes }, context };
    });
    return (await this.serializeAll([view], context, includes, user.id))[0];
  }

  /**
   * A new slug for a shareable view: the old shared link stops working (and the sockets that
   * followed it are dropped). `given`: the slug an undo or redo puts back.
   */
  async rotateSlug(user: UserEntity, viewId: number, given?: string): Promise<ViewJson> {
    const { view, table } = await this.db.run(async () => {
      const { view, context } = await this.require(viewId, user.id, V.updateSlug);
      if (!this.types.of(view).canShare) throw ViewErrors.cannotShare();
      let slug = given ?? newSlug();
      // `given`: an undo or redo putting a slug back (Baserow's update_view_slug); taken since, it cannot be.
      if (given !== undefined && given !== view.slug && (await this.repo.slugExists(given))) throw new Error(`The slug ${given} is another view's now.`);
      while (given === undefined && (await this.repo.slugExists(slug))) slug = newSlug();
      await this.repo.update(view.id, { slug });
      this.db.record('view.updated', { viewId: view.id, tableId: view.tableId });
      this.db.record('view.public_access_changed', { viewId: view.id, slug: view.slug });
      this.recordAction('rotate_view_slug', context, ActionScopes.view(view.id), { viewId: view.id, slug, originalSlug: view.slug });
      return { view: { ...view, slug }, table: context.table };
    });
    return this.serialize(view, table, NO_INCLUDES, {}, user.id);
  }

  /** Moves the view to the trash. */
  async delete(user: UserEntity, viewId: number): Promise<void> {
    await this.db.run(async () => {
      const { view, context } = await this.require(viewId, user.id, V.delete);
      await this.trash.trashItem(ViewEntity, user, {
        type: 'view',
        itemId: view.id,
        workspaceId: context.workspaceId,
        applicationId: context.table.databaseId,
        name: view.name,
        parentName: context.table.name,
        // A personal view's trash entry is its owner's only (Baserow's get_trashed_item_owner).
        ownerId: isPersonal(view) ? view.ownedById : null,
      });
      this.db.record('view.deleted', { viewId: view.id, tableId: view.tableId });
      this.recordAction('delete_view', context, ActionScopes.table(view.tableId), { viewId: view.id });
    });
  }

  /** Records a view action (`place`: its scope). */
  private recordAction(type: string, context: Pick<TableContext, 'table' | 'workspaceId'>, scope: string, params: Record<string, unknown>): void {
    this.actions.record(type, { tableId: context.table.id, ...params }, { scope, workspaceId: context.workspaceId });
  }

  /** The update body that puts back what an update changes (a password cannot be put back: it is not kept). */
  private updateBody(view: ViewEntity, type: ViewType, common: Record<string, unknown>, properties: Record<string, unknown>, shared: Record<string, unknown>): Record<string, unknown> {
    const body: Record<string, unknown> = {};
    if (common.name !== undefined) body.name = view.name;
    if (common.filter_type !== undefined) body.filter_type = view.filterType;
    if (common.filters_disabled !== undefined) body.filters_disabled = view.filtersDisabled;
    if (common.ownership_type !== undefined) body.ownership_type = view.ownershipType;
    if (common.show_logo !== undefined) body.show_logo = view.showLogo;
    if (common.allow_public_export !== undefined) body.allow_public_export = view.allowPublicExport;
    if (shared.public !== undefined) body.public = view.public;
    for (const key of Object.keys(properties)) if (key in type.properties) body[key] = view.properties[key] ?? null;
    return body;
  }

  /** Orders the table's views as listed; the ones not listed get order 0 (and come first). */
  async order(user: UserEntity, tableId: number, viewIds: number[]): Promise<void> {
    await this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id, V.order);
      // Only the views of the first one's ownership type the user sees are ordered (Baserow's order_views).
      const visible = await this.visibleViews(user.id, context);
      const first = visible.find((v) => v.id === viewIds[0]);
      if (!first) throw ViewErrors.viewNotInTable(viewIds[0]);
      const all = visible.filter((v) => v.ownershipType === first.ownershipType).map((v) => v.id);
      const known = new Set(all);
      for (const id of viewIds) if (!known.has(id)) throw ViewErrors.viewNotInTable(id);
      const ordered = await this.applyOrder(all, viewIds);
      this.db.record('views.reordered', { tableId, viewIds: ordered });
      this.recordAction('order_views', context, ActionScopes.table(tableId), { before: all, after: viewIds });
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
      const { view, context } = await this.require(viewId, user.id, V.duplicate);
      const all = await this.repo.ofTable(view.tableId);
      // Ordered among the views of the same ownership type (a personal copy among its owner's personal views).
      const siblings = all.filter((v) => v.ownershipType === view.ownershipType && (!isPersonal(v) || v.ownedById === view.ownedById));
      const copy = await this.insert(view.tableId, {
        name: unusedName(view.name, new Set(all.map((v) => v.name))),
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
      this.recordAction('duplicate_view', context, ActionScopes.table(view.tableId), { viewId: copy.id, originalViewId: view.id, originalViewName: view.name });
      return { viewId: copy.id, table: context };
    });
    const copy = await this.repo.findLive(copyId);
    return (await this.serializeAll([copy!], table, ALL_INCLUDES))[0];
  }

  // ------------------------------------------------------------------ saved selection

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

/** A view update body as an action keeps it: never a password in clear (its redo leaves the password alone). */
function withoutPassword(body: Record<string, unknown>): Record<string, unknown> {
  const { public_view_password: _password, ...rest } = body;
  return rest;
}
