import type { FieldDocument } from '../../database/serialization/database-document';
import { ArchiveRefused } from '../import-export.errors';

/** A field as Baserow's `FieldType.export_serialized` writes it (base keys, then the type's model fields). */
export type BaserowField = Record<string, unknown> & { id: number; type: string; name: string };

const FORMULA_RESULT = [
  'number_decimal_places',
  'number_prefix',
  'number_suffix',
  'number_separator',
  'duration_format',
  'date_format',
  'date_include_time',
  'date_time_format',
  'date_show_tzinfo',
  'date_force_timezone',
  'array_formula_type',
  'nullable',
];
const DATE = ['date_format', 'date_include_time', 'date_time_format', 'date_show_tzinfo', 'date_force_timezone'];

/**
 * The model fields Baserow 1.35.3 exports for each field type (its `allowed_fields`, or the
 * keys of its own `export_serialized`): exactly these, as Baserow's import builds the field
 * model from every key it is given. Rowspace stores the same keys in a field's properties.
 */
export const BASEROW_FIELD_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ['text_default'],
  long_text: ['long_text_enable_rich_text'],
  url: [],
  email: [],
  phone_number: [],
  number: ['number_decimal_places', 'number_negative', 'number_prefix', 'number_suffix', 'number_separator', 'number_default'],
  rating: ['max_value', 'color', 'style'],
  boolean: ['boolean_default'],
  date: DATE,
  last_modified: DATE,
  created_on: DATE,
  last_modified_by: [],
  created_by: [],
  duration: ['duration_format'],
  link_row: ['link_row_table_id', 'link_row_related_field_id', 'link_row_limit_selection_view_id', 'has_related_field', 'link_row_multiple_relationships'],
  file: [],
  single_select: ['single_select_default'],
  multiple_select: ['multiple_select_default'],
  formula: [...FORMULA_RESULT, 'formula', 'formula_type'],
  count: [...FORMULA_RESULT, 'through_field_id'],
  rollup: [...FORMULA_RESULT, 'through_field_id', 'target_field_id', 'rollup_function'],
  lookup: [...FORMULA_RESULT, 'through_field_id', 'through_field_name', 'target_field_id', 'target_field_name'],
  multiple_collaborators: ['notify_user_when_added'],
  uuid: [],
  autonumber: [],
  password: ['allow_endpoint_authentication'],
};

const SELECT_TYPES = new Set(['single_select', 'multiple_select']);
const COMPUTED_TYPES = new Set(['formula', 'count', 'rollup', 'lookup', 'created_on', 'last_modified', 'created_by', 'last_modified_by', 'uuid', 'autonumber']);

/** Rowspace's field document as Baserow's serialized field. */
export function toBaserowField(doc: FieldDocument): BaserowField {
  const keys = BASEROW_FIELD_KEYS[doc.type];
  if (!keys) throw new Error(`The field type ${doc.type} has no Baserow export form.`);
  const p = doc.properties ?? {};
  const field: BaserowField = {
    id: doc.id,
    type: doc.type,
    name: doc.name,
    description: doc.description ?? null,
    order: doc.order,
    primary: doc.primary,
    read_only: COMPUTED_TYPES.has(doc.type),
    db_index: doc.db_index ?? false,
    immutable_type: false,
    immutable_properties: false,
    field_constraints: (doc.field_constraints ?? []).map((c) => ({ type_name: c.type_name })),
  };
  for (const key of keys) {
    if (doc.type === 'link_row' && key === 'link_row_related_field_id') field[key] = p.related_field_id ?? null;
    else if (doc.type === 'link_row' && key === 'has_related_field') field[key] = p.related_field_id != null;
    else if (key in p) field[key] = p[key];
  }
  if (SELECT_TYPES.has(doc.type)) field.select_options = (doc.select_options ?? []).map((o, order) => ({ id: o.id, value: o.value, color: o.color, order }));
  return field;
}

/**
 * Baserow's serialized fields of one database as Rowspace's field documents: the type's keys
 * become its properties; a link gets the side its pair is created from (the lower id) and
 * count, rollup and lookup fields the names of their through and target fields, which an
 * import finds them by. An unknown type refuses the archive.
 */
export function fromBaserowFields(tables: { id: number; fields: BaserowField[] }[]): Map<number, FieldDocument[]> {
  const byId = new Map<number, BaserowField>();
  for (const table of tables) for (const field of table.fields) byId.set(field.id, field);
  const result = new Map<number, FieldDocument[]>();
  for (const table of tables) {
    result.set(
      table.id,
      table.fields.map((field) => {
        const keys = BASEROW_FIELD_KEYS[field.type];
        if (!keys) throw new ArchiveRefused('invalid', `The field type ${JSON.stringify(field.type)} of field ${field.id} is not supported.`);
        const properties: Record<string, unknown> = {};
        for (const key of keys) if (field[key] !== undefined && key !== 'link_row_related_field_id') properties[key] = field[key];
        if (field.type === 'link_row') {
          const related = field.link_row_related_field_id == null ? null : Number(field.link_row_related_field_id);
          properties.related_field_id = related;
          properties.has_related_field = related !== null && byId.has(related);
          properties.side = related !== null && byId.has(related) && related < field.id ? 'b' : 'a';
        }
        if (field.through_field_id != null) properties.through_field_name = byId.get(Number(field.through_field_id))?.name ?? properties.through_field_name ?? null;
        if (field.target_field_id != null) properties.target_field_name = byId.get(Number(field.target_field_id))?.name ?? properties.target_field_name ?? null;
        const doc: FieldDocument = {
          id: field.id,
          name: String(field.name),
          type: field.type,
          primary: field.primary === true,
          order: Number.isInteger(field.order) ? (field.order as number) : 0,
          description: typeof field.description === 'string' ? field.description : null,
          db_index: field.db_index === true,
          field_constraints: Array.isArray(field.field_constraints) ? (field.field_constraints as { type_name: unknown }[]).filter((c) => typeof c?.type_name === 'string').map((c) => ({ type_name: String(c.type_name) })) : [],
          properties,
        };
        if (SELECT_TYPES.has(field.type)) {
          const options = Array.isArray(field.select_options) ? (field.select_options as Record<string, unknown>[]) : [];
          doc.select_options = options
            .filter((o) => o && Number.isInteger(o.id))
            .sort((a, b) => Number(a.order ?? 0) - Number(b.order ?? 0) || Number(a.id) - Number(b.id))
            .map((o) => ({ id: Number(o.id), value: String(o.value ?? ''), color: String(o.color ?? 'blue') }));
        }
        // Computed fields read the fields named in them: the import orders them by their through and target fields.
        if (['count', 'rollup', 'lookup'].includes(field.type)) doc.reads = [field.through_field_id, field.target_field_id].filter((id) => id != null).map(Number);
        return doc;
      }),
    );
  }
  return result;
}
