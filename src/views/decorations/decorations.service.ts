import { Injectable } from '@nestjs/common';
import { OperationType, ViewOperations as V } from '../../permissions';
import { ActionLog } from '../../actions/action-log';
import { ActionScopes } from '../../actions/action-type';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { ErrorTree, validationError } from '../../core/errors/api-error';
import { checkObject, FieldSpec } from '../../core/validation/field';
import { DatabaseErrors } from '../../database/database.errors';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldRepository } from '../../database/fields/field.repository';
import { FilterCompiler } from '../../database/filters/filter-tree';
import { FilterTypeRegistry } from '../../database/filters/filter-type';
import type { TableContext } from '../../database/table-context';
import type { UserEntity } from '../../users/user.entity';
import { ViewTypeRegistry } from '../view-type';
import type { ViewEntity } from '../view.entity';
import type { ViewAccess } from '../view-access.service';
import { ViewsService } from '../views.service';
import { decorationJson, DecorationJson, ViewDecorationEntity } from './decoration.entity';
import { ViewDecorationRepository } from './decoration.repository';
import { ConfContext, DecorationConf, DecoratorTypeRegistry, DecoratorValueProviderType, DecoratorValueProviderTypeRegistry } from './decorator-type';
import { DecorationErrors } from './decorations.errors';

/** Baserow's `order` (a small integer); absent means last + 1. */
const ORDER_SPEC: FieldSpec = { kind: 'int', min: -32768, max: 32767, required: false };
const EMPTY_CONF = { error: 'This field should be an empty object.', code: 'invalid' };

/**
 * Decorations of views (§8.7): CRUD with the decorator and value provider registries, conf
 * validation against the view's table, copies for duplicated views and tables, and confs that
 * follow their fields when those are deleted or change type.
 */
@Injectable()
export class DecorationsService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: ViewDecorationRepository,
    private readonly views: ViewsService,
    private readonly viewTypes: ViewTypeRegistry,
    private readonly decorators: DecoratorTypeRegistry,
    private readonly providers: DecoratorValueProviderTypeRegistry,
    private readonly fields: FieldRepository,
    private readonly filterTypes: FilterTypeRegistry,
    private readonly compiler: FilterCompiler,
    private readonly actions: ActionLog,
  ) {}

  /** A decoration action (`create_decoration`…), scope `view<id>`. */
  private recordAction(type: string, viewId: number, context: { workspaceId: number; table: { id: number } }, params: Record<string, unknown>): void {
    const workspaceId = context.workspaceId;
    this.actions.record(type, { viewId, tableId: context.table.id, ...params }, { scope: ActionScopes.view(viewId), workspaceId });
  }

  async list(user: UserEntity, viewId: number): Promise<DecorationJson[]> {
    const { view } = await this.views.require(viewId, user.id, V.listDecorations);
    return (await this.repo.ofViews([view.id])).map(decorationJson);
  }

  async get(user: UserEntity, decorationId: number): Promise<DecorationJson> {
    const { decoration } = await this.requireDecoration(user, decorationId, V.readDecoration);
    return decorationJson(decoration);
  }

  /** `id`: an undo or redo bringing a deleted decoration back under its own id (Baserow's `primary_key`). */
  async create(user: UserEntity, viewId: number, body: Record<string, unknown>, id?: number): Promise<DecorationJson> {
    const values = this.checkBody(body, false);
    return this.db.run(async () => {
      const access = await this.views.require(viewId, user.id, V.createDecoration);
      this.requireDecoratable(access.view);
      const type = values.type as string;
      const provider = values.value_provider_type as string;
      const conf = await this.checkProvider(type, provider, body.value_provider_conf === undefined ? {} : body.value_provider_conf, access.context);
      const order = (values.order as number | undefined) ?? (await this.repo.lastOrder(access.view.id)) + 1;
      const decoration = await this.repo.create({ id, viewId: access.view.id, type, valueProviderType: provider, valueProviderConf: conf, order });
      this.db.record('view_decoration.created', { id: decoration.id, viewId: access.view.id, tableId: access.view.tableId });
      this.recordAction('create_decoration', access.view.id, access.context, { id: decoration.id, decoration: decorationBody(decoration) });
      return decorationJson(decoration);
    });
  }

  async update(user: UserEntity, decorationId: number, body: Record<string, unknown>): Promise<DecorationJson> {
    const operation = V.updateDecoration;
    const values = this.checkBody(body, true);
    return this.db.run(async () => {
      const { decoration, access } = await this.requireDecoration(user, decorationId, operation);
      const type = (values.type as string | undefined) ?? decoration.type;
      const provider = (values.value_provider_type as string | undefined) ?? decoration.valueProviderType;
      // Without a new conf the stored one is kept (as Baserow does), even under another provider.
      let conf = decoration.valueProviderConf;
      if (body.value_provider_conf === undefined) this.checkProviderType(type, provider);
      else conf = await this.checkProvider(type, provider, body.value_provider_conf, access.context);
      const changes: Partial<ViewDecorationEntity> = { type, valueProviderType: provider, valueProviderConf: conf, order: (values.order as number | undefined) ?? decoration.order };
      await this.repo.update(decoration.id, changes);
      this.db.record('view_decoration.updated', { id: decoration.id, viewId: decoration.viewId, tableId: access.view.tableId });
      const after = { ...decoration, ...changes };
      this.recordAction('update_decoration', decoration.viewId, access.context, { id: decoration.id, before: decorationBody(decoration), body: decorationBody(after) });
      return decorationJson(after);
    });
  }

  async delete(user: UserEntity, decorationId: number): Promise<void> {
    const operation = V.deleteDecoration;
    await this.db.run(async () => {
      const { decoration, access } = await this.requireDecoration(user, decorationId, operation);
      await this.repo.delete(decoration.id);
      this.recordAction('delete_decoration', decoration.viewId, access.context, { id: decoration.id, decoration: decorationBody(decoration) });
      this.db.record('view_decoration.deleted', { id: decoration.id, viewId: decoration.viewId, tableId: access.view.tableId });
    });
  }

  /** A decoration of a live view the user may use; 404 ERROR_VIEW_DECORATION_DOES_NOT_EXIST otherwise. */
  private async requireDecoration(user: UserEntity, decorationId: number, operation: OperationType): Promise<{ decoration: ViewDecorationEntity; access: ViewAccess }> {
    const decoration = await this.repo.find(decorationId);
    if (!decoration) throw DecorationErrors.doesNotExist();
    const access = await this.views.require(decoration.viewId, user.id, operation, DecorationErrors.doesNotExist);
    return { decoration, access };
  }

  private requireDecoratable(view: ViewEntity): void {
    if (!this.viewTypes.of(view).canDecorate) throw DecorationErrors.notSupported();
  }

  /** The create/update serializers: `type`, `value_provider_type` ("" or a provider), `value_provider_conf` (an object), `order`. */
  private checkBody(body: Record<string, unknown>, partial: boolean): Record<string, unknown> {
    const specs: Record<string, FieldSpec> = {
      type: { kind: 'choice', choices: this.decorators.names(), required: !partial },
      value_provider_type: { kind: 'choice', choices: ['', ...this.providers.names()], required: false, ...(partial ? {} : { default: '' }) },
      value_provider_conf: { kind: 'object', required: false },
      order: ORDER_SPEC,
    };
    const { values, errors } = checkObject(specs, body, { partial });
    if (partial && body.type === null) errors.type = [{ error: 'This field may not be null.', code: 'null' }];
    if (Object.keys(errors).length) throw validationError(errors);
    return values;
  }

  private checkProviderType(type: string, provider: string): void {
    if (!provider) return;
    if (!this.providers.require(provider).compatibleDecoratorTypes.includes(type)) throw DecorationErrors.providerNotCompatible();
  }

  /** The provider's conf as stored: `{}` for no provider, else validated by the provider against the table. */
  private async checkProvider(type: string, provider: string, conf: unknown, context: TableContext): Promise<DecorationConf> {
    if (!provider) {
      if (Object.keys(conf as object).length) throw validationError({ value_provider_conf: [EMPTY_CONF] });
      return {};
    }
    const providerType = this.providers.require(provider);
    const validated = await providerType.validate(conf, this.confContext(context));
    this.checkProviderType(type, provider);
    return validated;
  }

  private confContext(context: TableContext): ConfContext {
    return {
      field: async (id: number, path: string[]): Promise<FieldEntity> => {
        const own = context.byId.get(id);
        if (own) return own;
        const other = await this.fields.findLive(id);
        if (other) throw DatabaseErrors.fieldNotInTable();
        const tree: ErrorTree = {};
        let node = tree;
        path.slice(0, -1).forEach((key) => (node = node[key] = {} as ErrorTree));
        node[path[path.length - 1]] = [{ error: `The field ${id} does not exist.`, code: 'does_not_exist' }];
        throw validationError(tree);
      },
      filterCompatible: (type, field) => this.filterCompatible(type, field),
      filterTypes: () => this.filterTypes.names(),
    };
  }

  private filterCompatible(type: string, field: FieldEntity): boolean {
    return this.compiler.applies(type, field);
  }

  // ------------------------------------------------------------------ fields changing under decorations

  /** A field changed type or went to the trash (inside its unit of work): confs forget what no longer applies. */
  async fieldChanged(field: FieldEntity, change: 'type_changed' | 'trashed'): Promise<void> {
    if (change === 'trashed') await this.followField(field.tableId, (provider, conf) => provider.afterFieldDeleted(conf, field.id));
    else await this.followField(field.tableId, (provider, conf) => provider.afterFieldChanged(conf, field, (type, f) => this.filterCompatible(type, f)));
  }

  /** Rewrites the confs of the table's decorations that `change` alters, with `view_decoration_updated` for each. */
  private async followField(tableId: number, change: (provider: DecoratorValueProviderType, conf: DecorationConf) => DecorationConf | null): Promise<void> {
    for (const decoration of await this.repo.ofTable(tableId)) {
      const provider = this.providers.get(decoration.valueProviderType);
      if (!provider) continue;
      const conf = change(provider, decoration.valueProviderConf);
      if (!conf) continue;
      await this.repo.update(decoration.id, { valueProviderConf: conf });
      // Every socket, the origin's too: its client does not know the conf changed.
      this.db.recordAsSystem('view_decoration.updated', { id: decoration.id, viewId: decoration.viewId, tableId });
    }
  }
}

/** A decoration as a create (or full update) body gives it: what its undo and redo send again. */
function decorationBody(decoration: ViewDecorationEntity): Record<string, unknown> {
  return { type: decoration.type, value_provider_type: decoration.valueProviderType, value_provider_conf: decoration.valueProviderConf, order: decoration.order };
}
