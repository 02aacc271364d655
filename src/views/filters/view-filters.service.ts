import { Injectable } from '@nestjs/common';
import { OperationType, ViewOperations as V } from '../../permissions';
import { ActionLog } from '../../actions/action-log';
import { ActionScopes } from '../../actions/action-type';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { validationError } from '../../core/errors/api-error';
import { checkObject, FieldSpec } from '../../core/validation/field';
import { DatabaseErrors } from '../../database/database.errors';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldRepository } from '../../database/fields/field.repository';
import { FilterCompiler } from '../../database/filters/filter-tree';
import { FilterTypeRegistry } from '../../database/filters/filter-type';
import type { TableContext } from '../../database/table-context';
import type { UserEntity } from '../../users/user.entity';
import type { ViewEntity } from '../view.entity';
import { ViewTypeRegistry } from '../view-type';
import type { ViewAccess } from '../view-access.service';
import { ViewsService } from '../views.service';
import { checkFieldBody } from './field-body';
import { ViewFilterEntity, ViewFilterGroupEntity } from './view-filter.entity';
import { ViewFilterErrors } from './view-filter.errors';
import { ViewFilterRepository } from './view-filter.repository';
import { filterGroupJson, ViewSelectionService } from './view-selection.service';

export type ViewFilterJson = Record<string, unknown>;

const FILTER_TYPES = ['AND', 'OR'] as const;
export const GROUP_CREATE_SPECS: Record<string, FieldSpec> = {
  filter_type: { kind: 'choice', choices: FILTER_TYPES, required: false, default: 'AND' },
  parent_group: { kind: 'id', nullable: true, required: false, default: null },
};
export const GROUP_UPDATE_SPECS: Record<string, FieldSpec> = {
  filter_type: { kind: 'choice', choices: FILTER_TYPES, required: false },
  parent_group: { kind: 'id', nullable: true, required: false },
};

/**
 * Saved view filters and filter groups (§8.5): CRUD with Baserow's checks (the view type can
 * filter, the field is the view table's and live, the filter type suits it, the group is the
 * view's and groups never nest in themselves). Each write bumps the view's version and
 * records its event.
 */
@Injectable()
export class ViewFiltersService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: ViewFilterRepository,
    private readonly views: ViewsService,
    private readonly viewTypes: ViewTypeRegistry,
    private readonly selection: ViewSelectionService,
    private readonly fields: FieldRepository,
    private readonly filterTypes: FilterTypeRegistry,
    private readonly compiler: FilterCompiler,
    private readonly actions: ActionLog,
  ) {}

  /** A filter action (`create_view_filter`…), scope `view<id>`; `filter` as a create body would give it. */
  private recordAction(type: string, view: { id: number; tableId: number }, context: { workspaceId: number }, params: Record<string, unknown>): void {
    this.actions.record(type, { viewId: view.id, tableId: view.tableId, ...params }, { scope: ActionScopes.view(view.id), workspaceId: context.workspaceId });
  }

  private filterSpecs(partial: boolean): Record<string, FieldSpec> {
    return {
      field: { kind: 'id', required: !partial },
      type: { kind: 'choice', choices: this.filterTypes.names(), required: !partial },
      value: { kind: 'string', allowBlank: true, required: false, ...(partial ? {} : { default: '' }) },
      ...(partial ? {} : { group: { kind: 'id', nullable: true, required: false, default: null } as FieldSpec }),
    };
  }

  private requireFilterable(view: ViewEntity): void {
    if (!this.viewTypes.of(view).canFilter) throw ViewFilterErrors.notSupported();
  }

  /** The field of the view's table, and the filter type suiting it. */
  private checkFilter(context: TableContext, field: FieldEntity, type: string): FieldEntity {
    const live = context.byId.get(field.id);
    if (!live) throw DatabaseErrors.fieldNotInTable();
    this.compiler.requireApplicable(type, live);
    return live;
  }

  private async requireFilter(filterId: number, userId: number, operation: OperationType): Promise<{ filter: ViewFilterEntity } & ViewAccess> {
    const filter = await this.repo.findLive(filterId);
    if (!filter) throw ViewFilterErrors.filterDoesNotExist();
    const access = await this.views.require(filter.viewId, userId, operation, ViewFilterErrors.filterDoesNotExist);
    return { filter, ...access };
  }

  private async requireGroup(groupId: number, userId: number, operation: OperationType): Promise<{ group: ViewFilterGroupEntity } & ViewAccess> {
    const group = await this.repo.findGroup(groupId);
    if (!group) throw ViewFilterErrors.groupDoesNotExist();
    const access = await this.views.require(group.viewId, userId, operation, ViewFilterErrors.groupDoesNotExist);
    return { group, ...access };
  }

  private async filterJson(filter: ViewFilterEntity, context: TableContext): Promise<ViewFilterJson> {
    return (await this.selection.filtersJson([filter], context))[0];
  }

  // ------------------------------------------------------------------ filters

  async list(user: UserEntity, viewId: number): Promise<ViewFilterJson[]> {
    const { view, context } = await this.views.require(viewId, user.id, V.listFilters);
    const saved = await this.selection.saved(view);
    return this.selection.filtersJson(saved.filters.filter((f) => context.byId.has(f.fieldId)), context);
  }

  /** `id`: an undo or redo bringing a deleted filter back under its own id (as Baserow's `primary_key`). */
  async create(user: UserEntity, viewId: number, body: Record<string, unknown>, id?: number): Promise<ViewFilterJson> {
    const { values, field } = await checkFieldBody(this.fields, this.filterSpecs(false), body, false);
    const { filter, context } = await this.db.run(async () => {
      const { view, context } = await this.views.require(viewId, user.id, V.createFilter);
      this.requireFilterable(view);
      this.checkFilter(context, field!, values.type as string);
      const groupId = values.group as number | null;
      if (groupId !== null) {
        const group = await this.repo.findGroup(groupId);
        if (!group || group.viewId !== view.id) throw ViewFilterErrors.groupDoesNotExist();
      }
      const filter = await this.repo.create({ ...(id === undefined ? {} : { id }), viewId: view.id, fieldId: field!.id, type: values.type as string, value: values.value as string, groupId });
      if (!filter) throw ViewFilterErrors.groupDoesNotExist();
      await this.selection.bump([view.id]);
      this.db.record('view_filter.created', { viewId: view.id, tableId: view.tableId, id: filter.id });
      this.recordAction('create_view_filter', view, context, { id: filter.id, filter: filterBody(filter) });
      return { filter, context };
    });
    return this.filterJson(filter, context);
  }

  async get(user: UserEntity, filterId: number): Promise<ViewFilterJson> {
    const { filter, context } = await this.requireFilter(filterId, user.id, V.readFilter);
    return this.filterJson(filter, context);
  }

  async update(user: UserEntity, filterId: number, body: Record<string, unknown>): Promise<ViewFilterJson> {
    const { values, field } = await checkFieldBody(this.fields, this.filterSpecs(true), body, true);
    const { filter, context } = await this.db.run(async () => {
      const { filter, view, context } = await this.requireFilter(filterId, user.id, V.updateFilter);
      const type = (values.type as string | undefined) ?? filter.type;
      const target = field ?? context.byId.get(filter.fieldId)!;
      this.checkFilter(context, target, type);
      const changes: Partial<ViewFilterEntity> = { fieldId: target.id, type };
      if (values.value !== undefined) changes.value = values.value as string;
      await this.repo.update(filter.id, changes);
      await this.selection.bump([view.id]);
      this.db.record('view_filter.updated', { viewId: view.id, tableId: view.tableId, id: filter.id });
      this.recordAction('update_view_filter', view, context, { id: filter.id, before: filterBody(filter), body });
      return { filter: { ...filter, ...changes }, context };
    });
    return this.filterJson(filter, context);
  }

  async delete(user: UserEntity, filterId: number): Promise<void> {
    await this.db.run(async () => {
      const { filter, view, context } = await this.requireFilter(filterId, user.id, V.deleteFilter);
      await this.repo.delete([filter.id]);
      this.recordAction('delete_view_filter', view, context, { id: filter.id, filter: filterBody(filter) });
      await this.selection.bump([view.id]);
      this.db.record('view_filter.deleted', { viewId: view.id, tableId: view.tableId, id: filter.id });
    });
  }

  // ------------------------------------------------------------------ filter groups

  /** `id`: an undo or redo bringing a deleted group back under its own id (as Baserow does). */
  async createGroup(user: UserEntity, viewId: number, body: Record<string, unknown>, id?: number): Promise<ViewFilterJson> {
    const { values, errors } = checkObject(GROUP_CREATE_SPECS, body);
    if (Object.keys(errors).length) throw validationError(errors);
    return this.db.run(async () => {
      const { view, context } = await this.views.require(viewId, user.id, V.createFilterGroup);
      this.requireFilterable(view);
      const parentId = values.parent_group as number | null;
      if (parentId !== null) {
        const parent = await this.repo.findGroup(parentId);
        if (!parent || parent.viewId !== view.id) throw ViewFilterErrors.groupDoesNotExist();
      }
      const group = await this.repo.createGroup({ ...(id === undefined ? {} : { id }), viewId: view.id, filterType: values.filter_type as string, parentGroupId: parentId });
      if (!group) throw ViewFilterErrors.groupDoesNotExist();
      await this.selection.bump([view.id]);
      this.db.record('view_filter_group.created', { viewId: view.id, tableId: view.tableId, id: group.id });
      this.recordAction('create_view_filter_group', view, context, { id: group.id, group: groupBody(group) });
      return filterGroupJson(group);
    });
  }

  async getGroup(user: UserEntity, groupId: number): Promise<ViewFilterJson> {
    const { group } = await this.requireGroup(groupId, user.id, V.readFilterGroup);
    return filterGroupJson(group);
  }

  /** `filter_type`, and `parent_group` (another group of the view that is not nested in this one, or null). */
  async updateGroup(user: UserEntity, groupId: number, body: Record<string, unknown>): Promise<ViewFilterJson> {
    const { values, errors } = checkObject(GROUP_UPDATE_SPECS, body, { partial: true });
    if (Object.keys(errors).length) throw validationError(errors);
    return this.db.run(async () => {
      const { group, view, context } = await this.requireGroup(groupId, user.id, V.updateFilterGroup);
      const changes: Partial<ViewFilterGroupEntity> = {};
      if (values.filter_type !== undefined) changes.filterType = values.filter_type as string;
      if (values.parent_group !== undefined) {
        const parentId = values.parent_group as number | null;
        if (parentId !== null) {
          const groups = (await this.repo.groupsOfViews([view.id])).filter((g) => g.viewId === view.id);
          const byId = new Map(groups.map((g) => [g.id, g]));
          if (!byId.has(parentId)) throw ViewFilterErrors.groupDoesNotExist();
          // The new parent must not be the group itself or one of its descendants.
          for (let at: number | null = parentId; at !== null; at = byId.get(at)?.parentGroupId ?? null) if (at === group.id) throw ViewFilterErrors.groupCycle();
        }
        changes.parentGroupId = parentId;
      }
      if (Object.keys(changes).length && !(await this.repo.updateGroup(group.id, changes))) throw ViewFilterErrors.groupDoesNotExist();
      await this.selection.bump([view.id]);
      this.db.record('view_filter_group.updated', { viewId: view.id, tableId: view.tableId, id: group.id });
      this.recordAction('update_view_filter_group', view, context, { id: group.id, before: groupBody(group), body: groupBody({ ...group, ...changes }) });
      return filterGroupJson({ ...group, ...changes });
    });
  }

  /**
   * Deletes a group with its filters and nested groups; the action keeps them all (groups
   * parents first), so its undo brings them back under their ids (`restoreGroup`).
   */
  async deleteGroup(user: UserEntity, groupId: number): Promise<void> {
    await this.db.run(async () => {
      const { group, view, context } = await this.requireGroup(groupId, user.id, V.deleteFilterGroup);
      const [groups, filters] = await Promise.all([this.repo.groupsOfViews([view.id]), this.repo.ofViews([view.id])]);
      const inside = new Set([group.id]);
      const nested: ViewFilterGroupEntity[] = [];
      // Parents first (breadth-first), so the undo can recreate each group under its parent.
      for (let frontier = [group.id]; frontier.length; ) {
        const next = groups.filter((g) => g.parentGroupId !== null && frontier.includes(g.parentGroupId));
        for (const g of next) inside.add(g.id);
        nested.push(...next);
        frontier = next.map((g) => g.id);
      }
      const snapshot = {
        id: group.id,
        group: groupBody(group),
        groups: nested.map((g) => ({ id: g.id, ...groupBody(g) })),
        filters: filters.filter((f) => f.groupId !== null && inside.has(f.groupId)).map((f) => ({ id: f.id, ...filterBody(f) })),
      };
      await this.repo.deleteGroup(group.id);
      this.recordAction('delete_view_filter_group', view, context, snapshot);
      await this.selection.bump([view.id]);
      this.db.record('view_filter_group.deleted', { viewId: view.id, tableId: view.tableId, id: group.id });
    });
  }

  /**
   * Brings a deleted group back (the undo of `delete_view_filter_group`): the group, its nested
   * groups and its filters under their old ids, through `createGroup` and `create` with their
   * messages. Filters whose field is gone or trashed stay away, as in Baserow.
   */
  async restoreGroup(user: UserEntity, viewId: number, snapshot: GroupSnapshot): Promise<void> {
    await this.db.run(async () => {
      await this.createGroup(user, viewId, snapshot.group, snapshot.id);
      for (const { id, ...group } of snapshot.groups) await this.createGroup(user, viewId, group, id);
      const { context } = await this.views.require(viewId, user.id, V.createFilterGroup);
      for (const { id, ...filter } of snapshot.filters) if (context.byId.has(filter.field as number)) await this.create(user, viewId, filter, id);
    });
  }
}

/** A deleted filter group as its action keeps it. */
export interface GroupSnapshot {
  id: number;
  group: Record<string, unknown>;
  groups: ({ id: number } & Record<string, unknown>)[];
  filters: ({ id: number } & Record<string, unknown>)[];
}

/** A filter group as a create (or update) body gives it. */
function groupBody(group: ViewFilterGroupEntity): Record<string, unknown> {
  return { filter_type: group.filterType, parent_group: group.parentGroupId ?? null };
}

/** A saved filter as a create (or update) body gives it: what its undo and redo send again. */
function filterBody(filter: ViewFilterEntity): Record<string, unknown> {
  return { field: filter.fieldId, type: filter.type, value: filter.value, group: filter.groupId ?? null };
}
