import { quote } from '../../../core/database/sql';
import { formulaDialect } from '../../formula/formula-dialect';
import type { ArrayRelation } from '../../formula/expr';
import type { SelectOptionEntity } from '../field.entity';
import type { ColumnRef } from '../field-type';

/**
 * SQL pieces of full-text search texts (`FieldType.searchText`), as Baserow's
 * `get_search_expression` writes them; shared by the types that read alike.
 */

/** Baserow's `get_psql_format`: the field's date format, and with a time `HH24:MI` or `HH12:MIAM`. */
export function dateTemplate(props: Record<string, unknown>): string {
  const date = { EU: 'DD/MM/YYYY', US: 'MM/DD/YYYY', ISO: 'YYYY-MM-DD' }[String(props.date_format ?? 'EU')] ?? 'DD/MM/YYYY';
  if (!props.date_include_time) return date;
  return `${date} ${props.date_time_format === '12' ? 'HH12:MIAM' : 'HH24:MI'}`;
}

/**
 * A date or datetime as text in its field's format, a datetime in `date_force_timezone` (UTC
 * when unset); `isDateTime`: the expression is a datetime (a date is shown as it is). In UTC
 * the text is cut from the canonical text both databases give (`YYYY-MM-DD[ T]HH:MM…`), which
 * SQLite does without calling a function per row.
 */
export function dateSearchText(expression: string, isDateTime: boolean, props: Record<string, unknown>, ref: ColumnRef): string {
  const zone = isDateTime && typeof props.date_force_timezone === 'string' && props.date_force_timezone && props.date_force_timezone !== 'UTC' ? props.date_force_timezone : null;
  if (zone) {
    // Bound in the order the SQL reads them on SQLite (template, then zone).
    const template = ref.sql.param(dateTemplate(props));
    return formulaDialect(ref.sql.dialect).formatDate(expression, isDateTime, template, ref.sql.param(zone));
  }
  const t = ref.sql.dialect.castText(expression);
  const part = (from: number, length: number) => `substr(${t}, ${from}, ${length})`;
  const [y, m, d] = [part(1, 4), part(6, 2), part(9, 2)];
  const format = String(props.date_format ?? 'EU');
  const date = format === 'US' ? `${m} || '/' || ${d} || '/' || ${y}` : format === 'ISO' ? `${y} || '-' || ${m} || '-' || ${d}` : `${d} || '/' || ${m} || '/' || ${y}`;
  if (!props.date_include_time) return `(${date})`;
  const minutes = part(15, 2);
  if (props.date_time_format !== '12') return `(${date} || ' ' || ${part(12, 2)} || ':' || ${minutes})`;
  const hour = `CAST(${part(12, 2)} AS INTEGER)`;
  const h12 = `(CASE WHEN ${hour} % 12 = 0 THEN 12 ELSE ${hour} % 12 END)`;
  const h12Text = `(CASE WHEN ${h12} < 10 THEN '0' || CAST(${h12} AS TEXT) ELSE CAST(${h12} AS TEXT) END)`;
  return `(${date} || ' ' || ${h12Text} || ':' || ${minutes} || (CASE WHEN ${hour} < 12 THEN 'AM' ELSE 'PM' END))`;
}

/** An integer expression as text, `0`-padded to two digits. */
const twoDigits = (n: string): string => `(CASE WHEN ${n} < 10 THEN '0' || CAST(${n} AS TEXT) ELSE CAST(${n} AS TEXT) END)`;

/**
 * Seconds as Baserow searches durations: each part of the format as its own word, joined by
 * spaces (`h:mm` 1:05 is `1 05`, `d h` is `1d 2h`, `d h mm` is `1d 2 05`), a negative one
 * with its sign first.
 */
export function durationSearchText(expression: string, format: string, ref: ColumnRef): string {
  const db = formulaDialect(ref.sql.dialect);
  const v = `abs(${expression})`;
  const whole = (divisor: number) => `CAST(floor(${v} / ${divisor}) AS BIGINT)`;
  const withDays = format.startsWith('d');
  const seconds = `(${v} - 60 * floor(${v} / 60))`;
  const parts: string[] = [];
  for (const token of format.split(/[: ]/)) {
    if (token === 'd') parts.push(`CAST(${whole(86400)} AS TEXT) || 'd'`);
    else if (token === 'h') parts.push(withDays ? `CAST(${whole(3600)} % 24 AS TEXT)${format === 'd h' ? ` || 'h'` : ''}` : `CAST(${whole(3600)} AS TEXT)`);
    else if (token === 'mm') parts.push(twoDigits(`(${whole(60)} % 60)`));
    else if (token === 'ss') parts.push(twoDigits(`CAST(round(${seconds}) AS BIGINT)`));
    else {
      const places = token.length - 3;
      const rounded = `round(CAST(${seconds} AS NUMERIC), ${places})`;
      parts.push(`(CASE WHEN ${rounded} < 10 THEN '0' ELSE '' END || ${db.numberText(rounded, places)})`);
    }
  }
  return `(CASE WHEN ${expression} IS NULL THEN NULL ELSE (CASE WHEN ${expression} < 0 THEN '-' ELSE '' END) || ${parts.join(` || ' ' || `)} END)`;
}

/** The select options of a field as the caller knows them (`ref.tables`), if it does. */
export function knownOptions(ref: ColumnRef, fieldId: number): readonly SelectOptionEntity[] | undefined {
  for (const table of ref.tables?.values() ?? []) {
    const options = table.selectOptions?.get(fieldId);
    if (options) return options;
  }
  return undefined;
}

/**
 * The value of the option an id expression points at: written out from the options known
 * (so the SQL changes when an option is renamed), read from the options table otherwise.
 */
export function optionValueText(idExpression: string, fieldId: number, ref: ColumnRef): string {
  const options = knownOptions(ref, fieldId);
  if (!options) return `(SELECT o."value" FROM ${quote('database_select_option')} o WHERE o."id" = ${idExpression})`;
  if (!options.length) return 'NULL';
  return `(CASE ${idExpression} ${options.map((o) => `WHEN ${ref.sql.param(o.id)} THEN ${ref.sql.param(o.value)}`).join(' ')} END)`;
}

/** The texts of a relation's elements joined by spaces, in the relation's order (NULL without any). */
export function joinedText(relation: ArrayRelation, element: string, alias: string, ref: ColumnRef): string {
  return formulaDialect(ref.sql.dialect).stringAgg(relation, element, `' '`, alias);
}
