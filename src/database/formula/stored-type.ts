import type { FieldEntity } from '../fields/field.entity';
import type { FormulaType, FormulaTypeName } from './formula-type';

/** The field types whose cells are computed from a formula (each keeps its formula type in its properties). */
export const COMPUTED_TYPES = new Set(['formula', 'lookup', 'rollup', 'count']);

/** The formatting properties a formula field answers, by result type. */
export const FORMATTING_KEYS = [
  'number_decimal_places',
  'number_prefix',
  'number_suffix',
  'number_separator',
  'date_format',
  'date_include_time',
  'date_time_format',
  'date_show_tzinfo',
  'date_force_timezone',
  'duration_format',
] as const;

/**
 * The formula type a computed field was last typed as, from its properties (`formula_type`,
 * `array_formula_type`, `error`, `nullable` and the formatting keys, as answered).
 */
export function storedFormulaType(field: FieldEntity): FormulaType {
  const p = field.properties;
  const props: Record<string, unknown> = {};
  for (const key of FORMATTING_KEYS) if (p[key] !== undefined && p[key] !== null) props[key] = p[key];
  if (p.select_options_field_id !== undefined) props.select_options_field_id = p.select_options_field_id;
  const name = (p.formula_type ?? 'invalid') as FormulaTypeName;
  if (name === 'invalid') return { name, nullable: true, props: {}, error: p.error ?? 'unknown error' };
  if (name === 'array') {
    const subProps: Record<string, unknown> = { ...props };
    return { name, nullable: true, props: {}, sub: { name: (p.array_formula_type ?? 'text') as FormulaTypeName, nullable: true, props: subProps } };
  }
  return { name, nullable: !!p.nullable, props };
}
