import { Injectable } from '@nestjs/common';
import type { FieldEntity } from '../../fields/field.entity';
import type { FilterContext } from '../filter-type';
import { cellColumn, containsWordText, DATE_TYPES, FieldListFilter, ilikeContains, negate, NOTHING, optionIds, relationExists, TEXT_TYPES } from './support';

/**
 * A date cell as the text it shows (`date_format` EU `31/12/2020`, US `12/31/2020`, ISO
 * `2020-12-31`, then ` 13:05` or ` 01:05PM` with a time), built from the canonical text both
 * databases give (`YYYY-MM-DD[ T]HH:MM…`), in UTC.
 */
function dateText(field: FieldEntity, ctx: FilterContext): string {
  const t = ctx.sql.dialect.castText(cellColumn(field, ctx));
  const part = (from: number, length: number) => `substr(${t}, ${from}, ${length})`;
  const [y, m, d] = [part(1, 4), part(6, 2), part(9, 2)];
  const format = field.properties.date_format ?? 'EU';
  const date =
    format === 'US' ? `${m} || '/' || ${d} || '/' || ${y}` : format === 'ISO' ? `${y} || '-' || ${m} || '-' || ${d}` : `${d} || '/' || ${m} || '/' || ${y}`;
  if (!field.properties.date_include_time) return `(${date})`;
  const minutes = part(15, 2);
  if (field.properties.date_time_format !== '12') return `(${date} || ' ' || ${part(12, 2)} || ':' || ${minutes})`;
  const hour = `CAST(${part(12, 2)} AS INTEGER)`;
  const h12 = `(CASE WHEN ${hour} % 12 = 0 THEN 12 ELSE ${hour} % 12 END)`;
  const h12Text = `(CASE WHEN ${h12} < 10 THEN '0' || CAST(${h12} AS TEXT) ELSE CAST(${h12} AS TEXT) END)`;
  return `(${date} || ' ' || ${h12Text} || ':' || ${minutes} || (CASE WHEN ${hour} < 12 THEN 'AM' ELSE 'PM' END))`;
}

/** The text a cell shows, for the contains filters of column types. */
function cellText(field: FieldEntity, ctx: FilterContext): string {
  const column = cellColumn(field, ctx);
  if (field.type === 'number') return ctx.sql.dialect.decimalText(column, Number(field.properties.number_decimal_places ?? 0));
  if (field.type === 'autonumber') return ctx.sql.dialect.castText(column);
  if (DATE_TYPES.includes(field.type)) return dateText(field, ctx);
  return column;
}

/** Select fields match through their options' values, known in memory. */
function selectCondition(field: FieldEntity, ctx: FilterContext, test: (value: string) => boolean): string {
  const ids = optionIds(field, ctx, test);
  if (!ids.length) return NOTHING;
  if (field.type === 'single_select') return `${cellColumn(field, ctx)} IN ${ctx.sql.list(ids)}`;
  return relationExists(field, ctx, ids);
}

/**
 * `contains`: the cell's text contains the (stripped) value, case-insensitively. Numbers
 * and dates match the text they show; select fields their option values. An empty value
 * matches every row.
 */
@Injectable()
export class ContainsFilter extends FieldListFilter {
  readonly type: string = 'contains';
  protected readonly fieldTypes = [...TEXT_TYPES, ...DATE_TYPES, 'single_select', 'multiple_select', 'number', 'autonumber'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const term = value.trim();
    if (term === '') return null;
    if (field.type === 'single_select' || field.type === 'multiple_select') {
      const needle = term.toLowerCase();
      return selectCondition(field, ctx, (option) => option.toLowerCase().includes(needle));
    }
    return ilikeContains(cellText(field, ctx), term, ctx);
  }
}

/** `contains_not`: the negation of `contains` (empty cells match). */
@Injectable()
export class ContainsNotFilter extends ContainsFilter {
  readonly type: string = 'contains_not';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return negate(super.compile(field, value, ctx));
  }
}

/** `contains_word`: the value appears as a whole word (PostgreSQL `\m…\M`), case-insensitively. */
@Injectable()
export class ContainsWordFilter extends FieldListFilter {
  readonly type: string = 'contains_word';
  protected readonly fieldTypes = [...TEXT_TYPES.filter((t) => t !== 'phone_number'), 'single_select', 'multiple_select'];

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const word = value.trim();
    if (word === '') return null;
    if (field.type === 'single_select' || field.type === 'multiple_select') {
      return selectCondition(field, ctx, (option) => containsWordText(option, word));
    }
    return ctx.sql.dialect.containsWord(cellColumn(field, ctx), word, (v) => ctx.sql.param(v));
  }
}

/** `doesnt_contain_word`: the negation of `contains_word`. */
@Injectable()
export class DoesntContainWordFilter extends ContainsWordFilter {
  readonly type: string = 'doesnt_contain_word';

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return negate(super.compile(field, value, ctx));
  }
}
