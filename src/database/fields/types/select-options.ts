import { escapeLike } from '../../../core/database/dialect';
import { quote } from '../../../core/database/sql';
import { ErrorTree, validationError } from '../../../core/errors/api-error';
import { checkObject, FieldSpec } from '../../../core/validation/field';
import type { FieldEntity, SelectOptionEntity } from '../field.entity';
import { pyList } from '../../database.errors';
import { CellError, ColumnRef, FieldContext } from '../field-type';
import type { FieldRepository } from '../field.repository';

/** `select_options` of a create or update: the full list (request-only, answered by serializeExtra). */
export const SELECT_OPTIONS_SPEC: Record<string, FieldSpec> = {
  select_options: { kind: 'list', of: { kind: 'object' }, required: false },
};

const OPTION_SPECS: Record<string, FieldSpec> = {
  id: { kind: 'int', required: false },
  value: { kind: 'string', allowBlank: true, max: 255 },
  color: { kind: 'string', max: 255 },
};

export type OptionJson = { id: number; value: string; color: string };

export const optionJson = (option: SelectOptionEntity): OptionJson => ({ id: option.id, value: option.value, color: option.color });

/** Row history's `select_options`: the options the recorded cells name, by id (Baserow's shape). */
export function historySelectOptions(apiValues: unknown[]): Record<string, unknown> {
  const options: Record<string, OptionJson> = {};
  for (const value of apiValues) for (const option of [value ?? []].flat() as OptionJson[]) options[String(option.id)] = { id: option.id, value: option.value, color: option.color };
  return { select_options: options };
}

/** The field's options as the request knows them (refreshed in the context when they change). */
export function optionsOf(field: FieldEntity, ctx: FieldContext): SelectOptionEntity[] {
  return ctx.selectOptions.get(field.id) ?? [];
}

/**
 * Applies a `select_options` list: options with an id of this field are updated, the
 * others created, the missing ones deleted (their ids answered so cells can drop them).
 * The context's options are replaced (not mutated: the map may be the shared cache).
 */
export async function syncSelectOptions(
  field: FieldEntity,
  input: Record<string, unknown>,
  ctx: FieldContext,
  repo: FieldRepository,
): Promise<{ deleted: number[] }> {
  const existing = (await repo.selectOptions([field.id])).get(field.id) ?? [];
  let deleted: number[] = [];
  if (input.select_options !== undefined) {
    const given = input.select_options as Record<string, unknown>[];
    const errors: ErrorTree = {};
    const checked = given.map((item, index) => {
      const result = checkObject(OPTION_SPECS, item);
      if (Object.keys(result.errors).length) errors[String(index)] = result.errors;
      return result.values as { id?: number; value: string; color: string };
    });
    if (Object.keys(errors).length) throw validationError({ select_options: errors });
    const byId = new Map(existing.map((o) => [o.id, o]));
    const kept = new Set<number>();
    const toSave: Partial<SelectOptionEntity>[] = checked.map((item, order) => {
      const current = item.id !== undefined ? byId.get(item.id) : undefined;
      if (current && !kept.has(current.id)) {
        kept.add(current.id);
        return { id: current.id, fieldId: field.id, value: item.value, color: item.color, order };
      }
      return { fieldId: field.id, value: item.value, color: item.color, order };
    });
    deleted = existing.filter((o) => !kept.has(o.id)).map((o) => o.id);
    await repo.deleteOptions(deleted);
    await repo.saveOptions(toSave);
  }
  const fresh = (await repo.selectOptions([field.id])).get(field.id) ?? [];
  ctx.selectOptions = new Map(ctx.selectOptions).set(field.id, fresh);
  return { deleted };
}

/** The options a request value names: ids (ints or digit strings) or option values. */
export function resolveOptions(field: FieldEntity, values: unknown[], ctx: FieldContext): number[] {
  const options = optionsOf(field, ctx);
  const ids: number[] = [];
  const invalid: unknown[] = [];
  for (const value of values) {
    let option: SelectOptionEntity | undefined;
    if (typeof value === 'number' && Number.isInteger(value)) option = options.find((o) => o.id === value);
    else if (typeof value === 'string') {
      option = options.find((o) => o.value === value) ?? (/^\d+$/.test(value.trim()) ? options.find((o) => o.id === Number(value)) : undefined);
    } else throw new CellError(`The provided value '${pyList([value])}' is not a valid integer or string.`);
    if (!option) invalid.push(value);
    else if (!ids.includes(option.id)) ids.push(option.id);
  }
  if (invalid.length) {
    throw new CellError(
      invalid.length > 1
        ? `The provided select option values ${pyList(invalid)} are not valid select options.`
        : `The provided select option value '${String(invalid[0])}' is not a valid select option.`,
    );
  }
  return ids;
}

/** SQL: the value of the option an id column points at. */
export function optionValueSql(idExpression: string): string {
  return `(SELECT o."value" FROM ${quote('database_select_option')} o WHERE o."id" = ${idExpression})`;
}

/** SQL: a condition on option ids matching a search term by value. */
export function optionSearchSql(ref: ColumnRef, term: string): string {
  return ref.sql.dialect.ilike('x."value"', ref.sql.param(`%${escapeLike(term)}%`));
}
