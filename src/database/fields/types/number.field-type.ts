import { Injectable } from '@nestjs/common';
import { ColumnDefinition, escapeLike } from '../../../core/database/dialect';
import type { FieldEntity } from '../field.entity';
import { CellError, ColumnRef, fieldColumn, FieldType } from '../field-type';
import { formatDecimal, parseDecimal, quantizeDecimal } from '../values/number';
import { canContain, ColumnFieldType, columnOf } from './base';

export const NUMBER_SEPARATORS = ['', 'SPACE_COMMA', 'SPACE_PERIOD', 'COMMA_PERIOD', 'PERIOD_COMMA'] as const;

/** `number`: a decimal with 0–10 places, answered as a string quantized to them. */
@Injectable()
export class NumberFieldType extends ColumnFieldType {
  readonly type = 'number';
  readonly properties = {
    number_decimal_places: { kind: 'int', min: 0, max: 10, required: false, default: 0 },
    number_negative: { kind: 'bool', required: false, default: false },
    number_prefix: { kind: 'string', allowBlank: true, max: 10, required: false, default: '' },
    number_suffix: { kind: 'string', allowBlank: true, max: 100, required: false, default: '' },
    number_separator: { kind: 'choice', choices: NUMBER_SEPARATORS, required: false, default: '' },
    number_default: {
      kind: 'any',
      required: false,
      default: null,
      check: (value: unknown) => (parseDecimal(value, { decimalPlaces: 10, negative: true }).ok ? null : { error: 'A valid number is required.', code: 'invalid' }),
    },
  } as const;

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'decimal', scale: places(field) };
  }

  async afterSave(field: FieldEntity): Promise<FieldEntity[]> {
    // The default is kept in the field's own precision, as a string.
    const value = field.properties.number_default;
    field.properties.number_default = value === null || value === undefined || value === '' ? null : quantizeDecimal(String(value), places(field));
    return [];
  }

  prepareValue(field: FieldEntity, value: unknown): string | null {
    const result = parseDecimal(value, { decimalPlaces: places(field), negative: !!field.properties.number_negative });
    if (!result.ok) throw new CellError(result.errors);
    return result.value;
  }

  defaultValue(field: FieldEntity): string | null {
    return field.properties.number_default ?? null;
  }

  toApi(field: FieldEntity, raw: unknown): string | null {
    return formatDecimal(raw as string | number | null, places(field));
  }

  /** Exported as answered (`"1.50"`), but a number without decimal places as a JSON number, as Baserow keeps integers literal. */
  exportValue(field: FieldEntity, apiValue: unknown, rich: boolean): unknown {
    if (apiValue === null || apiValue === undefined) return null;
    const integer = rich && places(field) === 0 && /^-?\d+$/.test(String(apiValue)) ? Number(apiValue) : null;
    // Beyond 2^53 a JSON number would lose digits: those stay exact, as text.
    return integer !== null && Number.isSafeInteger(integer) ? integer : String(apiValue);
  }

  historyMetadata(field: FieldEntity): Record<string, unknown> {
    return { number_decimal_places: places(field), number_negative: !!field.properties.number_negative };
  }

  /** The cell as the API shows it (`10.50`) contains the term; on both databases alike. */
  searchCondition(field: FieldEntity, ref: ColumnRef, term: string): string | null {
    if (!canContain('decimal', term)) return null;
    const text = ref.sql.dialect.decimalText(columnOf(field, ref), places(field));
    return ref.sql.dialect.ilike(text, ref.sql.param(`%${escapeLike(term)}%`));
  }

  /** With its decimal places (`5.230`), as PostgreSQL writes the numeric column. */
  searchText(field: FieldEntity, ref: ColumnRef): string {
    return ref.sql.dialect.decimalText(columnOf(field, ref), places(field));
  }

  /**
   * A cell converted into a number as Baserow's column alteration converts it (PostgreSQL
   * `round(p_in::numeric, places)`, then `greatest(…, 0)` when negatives are not allowed): the
   * old cell's text as a number in the new precision, empty when it is not a number; without
   * negatives a negative number is 0, and so is an empty cell (GREATEST skips NULL), which a
   * formula reading the field then answers as `0.00`. Fields Baserow recreates instead of
   * altering (links, files, collaborators, passwords) leave every cell empty.
   */
  convertFrom(field: FieldEntity, apiValue: unknown, from: FieldEntity, fromType: FieldType): unknown {
    if (RECREATED_FROM.has(from.type) && from.type !== field.type) return null;
    const empty = apiValue === null || apiValue === undefined;
    const text = empty ? null : from.type === 'number' ? String(apiValue) : fromType.toText(from, apiValue);
    const value = text === null ? null : quantizeDecimal(text, places(field));
    if (field.properties.number_negative) return value;
    if (value === null) return empty ? quantizeDecimal('0', places(field)) : null;
    return value.startsWith('-') ? quantizeDecimal('0', places(field)) : value;
  }

  /** Forbidding negatives alters the column (Baserow's `force_same_type_alter_column`): see `convertFrom`. */
  needsConversion(previous: FieldEntity, field: FieldEntity): boolean {
    return previous.type === field.type && !!previous.properties.number_negative && !field.properties.number_negative;
  }
}

/** Field types Baserow converts by recreating the column (its `RecreateFieldConverter`s), not by altering it. */
const RECREATED_FROM = new Set(['link_row', 'file', 'multiple_collaborators', 'password']);

const places = (field: FieldEntity): number => Number(field.properties.number_decimal_places ?? 0);
