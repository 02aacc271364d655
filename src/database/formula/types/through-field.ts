import type { ApiError } from '../../../core/errors/api-error';
import type { FieldEntity } from '../../fields/field.entity';
import type { DatabaseFields } from '../formula.service';

/**
 * The link field a lookup, rollup or count reads through, and the target field in the table
 * it links to: given by id or by name (`through_field_name`, `target_field_name`); stored
 * as both, ids first. Answers the given error when they do not fit.
 */
export function resolveThrough(field: FieldEntity, fields: DatabaseFields, input: Record<string, unknown>, error: () => ApiError): FieldEntity {
  const p = field.properties;
  const own = fields.byTable.get(field.tableId) ?? [];
  const byName = input.through_field_name ?? (input.through_field_id === undefined ? p.through_field_name : undefined);
  const through =
    input.through_field_id !== undefined && input.through_field_id !== null
      ? own.find((f) => f.id === Number(input.through_field_id))
      : typeof byName === 'string'
        ? own.find((f) => f.name === byName)
        : own.find((f) => f.id === Number(p.through_field_id));
  if (!through || through.type !== 'link_row') throw error();
  p.through_field_id = through.id;
  p.through_field_name = through.name;
  return through;
}

export function resolveTarget(field: FieldEntity, through: FieldEntity, fields: DatabaseFields, input: Record<string, unknown>, error: () => ApiError): FieldEntity {
  const p = field.properties;
  const linked = fields.byTable.get(Number(through.properties.link_row_table_id)) ?? [];
  const byName = input.target_field_name ?? (input.target_field_id === undefined ? p.target_field_name : undefined);
  const target =
    input.target_field_id !== undefined && input.target_field_id !== null
      ? linked.find((f) => f.id === Number(input.target_field_id))
      : typeof byName === 'string'
        ? linked.find((f) => f.name === byName)
        : linked.find((f) => f.id === Number(p.target_field_id));
  if (!target) throw error();
  p.target_field_id = target.id;
  p.target_field_name = target.name;
  return target;
}
