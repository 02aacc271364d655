import { ApiError } from '../../core/errors/api-error';
import type { FieldEntity } from '../../database/fields/field.entity';
import { FieldRepository } from '../../database/fields/field.repository';
import type { TableContext } from '../../database/table-context';
import { TableRepository } from '../../database/table.repository';
import { referencedId, storableId, unknownPk } from './field-reference';

/**
 * Baserow's `can_represent_date`: date, created on and last modified fields, and formulas whose
 * type is a date (calendar and timeline views are built on them).
 */
export function representsDate(field: FieldEntity): boolean {
  if (['date', 'created_on', 'last_modified'].includes(field.type)) return true;
  return field.type === 'formula' && field.properties.formula_type === 'date';
}

/** Whether the field's cells are instants (a date field only with a time; created/modified on always). */
export function storesInstants(field: FieldEntity): boolean {
  if (field.type === 'created_on' || field.type === 'last_modified') return true;
  return !!field.properties.date_include_time;
}

export const incompatibleField = (): ApiError => new ApiError('ERROR_INCOMPATIBLE_FIELD', 400, 'The provided field is not compatible.');
export const fieldNotInTable = (): ApiError => new ApiError('ERROR_FIELD_NOT_IN_TABLE', 400, 'The provided field does not belong in the related table.');

/**
 * A setting naming a date field of the view's table (calendar's `date_field`, timeline's start and
 * end): DRF looks the id up among all fields (`Invalid pk` when none, or when the field is in a
 * workspace the user is not in), then the view type refuses a field that cannot represent a date
 * (ERROR_INCOMPATIBLE_FIELD) or of another table (ERROR_FIELD_NOT_IN_TABLE). Answers the field, or
 * null when the setting is null; rewrites the value to the id.
 */
export async function checkDateField(
  values: Record<string, unknown>,
  key: string,
  context: TableContext,
  userId: number,
  lookups: { fields: FieldRepository; tables: TableRepository },
  order: 'type-first' | 'table-first',
): Promise<FieldEntity | null> {
  if (!(key in values)) return null;
  const raw = values[key];
  const id = referencedId(key, raw);
  values[key] = id;
  if (id === null) return null;
  const own = context.byId.get(id);
  if (own) {
    if (!representsDate(own)) throw incompatibleField();
    return own;
  }
  const found = storableId(id) ? await lookups.fields.findWithTable(id) : null;
  const access = found ? await lookups.tables.findAccess(found.table.id, userId) : null;
  if (!found || !access?.isMember || found.field.trashed) throw unknownPk(key, raw);
  // Calendar checks the type before the table, timeline the table first (as Baserow's view types do).
  if (order === 'type-first' && !representsDate(found.field)) throw incompatibleField();
  throw fieldNotInTable();
}
