import { Injectable } from '@nestjs/common';
import { OperationType, TableOperations as T } from '../../permissions';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { ErrorTree, validationError } from '../../core/errors/api-error';
import { bodyObjectError, checkObject, checkValue, FieldSpec } from '../../core/validation/field';
import { TrashService } from '../../trash/trash.service';
import type { UserEntity } from '../../users/user.entity';
import { DatabaseErrors } from '../database.errors';
import { RowRepository } from '../rows/row.repository';
import { TableSchemaRepository } from '../rows/table-schema.repository';
import { TableContext, TableContextService } from '../table-context';
import { TableRepository } from '../table.repository';
import { FieldEntity } from './field.entity';
import { CellError, FieldContext, FieldType, FieldTypeRegistry, fieldColumn } from './field-type';
import { FieldRepository } from './field.repository';
import { ActionLog } from '../../actions/action-log';
import { ActionScopes } from '../../actions/action-type';
import { restorableCell } from './field-actions';

export const MAX_FIELDS_PER_TABLE = 600;
const RESERVED_NAMES = new Set(['id', 'order']);

/** The keys every field type takes. */
export const COMMON_SPECS: Record<string, FieldSpec> = {
  name: { kind: 'string', max: 255 },
  description: { kind: 'string', allowBlank: true, nullable: true, required: false },
  db_index: { kind: 'bool', required: false },
  field_constraints: { kind: 'list', of: { kind: 'object' }, required: false },
};

export type FieldJson = Record<string, unknown>;

/** A field and the fields of any table that changed with it (`related_fields`). */
export interface FieldChange {
  field: FieldEntity;
  related: FieldEntity[];
}

/**
 * Run inside a field's unit of work after its type changed or it went to the trash: the views
 * module drops or rewrites what the field can no longer carry (filters, sorts, settings...).
 */
export type FieldChangeHook = (field: FieldEntity, change: 'type_changed' | 'trashed') => Promise<void>;

/**
 * Run inside a field's unit of work after fields were created, changed (`previous` is the
 * field before), trashed or restored: the formula module types again what reads them.
 * Answers the other fields it changed (`related`: they join `related_fields`), and those of
 * them whose cells changed type (`retyped`: a formula's result type).
 */
export type FieldsChangedHook = (change: {
  databaseId: number;
  fields: { field: FieldEntity; previous?: FieldEntity | null }[];
  kind: 'created' | 'updated' | 'trashed' | 'restored';
}) => Promise<{ related: FieldEntity[]; retyped: FieldEntity[] }>;

/**
 * The rules of fields: names, types and their properties, storage (the `field_<id>`
 * column, or a type's own tables), type conversions of existing cells, the primary field.
 */
@Injectable()
export class FieldsService {
  private readonly changeHooks: FieldChangeHook[] = [];
  private readonly changedHooks: FieldsChangedHook[] = [];

  constructor(
    private readonly db: UnitOfWork,
    private readonly repo: FieldRepository,
    private readonly tables: TableRepository,
    private readonly contexts: TableContextService,
    private readonly schema: TableSchemaRepository,
    private readonly rows: RowRepository,
    private readonly trash: TrashService,
    readonly types: FieldTypeRegistry,
    private readonly actions: ActionLog,
  ) {}

  /** Records a field action of the table (scope `table<id>`). */
  recordAction(type: string, context: Pick<TableContext, 'table' | 'workspaceId'>, params: Record<string, unknown>): void {
    this.actions.record(type, { tableId: context.table.id, ...params }, { scope: ActionScopes.table(context.table.id), workspaceId: context.workspaceId });
  }

  /** Modules that keep things about fields (views) register here; this module does not depend on them. */
  onFieldChange(hook: FieldChangeHook): void {
    this.changeHooks.push(hook);
  }

  private async fieldChanged(field: FieldEntity, change: 'type_changed' | 'trashed'): Promise<void> {
    for (const hook of this.changeHooks) await hook(field, change);
  }

  /** The formula module registers here to follow every field change (computed fields that read them). */
  onFieldsChanged(hook: FieldsChangedHook): void {
    this.changedHooks.push(hook);
  }

  private async fieldsChanged(...args: Parameters<FieldsChangedHook>): Promise<FieldEntity[]> {
    const related: FieldEntity[] = [];
    for (const hook of this.changedHooks) {
      const answer = await hook(...args);
      related.push(...answer.related);
      // Their views drop what the new result type cannot carry, as after a type change.
      for (const field of answer.retyped) await this.fieldChanged(field, 'type_changed');
    }
    return related;
  }

  /**
   * Fields trashed along with something else (the link fields of other tables pointing at a
   * trashed table), inside its unit of work: what reads them is typed again. Answers the
   * fields that changed (`related_fields` of their `field_deleted`).
   */
  trashedWith(databaseId: number, fields: FieldEntity[]): Promise<FieldEntity[]> {
    return this.fieldsChanged({ databaseId, fields: fields.map((field) => ({ field })), kind: 'trashed' });
  }

  // ------------------------------------------------------------------ serialization

  /** The field JSON: common keys, the type's properties and extras, then ids of its table. */
  async serialize(field: FieldEntity, context: Pick<TableContext, 'table' | 'workspaceId' | 'selectOptions'>): Promise<FieldJson> {
    const type = this.types.of(field);
    const ctx = this.contexts.fieldContext(context, null);
    const properties: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(type.properties)) properties[key] = field.properties[key] ?? spec.default ?? null;
    return {
      id: field.id,
      table_id: field.tableId,
      name: field.name,
      order: field.order,
      type: field.type,
      primary: field.primary,
      read_only: type.readOnly,
      description: field.description,
      db_index: field.dbIndex,
      field_constraints: field.fieldConstraints,
      ...properties,
      ...(type.serializeExtra ? await type.serializeExtra(field, ctx) : {}),
      immutable_properties: false,
      immutable_type: false,
      database_id: context.table.databaseId,
      workspace_id: context.workspaceId,
    };
  }

  /** Serializes fields that may belong to other tables (related fields). */
  async serializeMany(fields: FieldEntity[]): Promise<FieldJson[]> {
    const result: FieldJson[] = [];
    for (const field of fields) {
      const context = await this.contexts.ofTable(field.tableId);
      if (!context) continue;
      result.push(await this.serialize(context.byId.get(field.id) ?? field, context));
    }
    return result;
  }

  async list(user: UserEntity, tableId: number): Promise<FieldJson[]> {
    const context = await this.contexts.require(tableId, user.id, T.listFields);
    return Promise.all(context.fields.map((field) => this.serialize(field, context)));
  }

  /** A live field of a live table, when the user may do `operation` on it. */
  async require(user: UserEntity, fieldId: number, operation: OperationType): Promise<{ field: FieldEntity; context: TableContext }> {
    const found = await this.repo.findWithTable(fieldId);
    if (!found) throw DatabaseErrors.fieldDoesNotExist();
    const context = await this.contexts.require(found.table.id, user.id, operation);
    const field = context.byId.get(fieldId);
    if (!field) throw DatabaseErrors.fieldDoesNotExist();
    return { field, context };
  }

  /** The field as the API shows it, when the user may do `operation` on it (reading it, unless a caller checks more). */
  async get(user: UserEntity, fieldId: number, operation: OperationType = T.readField): Promise<FieldJson> {
    const { field, context } = await this.require(user, fieldId, operation);
    return this.serialize(field, context);
  }

  // ------------------------------------------------------------------ create

  async create(user: UserEntity, tableId: number, body: unknown): Promise<FieldJson> {
    const change = await this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id, T.createField);
      const { common, type, properties, input } = this.validate(body, null);
      const change = await this.createField(context, user.id, { ...common, type: type.type, properties, input });
      this.recordAction('create_field', context, { fieldId: change.field.id });
      return change;
    });
    return this.withRelated(change);
  }

  /**
   * Creates a field in a table (the table's checks are done): name rules, the field row,
   * its storage and index, and the defaults of existing rows.
   */
  async createField(
    context: TableContext,
    userId: number | null,
    spec: { name: string; type: string; properties?: Record<string, unknown>; input?: Record<string, unknown>; primary?: boolean; description?: string | null; dbIndex?: boolean; fieldConstraints?: { type_name: string }[] },
  ): Promise<FieldChange> {
    const type = this.types.get(spec.type);
    if (!type) throw validationError({ type: [{ error: `"${spec.type}" is not a valid choice.`, code: 'invalid_choice' }] });
    this.checkName(context, spec.name, null);
    if (context.fields.length >= MAX_FIELDS_PER_TABLE) throw DatabaseErrors.maxFieldCountExceeded();
    if (spec.dbIndex && !type.canIndex) throw DatabaseErrors.dbIndexNotSupported(type.type);
    const field = await this.repo.create({
      tableId: context.table.id,
      name: spec.name,
      type: type.type,
      primary: spec.primary ?? false,
      order: (await this.repo.maxOrder(context.table.id)) + 1,
      description: spec.description ?? null,
      dbIndex: spec.dbIndex ?? false,
      fieldConstraints: spec.fieldConstraints ?? [],
      properties: spec.properties ?? this.defaults(type),
    });
    if (field.primary && !type.canBePrimary(field)) throw DatabaseErrors.incompatiblePrimaryFieldType(type.type);
    const ctx = this.contexts.fieldContext(context, userId);
    const related = (await type.afterSave?.(field, spec.input ?? {}, ctx, null)) ?? [];
    await this.repo.save(field);
    await this.createStorage(field, type, ctx);
    related.push(...(await this.fieldsChanged({ databaseId: context.table.databaseId, fields: [{ field }], kind: 'created' })));
    await this.tables.bump(context.table.id, 'fields_version');
    this.db.record('field.created', { fieldId: field.id, tableId: field.tableId, relatedFieldIds: related.map((f) => f.id) });
    return { field, related };
  }

  private async createStorage(field: FieldEntity, type: FieldType, ctx: FieldContext): Promise<void> {
    const column = type.column(field);
    if (column) {
      await this.schema.addColumn(field.tableId, column);
      const value = type.defaultValue(field, ctx);
      if (value !== null && value !== undefined) await this.rows.fillColumn(field.tableId, column.name, value);
      if (field.dbIndex) await this.schema.createIndexes(field.tableId, column.name);
    }
    await type.createStorage?.(field, ctx);
  }

  private async dropStorage(field: FieldEntity, type: FieldType, ctx: FieldContext): Promise<void> {
    if (type.column(field)) await this.schema.dropColumn(field.tableId, fieldColumn(field));
    await type.dropStorage?.(field, ctx);
  }

  // ------------------------------------------------------------------ update

  async update(user: UserEntity, fieldId: number, body: unknown): Promise<FieldJson> {
    return this.withRelated(await this.updateField(user, fieldId, body));
  }

  /**
   * A field update; `restoreCells` (an undo of a conversion): the cells as they were before it,
   * by row id, written instead of converted ones.
   */
  async updateField(user: UserEntity, fieldId: number, body: unknown, restoreCells?: Record<string, unknown>): Promise<FieldChange> {
    return this.db.run(async () => {
      const { field: current, context } = await this.require(user, fieldId, T.updateField);
      const before = await this.serialize(current, context);
      const previous = structuredClone(current);
      const { common, type, properties, input } = this.validate(body, current);
      const field: FieldEntity = Object.assign(new FieldEntity(), structuredClone(current));
      if (common.name !== undefined && common.name !== field.name) {
        this.checkName(context, common.name, field.id);
        field.name = common.name;
      }
      if (common.description !== undefined) field.description = common.description;
      if (common.fieldConstraints !== undefined) field.fieldConstraints = common.fieldConstraints;
      const typeChanged = type.type !== current.type;
      field.type = type.type;
      field.properties = typeChanged ? properties : { ...current.properties, ...properties };
      if (field.primary && !type.canBePrimary(field)) throw DatabaseErrors.incompatiblePrimaryFieldType(type.type);
      const dbIndex = common.dbIndex ?? (typeChanged && !type.canIndex ? false : current.dbIndex);
      if (dbIndex && !type.canIndex) throw DatabaseErrors.dbIndexNotSupported(type.type);
      field.dbIndex = dbIndex;
      await this.repo.save(field);
      const ctx = this.contexts.fieldContext(context, user.id);
      const oldType = this.types.of(previous);
      const related = [...((await type.afterSave?.(field, input, ctx, previous)) ?? [])];
      await this.repo.save(field);
      const cells = await this.convert(previous, oldType, field, type, ctx, restoreCells);
      if (typeChanged) await this.fieldChanged(field, 'type_changed');
      related.push(...(await this.fieldsChanged({ databaseId: context.table.databaseId, fields: [{ field, previous }], kind: 'updated' })));
      await this.tables.bump(context.table.id, 'fields_version');
      this.db.record('field.updated', { fieldId: field.id, tableId: field.tableId, relatedFieldIds: related.map((f) => f.id) });
      this.recordAction('update_field', context, { fieldId, before, body, cells });
      return { field, related };
    });
  }

  /**
   * Changes a field's storage when its type or column changed, keeping what can be kept:
   * each cell is read as the old type answers it and written through the new type (its
   * `convertFrom`, else the old cell's text); what the new type refuses becomes empty.
   */
  private async convert(
    previous: FieldEntity,
    oldType: FieldType,
    field: FieldEntity,
    type: FieldType,
    ctx: FieldContext,
    restoreCells?: Record<string, unknown>,
  ): Promise<Record<string, unknown> | null> {
    const oldColumn = oldType.column(previous);
    const newColumn = type.column(field);
    const sameStorage =
      previous.type === field.type && JSON.stringify(oldColumn) === JSON.stringify(newColumn) && !type.needsConversion?.(previous, field);
    if (sameStorage) {
      if (newColumn && previous.dbIndex !== field.dbIndex) {
        if (field.dbIndex) await this.schema.createIndexes(field.tableId, newColumn.name);
        else await this.schema.dropIndexes(field.tableId, newColumn.name);
      }
      return null;
    }
    const converted: { id: number; value: unknown }[] = [];
    // The old cells as a request would write them again: what an undo of the conversion restores.
    const backup: Record<string, unknown> = {};
    for await (const batch of this.rows.scan(field.tableId)) {
      const values = await oldType.readValues(previous, batch, ctx);
      for (let i = 0; i < batch.length; i++) {
        const id = batch[i].id;
        const kept = restorableCell(previous, oldType, values[i]);
        if (kept !== null) backup[String(id)] = kept;
        // Computed cells are not converted from the old ones: the new column is computed (createStorage).
        if (type.computed) continue;
        const value = restoreCells && String(id) in restoreCells ? await this.restoredValue(restoreCells[String(id)], field, type, ctx) : await this.convertValue(values[i], previous, oldType, field, type, ctx);
        converted.push({ id, value });
      }
    }
    await this.dropStorage(previous, oldType, ctx);
    const column = type.column(field);
    if (column) {
      await this.schema.addColumn(field.tableId, column);
      await this.rows.setColumn(field.tableId, column, converted.filter((c) => c.value !== null && c.value !== undefined));
      if (field.dbIndex) await this.schema.createIndexes(field.tableId, column.name);
    }
    await type.createStorage?.(field, ctx);
    await type.writeRelations?.(field, converted, ctx);
    return backup;
  }

  private async restoredValue(value: unknown, field: FieldEntity, type: FieldType, ctx: FieldContext): Promise<unknown> {
    try {
      return await type.prepareValue(field, value, ctx);
    } catch (error) {
      if (error instanceof CellError) return null;
      throw error;
    }
  }

  private async convertValue(value: unknown, from: FieldEntity, fromType: FieldType, field: FieldEntity, type: FieldType, ctx: FieldContext): Promise<unknown> {
    try {
      const custom = type.convertFrom?.(field, value, from, fromType);
      if (custom !== undefined) return await type.prepareValue(field, custom, ctx);
      if (from.type === field.type) return await type.prepareValue(field, value, ctx);
      return await type.prepareValue(field, fromType.toText(from, value), ctx);
    } catch (error) {
      if (error instanceof CellError) return null;
      throw error;
    }
  }

  // ------------------------------------------------------------------ delete

  /** Moves the field to the trash (its storage stays for a restore); answers the related fields. */
  async delete(user: UserEntity, fieldId: number): Promise<FieldJson[]> {
    const related = await this.db.run(async () => {
      const { field, context } = await this.require(user, fieldId, T.deleteField);
      if (field.primary) throw DatabaseErrors.cannotDeletePrimaryField();
      const type = this.types.of(field);
      const relatedFields = [...((await type.beforeDelete?.(field, this.contexts.fieldContext(context, user.id))) ?? [])];
      await this.trash.trashItem(FieldEntity, user, {
        type: 'field',
        itemId: field.id,
        workspaceId: context.workspaceId,
        applicationId: context.table.databaseId,
        name: field.name,
        parentName: context.table.name,
        relatedItems: relatedFields.length ? { field: relatedFields.map((f) => f.id) } : {},
      });
      await this.fieldChanged(field, 'trashed');
      relatedFields.push(...(await this.fieldsChanged({ databaseId: context.table.databaseId, fields: [field, ...relatedFields].map((f) => ({ field: f })), kind: 'trashed' })));
      await this.tables.bump(context.table.id, 'fields_version');
      this.db.record('field.deleted', { fieldId: field.id, tableId: field.tableId, relatedFieldIds: relatedFields.map((f) => f.id) });
      this.recordAction('delete_field', context, { fieldId: field.id });
      return relatedFields;
    });
    return this.serializeMany(related);
  }

  /**
   * Brings a trashed field back with the fields trashed with it (a link's related field),
   * as Baserow's `restore_field`: a name taken meanwhile becomes "<name> (Restored)".
   */
  async restore(fieldId: number, relatedIds: number[]): Promise<void> {
    await this.db.run(async () => {
      const field = await this.repo.findAny(fieldId);
      if (!field?.trashed) throw new Error(`Field ${fieldId} is not in the trash.`);
      const type = this.types.of(field);
      await type.beforeRestore?.(field);
      const restored: FieldEntity[] = [];
      for (const candidate of [field, ...(await Promise.all(relatedIds.map((id) => this.repo.findAny(id))))]) {
        if (!candidate?.trashed || !(await this.tables.findAccess(candidate.tableId, 0))) continue;
        const live = await this.repo.ofTable(candidate.tableId);
        candidate.name = nextFreeName(live.map((f) => f.name), candidate.name);
        candidate.trashed = false;
        await this.repo.save(candidate);
        await this.tables.bump(candidate.tableId, 'fields_version');
        restored.push(candidate);
      }
      const table = await this.tables.findAny(field.tableId);
      const recomputed = table ? await this.fieldsChanged({ databaseId: table.databaseId, fields: restored.map((f) => ({ field: f })), kind: 'restored' }) : [];
      const relatedFieldIds = [...restored.slice(1), ...recomputed].map((f) => f.id);
      this.db.recordAsSystem('field.restored', { fieldId, tableId: field.tableId, relatedFieldIds });
    });
  }

  /** A trashed field deleted for good: its column or other storage, then its metadata. */
  async deleteForGood(field: FieldEntity): Promise<void> {
    const table = await this.tables.findAny(field.tableId);
    if (!table) return;
    await this.dropStorage(field, this.types.of(field), this.contexts.fieldContext({ table, selectOptions: new Map() }, null));
    await this.repo.delete(field.id);
  }

  // ------------------------------------------------------------------ primary field

  async changePrimary(user: UserEntity, tableId: number, newPrimaryId: number): Promise<FieldJson> {
    const change = await this.db.run(async () => {
      const context = await this.contexts.require(tableId, user.id, T.updateField);
      const field = context.byId.get(newPrimaryId);
      if (!field) {
        if (await this.repo.findLive(newPrimaryId)) throw DatabaseErrors.fieldNotInTable();
        throw DatabaseErrors.fieldDoesNotExist();
      }
      if (field.primary) throw DatabaseErrors.fieldIsAlreadyPrimary();
      const type = this.types.of(field);
      if (!type.canBePrimary(field)) throw DatabaseErrors.incompatiblePrimaryFieldType(type.type);
      const old = context.fields.find((f) => f.primary);
      if (old) await this.repo.save({ ...old, primary: false });
      await this.repo.save({ ...field, primary: true });
      await this.tables.bump(tableId, 'fields_version');
      this.db.record('field.updated', { fieldId: field.id, tableId, relatedFieldIds: old ? [old.id] : [] });
      this.recordAction('change_primary_field', context, { fieldId: field.id, oldPrimaryFieldId: old?.id ?? null });
      return { field: { ...field, primary: true }, related: old ? [{ ...old, primary: false }] : [] };
    });
    return this.withRelated(change);
  }

  // ------------------------------------------------------------------ helpers

  /** The field JSON plus `related_fields`, read after the commit. */
  /** The field JSON with `related_fields` (Baserow's FieldSerializerWithRelatedFields). */
  async withRelated(change: FieldChange): Promise<FieldJson> {
    const [json] = await this.serializeMany([change.field]);
    return { ...json, related_fields: await this.serializeMany(change.related) };
  }

  /** The stored properties of a new field of the type when none are given. */
  defaults(type: FieldType): Record<string, unknown> {
    return checkObject(type.properties, {}).values;
  }

  /** Field-name rules of Baserow: not blank, not `id`/`order`, unique in the table, ≤ 255. */
  checkName(context: Pick<TableContext, 'fields'>, name: string, exceptFieldId: number | null): void {
    if (!name.trim()) throw DatabaseErrors.invalidFieldName();
    if (name.length > 255) throw DatabaseErrors.maxFieldNameLength();
    if (RESERVED_NAMES.has(name)) throw DatabaseErrors.reservedFieldName();
    if (context.fields.some((f) => f.name === name && f.id !== exceptFieldId)) throw DatabaseErrors.fieldNameTaken();
  }

  /**
   * Validates a create (current null) or update body: the common keys, then the type's
   * properties (all of them with defaults on create or type change, the given ones otherwise).
   */
  private validate(input: unknown, current: FieldEntity | null) {
    const notAnObject = bodyObjectError(input);
    if (notAnObject) throw validationError(notAnObject);
    const body = (input ?? {}) as Record<string, unknown>;
    const errors: ErrorTree = {};
    const commonSpecs = current ? Object.fromEntries(Object.entries(COMMON_SPECS).map(([k, s]) => [k, { ...s, required: false }])) : COMMON_SPECS;
    const common = checkObject(commonSpecs, body, { partial: current !== null });
    Object.assign(errors, common.errors);
    let typeName = current?.type;
    if (!current || body.type !== undefined) {
      const checked = body.type === undefined ? null : checkValue({ kind: 'choice', choices: this.types.names() }, body.type);
      if (!checked) errors.type = [{ error: 'This field is required.', code: 'required' }];
      else if ('error' in checked) errors.type = checked.error;
      else typeName = String(checked.value);
    }
    if (Object.keys(errors).length) throw validationError(errors);
    const type = this.types.get(typeName!)!;
    const typeChanged = !current || current.type !== type.type;
    const props = checkObject(type.properties, body, { partial: !typeChanged });
    const writeOnly = checkObject(type.writeOnlyProperties ?? {}, body, { partial: true });
    Object.assign(errors, props.errors, writeOnly.errors);
    if (Object.keys(errors).length) throw validationError(errors);
    const values = common.values;
    return {
      common: {
        name: values.name as string,
        description: values.description as string | null | undefined,
        dbIndex: values.db_index as boolean | undefined,
        fieldConstraints: values.field_constraints as { type_name: string }[] | undefined,
      },
      type,
      properties: props.values,
      input: { ...body, ...props.values, ...writeOnly.values },
    };
  }
}

/** Baserow's `find_next_unused_field_name([name, "<name> (Restored)"])`: the name, else the restored name, numbered when needed. */
function nextFreeName(taken: string[], name: string): string {
  const names = new Set(taken);
  if (!names.has(name)) return name;
  const restored = `${name} (Restored)`;
  if (!names.has(restored)) return restored;
  for (let n = 2; ; n++) if (!names.has(`${restored} ${n}`)) return `${restored} ${n}`;
}
