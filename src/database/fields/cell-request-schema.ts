import type { FieldType } from './field-type';
import type { FieldEntity, SelectOptionEntity } from './field.entity';

type Schema = Record<string, unknown>;

/** drf-spectacular's rendering of a `DecimalField` under `COERCE_DECIMAL_TO_STRING` (Baserow's number cells). */
function decimal(field: FieldEntity): Schema {
  const places = Number(field.properties.number_decimal_places ?? 0);
  const pattern = places > 0 ? `^-?\\d{0,50}(?:\\.\\d{0,${places}})?$` : '^-?\\d{0,50}$';
  const schema: Schema = { type: 'string', format: 'decimal', pattern, nullable: true };
  if (field.properties.number_default != null) schema.default = String(field.properties.number_default);
  return schema;
}

/** Baserow's `get_select_options_help_text`: `(in format option_id=option_value): 1="A", 2="B"`. */
const optionsHelp = (options: readonly SelectOptionEntity[]): string =>
  `(in format option_id=option_value): ${options.map((o) => `${o.id}=${JSON.stringify(o.value)}`).join(', ')}`;

const nullableString: Schema = { type: 'string', nullable: true };

/**
 * The JSON schema of each writable type's cell in a row request (Baserow's `get_serializer_field`
 * of the type, rendered by drf-spectacular for the request direction), by type name.
 */
const BY_TYPE: Record<string, (field: FieldEntity, options: readonly SelectOptionEntity[]) => Schema> = {
  text: (field) => (field.properties.text_default ? { ...nullableString, default: field.properties.text_default } : { ...nullableString }),
  long_text: () => ({ ...nullableString }),
  url: () => ({ ...nullableString }),
  email: () => ({ ...nullableString }),
  phone_number: () => ({ ...nullableString, maxLength: 100 }),
  password: () => ({ ...nullableString }),
  number: decimal,
  rating: (field) => ({ type: 'integer', maximum: Number(field.properties.max_value ?? 5), minimum: 0, default: 0 }),
  boolean: (field) => ({ type: 'boolean', default: !!field.properties.boolean_default }),
  date: (field) => ({ type: 'string', format: field.properties.date_include_time ? 'date-time' : 'date', nullable: true }),
  duration: () => ({ type: 'number', format: 'double', nullable: true }),
  single_select: (field, options) => {
    const schema: Schema = { type: 'integer', nullable: true, description: `Accepts one of the following option ids as integer value ${optionsHelp(options)}.` };
    if (field.properties.single_select_default != null) schema.default = field.properties.single_select_default;
    return schema;
  },
  multiple_select: (field, options) => {
    const schema: Schema = {
      type: 'array',
      items: { type: 'integer', nullable: true, description: `Accepts multiple option ids as an array of integer values ${optionsHelp(options)}.` },
    };
    const defaults = field.properties.multiple_select_default;
    if (Array.isArray(defaults) && defaults.length) schema.default = defaults;
    return schema;
  },
  link_row: (field) => {
    const schema: Schema = {
      type: 'array',
      items: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
      description: 'The ids (or primary field values) of the rows of the linked table.',
    };
    if (field.properties.link_row_multiple_relationships === false) schema.maxItems = 1;
    return schema;
  },
  file: () => ({
    type: 'array',
    nullable: true,
    items: { type: 'object', properties: { name: { type: 'string' }, visible_name: { type: 'string' } }, required: ['name'] },
  }),
  multiple_collaborators: () => ({
    type: 'array',
    items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string', readOnly: true } }, required: ['id'] },
  }),
};

/**
 * The JSON schema of a row create/update body of a table, with user field names (Baserow's
 * `get_row_serializer_class(model, user_field_names=True)` rendered inline): one property per
 * writable field. Read-only fields (formulas, created on, uuid…) are left out, as the request
 * direction of Baserow's schema leaves them out.
 */
export function rowRequestSchema(
  fields: readonly FieldEntity[],
  typeOf: (name: string) => FieldType | undefined,
  optionsOf: (fieldId: number) => readonly SelectOptionEntity[],
): Schema {
  const properties: Record<string, Schema> = {};
  for (const field of fields) {
    const type = typeOf(field.type);
    if (!type || type.readOnly) continue;
    const build = BY_TYPE[field.type];
    const schema = type.requestSchema ? type.requestSchema(field, optionsOf(field.id)) : build?.(field, optionsOf(field.id));
    if (schema) properties[field.name] = schema;
  }
  return { type: 'object', properties };
}
