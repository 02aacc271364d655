import { escapeLike } from '../../../core/database/dialect';
import { quote } from '../../../core/database/sql';
import type { FieldEntity } from '../../fields/field.entity';
import { fieldColumn, RelationSource } from '../../fields/field-type';
import type { FilterContext, FilterType } from '../filter-type';

/**
 * Shared pieces of the core filter types: where a field's cells are, Baserow's value
 * parsing (Python `int()`, `Decimal()`), and SQL negation with Django's NULL semantics.
 */

/** Matches no row (Baserow's `Q(pk__in=[])` for a value the field cannot compare to). */
export const NOTHING = '1 = 0';

export const TEXT_TYPES = ['text', 'long_text', 'url', 'email', 'phone_number'];
export const DATE_TYPES = ['date', 'last_modified', 'created_on'];

/** The system column behind the types that read one; others read `field_<id>`. */
const SYSTEM_COLUMNS: Record<string, string> = {
  created_on: 'created_on',
  last_modified: 'updated_on',
  created_by: 'created_by_id',
  last_modified_by: 'last_modified_by_id',
};

/** `"alias"."field_<id>"`, or the system column of created_on, last_modified, created_by, last_modified_by. */
export function cellColumn(field: FieldEntity, ctx: FilterContext): string {
  return `${quote(ctx.alias)}.${quote(SYSTEM_COLUMNS[field.type] ?? fieldColumn(field))}`;
}

/**
 * Django's `~Q(...)`: true where the condition is not true, NULL cells included
 * (`NOT (x = 1)` alone would drop them).
 */
export function negate(condition: string | null): string | null {
  if (condition === null) return null;
  if (condition === NOTHING) return null;
  return `((${condition}) IS NOT TRUE)`;
}

export function ilikeContains(expression: string, term: string, ctx: FilterContext): string {
  return ctx.sql.dialect.ilike(expression, ctx.sql.param(`%${escapeLike(term)}%`));
}

/** Python `int(text)`: surrounding whitespace, a sign, digits with single underscores. */
export function pyInt(text: string): number | null {
  const t = text.trim();
  if (!/^[+-]?\d+(_\d+)*$/.test(t)) return null;
  const n = Number(t.replace(/_/g, ''));
  return Number.isSafeInteger(n) ? n : null;
}

/** `str.isdigit()` for ASCII: one or more digits, nothing else. */
export const isDigits = (text: string): boolean => /^\d+$/.test(text);

/** Python `Decimal(text)` of a finite value as a plain decimal string (`"1e2"` → `"100"`), else null. */
export function pyDecimal(text: string): string | null {
  const m = /^([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/.exec(text.trim().replace(/_/g, ''));
  if (!m) return null;
  const [, sign, int, fracAfter, fracOnly, exp] = m;
  const frac = fracAfter ?? fracOnly ?? '';
  let digits = (int ?? '') + frac;
  let point = (int ?? '').length + Number(exp ?? '0');
  if (Math.abs(point) > 400) return null;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits = digits + '0'.repeat(point - digits.length);
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0';
  const fraction = digits.slice(point).replace(/0+$/, '');
  const body = fraction ? `${whole}.${fraction}` : whole;
  return sign === '-' && /[1-9]/.test(body) ? `-${body}` : body;
}

/** The junction of a relation type, or an error naming the missing hook (a programming error). */
export function relationOf(field: FieldEntity, ctx: FilterContext): RelationSource {
  const source = ctx.fieldType.relationSource?.(field, { alias: ctx.alias, sql: ctx.sql, tables: ctx.tables });
  if (!source) throw new Error(`Field type ${field.type} does not implement relationSource, which its filters need.`);
  return source;
}

/** Rows with at least one relation (whose target is in `targets` when given). */
export function relationExists(field: FieldEntity, ctx: FilterContext, targets?: number[]): string {
  const source = relationOf(field, ctx);
  const j = quote(`j_${field.id}`);
  let where = `${j}.${source.rowColumn} = ${quote(ctx.alias)}."id"`;
  if (targets) where += ` AND ${j}.${source.targetColumn} IN ${ctx.sql.list(targets)}`;
  return `EXISTS (SELECT 1 FROM ${source.from} ${j} WHERE ${where})`;
}

/** Select options of a select field whose value satisfies `test`. */
export function optionIds(field: FieldEntity, ctx: FilterContext, test: (value: string) => boolean): number[] {
  // A single select formula's options are those of the field it takes them from.
  const options = ctx.selectOptions.get(field.id) ?? ctx.selectOptions.get(Number(field.properties.select_options_field_id));
  return (options ?? []).filter((o) => test(o.value ?? '')).map((o) => o.id);
}

/** PostgreSQL's `\m<word>\M` (case-insensitive) on a JS string: word characters are letters, digits and `_`. */
export function containsWordText(text: string, word: string): boolean {
  const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_]/u.test(c);
  const haystack = text.toLowerCase();
  const needle = word.toLowerCase();
  if (!needle) return false;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) {
    const end = i + needle.length;
    if (!isWord(haystack[i - 1]) && isWord(haystack[i]) && isWord(haystack[end - 1]) && !isWord(haystack[end])) return true;
  }
  return false;
}

/** A filter type compatible with a fixed list of field types. */
export abstract class FieldListFilter implements FilterType {
  abstract readonly type: string;
  protected abstract readonly fieldTypes: readonly string[];

  compatible(field: FieldEntity): boolean {
    return this.fieldTypes.includes(field.type);
  }

  abstract compile(field: FieldEntity, value: string, ctx: FilterContext): string | null;
}

/** Gives a class made by a factory a readable name (Nest names providers by class name in errors). */
export function named<T extends abstract new (...args: never[]) => unknown>(cls: T, name: string): T {
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}
