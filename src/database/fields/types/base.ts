import { ColumnDefinition, ColumnKind, escapeLike } from '../../../core/database/dialect';
import type { FieldSpec } from '../../../core/validation/field';
import type { FieldEntity } from '../field.entity';
import { CellError, ColumnRef, FieldContext, FieldType, RawRow, fieldColumn } from '../field-type';
import type { ParseResult } from '../values/common';
import { parseText } from '../values/text';

/** `"alias"."field_<id>"` */
export function columnOf(field: FieldEntity, ref: ColumnRef): string {
  return `"${ref.alias}"."${fieldColumn(field)}"`;
}

/**
 * The common case: one column per field, read cell by cell. Types override what differs;
 * the defaults are those of a text-like column.
 */
export abstract class ColumnFieldType implements FieldType {
  abstract readonly type: string;
  readonly readOnly: boolean = false;
  readonly canIndex: boolean = true;
  readonly canBeUnique: boolean = false;
  readonly properties: Readonly<Record<string, FieldSpec>> = {};

  abstract column(field: FieldEntity): ColumnDefinition;
  abstract prepareValue(field: FieldEntity, value: unknown, ctx: FieldContext): unknown;

  canBePrimary(_field: FieldEntity): boolean {
    return true;
  }

  defaultValue(_field: FieldEntity, _ctx: FieldContext): unknown {
    return null;
  }

  /** One stored value to its response value. */
  toApi(_field: FieldEntity, raw: unknown, _ctx: FieldContext): unknown {
    return raw ?? null;
  }

  readValues(field: FieldEntity, rows: RawRow[], ctx: FieldContext): unknown[] {
    const column = fieldColumn(field);
    return rows.map((row) => this.toApi(field, row[column], ctx));
  }

  toText(_field: FieldEntity, apiValue: unknown): string | null {
    return apiValue == null || apiValue === '' ? null : String(apiValue);
  }

  sortExpression(field: FieldEntity, ref: ColumnRef): string | null {
    return columnOf(field, ref);
  }

  searchCondition(field: FieldEntity, ref: ColumnRef, term: string): string | null {
    if (!canContain(this.column(field).kind, term)) return null;
    return ref.sql.dialect.ilike(ref.sql.dialect.castText(columnOf(field, ref)), ref.sql.param(`%${escapeLike(term)}%`));
  }

  /** The column as text (Baserow's default `Cast(column, CharField)`). */
  searchText(field: FieldEntity, ref: ColumnRef): string | null {
    return ref.sql.dialect.castText(columnOf(field, ref));
  }
}

/** A text cell of a request as DRF's CharField reads it (trimmed; numbers as text; null stays null). */
export function requireString(value: unknown): string | null {
  const result = parseText(value);
  if (!result.ok) throw new CellError(result.errors);
  return result.value;
}

/** Column kinds whose text is made of digits and punctuation only (numbers, dates, times). */
const DIGIT_TEXT_KINDS = new Set<ColumnKind>(['decimal', 'integer', 'real', 'date', 'datetime']);

/**
 * Whether a cell of this kind can contain the search term at all: a term without a digit
 * never matches a number or a date, so search skips casting those columns (a large saving on
 * PostgreSQL, and the same answer on both databases).
 */
export function canContain(kind: ColumnKind, term: string): boolean {
  return !DIGIT_TEXT_KINDS.has(kind) || /\d/.test(term);
}

/**
 * Text cells checked by a parser (url, email, phone_number): empty cells are `""`, never
 * null. A type gives its name and its parser.
 */
export abstract class CheckedTextFieldType extends ColumnFieldType {
  readonly canBeUnique: boolean = true;
  protected abstract parse(value: unknown): ParseResult<string>;

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'text' };
  }

  prepareValue(_field: FieldEntity, value: unknown): string {
    const result = this.parse(value);
    if (!result.ok) throw new CellError(result.errors);
    return result.value;
  }

  defaultValue(): string {
    return '';
  }

  toApi(_field: FieldEntity, raw: unknown): string {
    return raw == null ? '' : String(raw);
  }
}
