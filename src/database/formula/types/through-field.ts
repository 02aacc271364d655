import type { ApiError } from '../../../core/errors/api-error';
import type { FieldEntity } from '../../fields/field.entity';
import type { DatabaseFields } from '../formula.service';

/**
 * The field `<key>_field_id` / `<key>_field_name` names among `candidates`: the id when given,
 * else the name when given, else the one stored. Stores both (ids first); the error when none fits.
 */
function resolve(field: FieldEntity, key: 'through' | 'target', candidates: FieldEntity[], input: Record<string, unknown>, error: () => ApiError): FieldEntity {
  const p = field.properties;
  const idKey = `${key}_field_id`;
  const nameKey = `${key}_field_name`;
  const byName = input[nameKey] ?? (input[idKey] === undefined ? p[nameKey] : undefined);
  const found =
    input[idKey] !== undefined && input[idKey] !== null
      ? candidates.find((f) => f.id === Number(input[idKey]))
      : typeof byName === 'string'
        ? candidates.find((f) => f.name === byName)
        : candidates.find((f) => f.id === Number(p[idKey]));
  if (!found) throw error();
  p[idKey] = found.id;
  p[nameKey] = found.name;
  return found;
}

/** The link field of the field's own table a lookup, rollup or count reads through. */
export function resolveThrough(field: FieldEntity, fields: DatabaseFields, input: Record<string, unknown>, error: () => ApiError): FieldEntity {
  const links = (fields.byTable.get(field.tableId) ?? []).filter((f) => f.type === 'link_row');
  return resolve(field, 'through', links, input, error);
}

/** The field of the linked table a lookup or rollup reads. */
export function resolveTarget(field: FieldEntity, through: FieldEntity, fields: DatabaseFields, input: Record<string, unknown>, error: () => ApiError): FieldEntity {
  return resolve(field, 'target', fields.byTable.get(Number(through.properties.link_row_table_id)) ?? [], input, error);
}
