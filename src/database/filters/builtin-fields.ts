import { FieldEntity } from '../fields/field.entity';
import { DATE_PROPERTIES } from '../fields/types/date.field-type';

/**
 * The row's own timestamps as filterable fields: `filter__field_created_on__<type>` and
 * `filter__field_updated_on__<type>` filter on the `created_on` / `updated_on` columns every
 * user table has, even when the table has no created_on or last_modified field (Baserow's
 * `filter_by_fields_object`; Zapier's triggers rely on it). Each name stands for an unsaved
 * field of that type with the default date properties, so the same filter types compile it.
 */
const BUILTIN_TYPES: Readonly<Record<string, string>> = {
  field_created_on: 'created_on',
  field_updated_on: 'last_modified',
};

function virtualField(name: string, type: string): FieldEntity {
  const field = new FieldEntity();
  Object.assign(field, {
    id: 0,
    tableId: 0,
    name,
    order: 0,
    type,
    primary: false,
    description: null,
    dbIndex: false,
    fieldConstraints: [],
    properties: Object.fromEntries(Object.entries(DATE_PROPERTIES).map(([key, spec]) => [key, spec.default])),
    trashed: false,
  });
  return Object.freeze(field);
}

const BUILTIN_FIELDS: ReadonlyMap<string, FieldEntity> = new Map(Object.entries(BUILTIN_TYPES).map(([name, type]) => [name, virtualField(name, type)]));

/** The built-in field a `filter__<name>__<type>` parameter names, if any. */
export function builtinFilterField(name: string): FieldEntity | undefined {
  return BUILTIN_FIELDS.get(name);
}
