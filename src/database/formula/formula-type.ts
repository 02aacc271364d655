/**
 * The result types of Baserow's formula language (`formula_type`), with the formatting
 * properties each carries. Arrays carry their element type in `sub` (`array_formula_type`).
 */
export type FormulaTypeName =
  | 'invalid'
  | 'text'
  | 'char'
  | 'number'
  | 'boolean'
  | 'date'
  | 'duration'
  | 'date_interval'
  | 'single_select'
  | 'multiple_select'
  | 'link'
  | 'button'
  | 'url'
  | 'array'
  | 'single_file'
  | 'multiple_collaborators';

export interface FormulaType {
  name: FormulaTypeName;
  nullable: boolean;
  /**
   * Formatting properties under their field property names: `number_decimal_places`,
   * `number_prefix`, `number_suffix`, `number_separator`, `date_format`, `date_include_time`,
   * `date_time_format`, `date_show_tzinfo`, `date_force_timezone`, `duration_format`,
   * `select_options_field_id` (single_select: the field whose options the values are).
   */
  props: Record<string, unknown>;
  /** Element type of an array. */
  sub?: FormulaType;
  /** Why an `invalid` type is invalid (Baserow's `error` text, without "Error with formula: "). */
  error?: string;
}

export const formulaTypes = {
  invalid: (error: string): FormulaType => ({ name: 'invalid', nullable: true, props: {}, error }),
  text: (nullable = false): FormulaType => ({ name: 'text', nullable, props: {} }),
  char: (nullable = false): FormulaType => ({ name: 'char', nullable, props: {} }),
  url: (nullable = false): FormulaType => ({ name: 'url', nullable, props: {} }),
  boolean: (nullable = false): FormulaType => ({ name: 'boolean', nullable, props: {} }),
  // Baserow's number formula type answers no prefix, suffix or separator ('') unless the field sets them.
  number: (decimalPlaces: number, nullable = false): FormulaType => ({ name: 'number', nullable, props: { number_decimal_places: decimalPlaces, number_prefix: '', number_suffix: '', number_separator: '' } }),
  date: (includeTime: boolean, nullable = true, props: Record<string, unknown> = {}): FormulaType => ({
    name: 'date',
    nullable,
    props: { date_format: 'ISO', date_time_format: '24', date_show_tzinfo: false, date_force_timezone: null, ...props, date_include_time: includeTime },
  }),
  duration: (format = 'h:mm', nullable = true): FormulaType => ({ name: 'duration', nullable, props: { duration_format: format } }),
  singleSelect: (optionsFieldId: number | null, nullable = true): FormulaType => ({ name: 'single_select', nullable, props: { select_options_field_id: optionsFieldId } }),
  link: (nullable = true): FormulaType => ({ name: 'link', nullable, props: {} }),
  button: (nullable = true): FormulaType => ({ name: 'button', nullable, props: {} }),
  array: (sub: FormulaType): FormulaType => ({ name: 'array', nullable: true, props: {}, sub }),
};

export const decimalPlaces = (type: FormulaType): number => Number(type.props.number_decimal_places ?? 0);
