import { Injectable } from '@nestjs/common';
import { ViewOperations as V } from '../permissions';
import { ActionLog } from '../actions/action-log';
import { ActionScopes } from '../actions/action-type';
import { Caches, MetadataCache } from '../core/cache/caches';
import { UnitOfWork } from '../core/database/unit-of-work';
import { validationError } from '../core/errors/api-error';
import { checkObject, FieldSpec } from '../core/validation/field';
import type { TableContext } from '../database/table-context';
import type { UserEntity } from '../users/user.entity';
import { ViewAccessService } from './view-access.service';
import type { ViewEntity } from './view.entity';
import { ViewRepository } from './view.repository';
import { ViewTypeRegistry } from './view-type';
import { ViewErrors } from './views.errors';

export type FieldOptionsJson = Record<string, Record<string, unknown>>;

/** A view's options per field (width, hidden, order… as its type defines them), created on the fly with their defaults. */
@Injectable()
export class ViewFieldOptionsService {
  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: ViewRepository,
    private readonly types: ViewTypeRegistry,
    private readonly access: ViewAccessService,
    private readonly actions: ActionLog,
    caches: Caches,
  ) {
    this.stored = caches.metadata('view-field-options');
  }

  /** The stored options of views (every read of a view's rows asks, a shared view's anonymous ones too). */
  private readonly stored: MetadataCache<number, Awaited<ReturnType<ViewRepository['fieldOptions']>>>;

  /**
   * Options of every live field of the table, keyed by field id; missing ones are created with
   * their defaults (only answered with them when `create` is false: a read that must not write).
   */
  async fieldOptions(view: ViewEntity, context: TableContext, create = true): Promise<FieldOptionsJson> {
    const type = this.types.of(view);
    const specs = type.fieldOptions;
    if (!specs) throw ViewErrors.noFieldOptions();
    let stored = await this.stored.get(view.id, () => this.repo.fieldOptions(view.id));
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
    const { view, context } = await this.access.require(viewId, user.id, V.readFieldOptions);
    return { field_options: await this.fieldOptions(view, context) };
  }

  /** `{"field_options": {"<field_id>": {partial options}}}`: keys numeric, fields of the view's table. */
  async updateFieldOptions(user: UserEntity, viewId: number, body: Record<string, unknown>): Promise<{ field_options: FieldOptionsJson }> {
    return this.db.run(async () => {
      const { view, context } = await this.access.require(viewId, user.id, V.updateFieldOptions);
      const type = this.types.of(view);
      if (!type.fieldOptions) throw ViewErrors.noFieldOptions();
      const changes = parseFieldOptions(type.fieldOptions, body.field_options);
      for (const fieldId of changes.keys()) if (!context.byId.has(fieldId)) throw ViewErrors.unrelatedField();
      const stored = await this.repo.fieldOptions(view.id);
      const current = new Map(context.fields.map((f) => [f.id, { ...type.defaultFieldOptions(f), ...(stored.get(f.id)?.options ?? {}) }]));
      type.prepareFieldOptions?.(changes, current, context);
      await this.applyFieldOptions(view, context, changes);
      this.db.record('view.field_options_updated', { viewId: view.id, tableId: view.tableId });
      this.actions.record('update_view_field_options', { viewId: view.id, tableId: view.tableId, ...changedOptions(changes, current) }, { scope: ActionScopes.view(view.id), workspaceId: context.workspaceId });
      return { field_options: await this.fieldOptions(view, context) };
    });
  }

  /** Sets these options of these fields (partial: other keys kept), creating the fields' rows of options that are missing. */
  async applyFieldOptions(view: ViewEntity, context: TableContext, changes: Map<number, Record<string, unknown>>): Promise<void> {
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
}

/**
 * What `update_view_field_options` keeps (as Baserow): of the options the request set, those
 * whose value changed, with their values before (`original_field_options`) and after.
 */
function changedOptions(changes: Map<number, Record<string, unknown>>, current: Map<number, Record<string, unknown>>) {
  const field_options: FieldOptionsJson = {};
  const original_field_options: FieldOptionsJson = {};
  for (const [fieldId, values] of changes) {
    const before = current.get(fieldId) ?? {};
    for (const [key, value] of Object.entries(values)) {
      if (JSON.stringify(value) === JSON.stringify(before[key] ?? null)) continue;
      (field_options[fieldId] ??= {})[key] = value;
      (original_field_options[fieldId] ??= {})[key] = before[key] ?? null;
    }
  }
  return { field_options, original_field_options };
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
