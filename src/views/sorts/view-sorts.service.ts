import { Injectable } from '@nestjs/common';
import { OperationType, ViewOperations as V } from '../../permissions';
import { ActionLog } from '../../actions/action-log';
import { ActionScopes } from '../../actions/action-type';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { ApiError } from '../../core/errors/api-error';
import type { FieldSpec } from '../../core/validation/field';
import { DatabaseErrors } from '../../database/database.errors';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldRepository } from '../../database/fields/field.repository';
import type { TableContext } from '../../database/table-context';
import type { UserEntity } from '../../users/user.entity';
import type { ViewEntity } from '../view.entity';
import { ViewTypeRegistry } from '../view-type';
import { ViewsService } from '../views.service';
import { checkFieldBody } from '../filters/field-body';
import { groupByJson, sortJson, ViewSelectionService } from '../filters/view-selection.service';
import { ViewGroupByEntity, ViewSortEntity } from './view-sort.entity';
import { ViewSortErrors } from './view-sort.errors';
import { ViewSortRepository } from './view-sort.repository';

export type ViewSortJson = Record<string, unknown>;

const ORDERS = ['ASC', 'DESC'] as const;
/** Sort types: `default` (the field's natural order) and `order` (a select field's option order). */
const SORT_TYPES = ['default', 'order'] as const;

/** What differs between sorts (§8.6) and group-bys (grid only, with a column width). */
interface Kind {
  entity: typeof ViewSortEntity | typeof ViewGroupByEntity;
  event: 'view_sort' | 'view_group_by';
  allowed: (view: ViewEntity) => boolean;
  fieldSupported: (field: FieldEntity, sortType: string) => boolean;
  notSupported: () => ApiError;
  doesNotExist: () => ApiError;
  /** The operations that check access to them. */
  operations: Record<'list' | 'create' | 'read' | 'update' | 'delete', OperationType>;
  alreadyExists: () => ApiError;
  fieldNotSupported: () => ApiError;
  specs: (partial: boolean) => Record<string, FieldSpec>;
  json: (item: never) => ViewSortJson;
}

/**
 * Saved sorts and group-bys: CRUD with Baserow's checks (the view type sorts or groups, the
 * field is the table's, sortable, and not sorted or grouped twice). Each write bumps the
 * view's version and records its event.
 */
@Injectable()
export class ViewSortsService {
  readonly sorts: Kind;
  readonly groupBys: Kind;

  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: ViewSortRepository,
    private readonly views: ViewsService,
    private readonly viewTypes: ViewTypeRegistry,
    private readonly selection: ViewSelectionService,
    private readonly fields: FieldRepository,
    private readonly actions: ActionLog,
  ) {
    const common = (partial: boolean): Record<string, FieldSpec> => ({
      field: { kind: 'id', required: !partial },
      order: { kind: 'choice', choices: ORDERS, required: false, ...(partial ? {} : { default: 'ASC' }) },
      type: { kind: 'choice', choices: SORT_TYPES, required: false, ...(partial ? {} : { default: 'default' }) },
    });
    this.sorts = {
      entity: ViewSortEntity,
      event: 'view_sort',
      allowed: (view) => this.viewTypes.of(view).canSort,
      fieldSupported: (field, sortType) => this.selection.sortable(field, sortType),
      notSupported: ViewSortErrors.sortNotSupported,
      doesNotExist: ViewSortErrors.sortDoesNotExist,
      operations: { list: V.listSorts, create: V.createSort, read: V.readSort, update: V.updateSort, delete: V.deleteSort },
      alreadyExists: ViewSortErrors.sortFieldAlreadyExists,
      fieldNotSupported: ViewSortErrors.sortFieldNotSupported,
      specs: common,
      json: sortJson as (item: never) => ViewSortJson,
    };
    this.groupBys = {
      entity: ViewGroupByEntity,
      event: 'view_group_by',
      allowed: (view) => this.viewTypes.of(view).canGroupBy,
      fieldSupported: (field, sortType) => this.selection.groupable(field, sortType),
      notSupported: ViewSortErrors.groupByNotSupported,
      doesNotExist: ViewSortErrors.groupByDoesNotExist,
      operations: { list: V.listGroupBys, create: V.createGroupBy, read: V.readGroupBy, update: V.updateGroupBy, delete: V.deleteGroupBy },
      alreadyExists: ViewSortErrors.groupByFieldAlreadyExists,
      fieldNotSupported: ViewSortErrors.groupByFieldNotSupported,
      specs: (partial) => ({ ...common(partial), width: { kind: 'int', min: 0, max: 2147483647, required: false, ...(partial ? {} : { default: 200 }) } }),
      json: groupByJson as (item: never) => ViewSortJson,
    };
  }

  /** The field is the view table's and can be sorted (grouped) with that sort type. */
  private checkField(kind: Kind, context: TableContext, field: FieldEntity, type: string): void {
    const live = context.byId.get(field.id);
    if (!live) throw DatabaseErrors.fieldNotInTable();
    // `order` only where the field's type has it (a single select: its options' order).
    if (!kind.fieldSupported(live, type)) throw kind.fieldNotSupported();
  }

  private async requireItem(kind: Kind, id: number, userId: number, operation: OperationType) {
    const item = (await this.repo.findLive(kind.entity, id)) as ViewSortEntity | ViewGroupByEntity | null;
    if (!item) throw kind.doesNotExist();
    const access = await this.views.require(item.viewId, userId, operation, kind.doesNotExist);
    return { item, ...access };
  }

  async list(kind: Kind, user: UserEntity, viewId: number): Promise<ViewSortJson[]> {
    const { view, context } = await this.views.require(viewId, user.id, kind.operations.list);
    const saved = await this.selection.saved(view);
    const items = kind === this.sorts ? saved.sorts : saved.groupBys;
    return items.filter((i) => context.byId.has(i.fieldId)).map((i) => kind.json(i as never));
  }

  async create(kind: Kind, user: UserEntity, viewId: number, body: Record<string, unknown>): Promise<ViewSortJson> {
    const { values, field } = await checkFieldBody(this.fields, kind.specs(false), body, false);
    return this.db.run(async () => {
      const { view, context } = await this.views.require(viewId, user.id, kind.operations.create);
      if (!kind.allowed(view)) throw kind.notSupported();
      this.checkField(kind, context, field!, values.type as string);
      if (await this.repo.exists(kind.entity, view.id, field!.id)) throw kind.alreadyExists();
      const item = await this.repo.create(kind.entity, {
        viewId: view.id,
        fieldId: field!.id,
        order: values.order as string,
        type: values.type as string,
        ...(values.width !== undefined ? { width: values.width as number } : {}),
      });
      if (!item) throw kind.alreadyExists();
      await this.selection.bump([view.id]);
      this.db.record(`${kind.event}.created`, { viewId: view.id, tableId: view.tableId, id: item.id });
      const json = kind.json(item as never);
      this.recordAction(kind, 'create', context, view.id, { id: item.id, json });
      return json;
    });
  }

  async get(kind: Kind, user: UserEntity, id: number): Promise<ViewSortJson> {
    const { item } = await this.requireItem(kind, id, user.id, kind.operations.read);
    return kind.json(item as never);
  }

  async update(kind: Kind, user: UserEntity, id: number, body: Record<string, unknown>): Promise<ViewSortJson> {
    const { values, field } = await checkFieldBody(this.fields, kind.specs(true), body, true);
    return this.db.run(async () => {
      const { item, view, context } = await this.requireItem(kind, id, user.id, kind.operations.update);
      const changes: Record<string, unknown> = {};
      if (field || values.type !== undefined) {
        const target = field ?? context.byId.get(item.fieldId)!;
        this.checkField(kind, context, target, (values.type as string | undefined) ?? item.type);
        if (target.id !== item.fieldId && (await this.repo.exists(kind.entity, view.id, target.id, item.id))) throw kind.alreadyExists();
        changes.fieldId = target.id;
      }
      for (const key of ['order', 'type', 'width']) if (values[key] !== undefined) changes[key] = values[key];
      if (Object.keys(changes).length && !(await this.repo.update(kind.entity, item.id, changes as never))) throw kind.alreadyExists();
      await this.selection.bump([view.id]);
      this.db.record(`${kind.event}.updated`, { viewId: view.id, tableId: view.tableId, id: item.id });
      this.recordAction(kind, 'update', context, view.id, { id: item.id, before: kind.json(item as never), body });
      return kind.json({ ...item, ...changes } as never);
    });
  }

  async delete(kind: Kind, user: UserEntity, id: number): Promise<void> {
    await this.db.run(async () => {
      const { item, view, context } = await this.requireItem(kind, id, user.id, kind.operations.delete);
      await this.repo.delete(kind.entity, [item.id]);
      this.recordAction(kind, 'delete', context, view.id, { id: item.id, json: kind.json(item as never) });
      await this.selection.bump([view.id]);
      this.db.record(`${kind.event}.deleted`, { viewId: view.id, tableId: view.tableId, id: item.id });
    });
  }

  /** `create_view_sort`, `update_view_group`… (Baserow's names: a group-by is a "view group"), scope `view<id>`. */
  private recordAction(kind: Kind, verb: 'create' | 'update' | 'delete', context: { workspaceId: number; table: { id: number } }, viewId: number, params: Record<string, unknown>): void {
    const type = `${verb}_${kind === this.sorts ? 'view_sort' : 'view_group'}`;
    this.actions.record(type, { viewId, tableId: context.table.id, ...params }, { scope: ActionScopes.view(viewId), workspaceId: context.workspaceId });
  }
}
