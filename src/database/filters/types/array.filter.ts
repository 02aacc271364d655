import { Injectable } from '@nestjs/common';
import { quote } from '../../../core/database/sql';
import type { FieldEntity } from '../../fields/field.entity';
import { fieldColumn } from '../../fields/field-type';
import { formulaDialect, FormulaDialect } from '../../formula/formula-dialect';
import type { FormulaType, FormulaTypeName } from '../../formula/formula-type';
import { COMPUTED_TYPES, storedFormulaType } from '../../formula/stored-type';
import { DateInterval, localDateString, MultiStepDateFilterType, resolveDateFilter, startOfDayInTimeZone } from '../date-filter-value';
import type { FilterContext, FilterType } from '../filter-type';
import { equalValue } from './equal.filter';
import { ilikeContains, named, negate, NOTHING, pyDecimal, pyInt } from './support';

/**
 * Baserow's array filters (`has_value_equal`, `has_date_before`, …): conditions on the items
 * of a formula array (a lookup field, an array formula), stored as the JSON cell
 * `[{"id": <source row id>, "value": <value>}, …]`. A row matches when one of its items
 * does: `EXISTS (SELECT 1 FROM <items> WHERE <item condition>)`; the `has_not_` forms are
 * the negation (an empty or NULL array matches them). Each filter applies to arrays of the
 * element types Baserow lists for it.
 */

const TEXT_ITEMS: readonly FormulaTypeName[] = ['text', 'char', 'url'];

/** The element type of a computed field's array result, or null when it is not an array. */
function arrayElement(field: FieldEntity): FormulaType | null {
  if (!COMPUTED_TYPES.has(field.type)) return null;
  const result = storedFormulaType(field);
  return result.name === 'array' && result.sub ? result.sub : null;
}

/** A field's stored items as rows of a sub-query, and SQL reading one item. */
class Items {
  readonly db: FormulaDialect;
  readonly element: FormulaType;
  private readonly from: string;
  /** The item's `value` as the database reads it from JSON (text on PostgreSQL). */
  readonly raw: string;

  constructor(field: FieldEntity, ctx: FilterContext) {
    this.db = formulaDialect(ctx.sql.dialect);
    this.element = arrayElement(field)!;
    const { relation, value } = this.db.storedArray(`${quote(ctx.alias)}.${quote(fieldColumn(field))}`, quote(`item_${field.id}`));
    this.from = relation.from;
    this.raw = value;
  }

  /** Rows with an item satisfying `condition` (every item when none is given). */
  any(condition?: string): string {
    return `EXISTS (SELECT 1 FROM ${this.from}${condition ? ` WHERE ${condition}` : ''})`;
  }

  /** A text item; an empty one (JSON null) reads as ''. */
  text(): string {
    return `COALESCE(${this.raw}, '')`;
  }

  number(): string {
    return this.db.fromJsonValue(this.raw, 'number');
  }

  boolean(): string {
    return this.db.fromJsonValue(this.raw, 'boolean');
  }

  /** A single select item's option id. */
  optionId(): string {
    return `CAST(${this.db.jsonGetText(this.raw, 'id')} AS INTEGER)`;
  }

  /** A single select item's option value. */
  optionValue(): string {
    return this.db.jsonGetText(this.raw, 'value');
  }

  /**
   * A date item as an instant. Baserow reads every item as `timestamptz` (a date at midnight
   * UTC) and compares its date in the filter's time zone, which is comparing instants with
   * the bounds' start-of-day instants.
   */
  instant(): string {
    if (this.element.props.date_include_time) return this.db.fromJsonValue(this.raw, 'datetime');
    return this.db.dateAsDateTime(this.db.fromJsonValue(this.raw, 'date'));
  }

  /**
   * The text a date item shows (`date_format` EU `31/12/2020`, US `12/31/2020`, ISO
   * `2020-12-31`, then ` 13:05` or ` 01:05PM` with a time), from the ISO text both databases
   * store (`YYYY-MM-DD[ T]HH:MM…`, UTC).
   */
  dateText(): string {
    const t = this.raw;
    const part = (from: number, length: number) => `substr(${t}, ${from}, ${length})`;
    const [y, m, d] = [part(1, 4), part(6, 2), part(9, 2)];
    const props = this.element.props;
    const date =
      props.date_format === 'US' ? `${m} || '/' || ${d} || '/' || ${y}` : props.date_format === 'ISO' ? `${y} || '-' || ${m} || '-' || ${d}` : `${d} || '/' || ${m} || '/' || ${y}`;
    if (!props.date_include_time) return `(${date})`;
    const minutes = part(15, 2);
    if (props.date_time_format !== '12') return `(${date} || ' ' || ${part(12, 2)} || ':' || ${minutes})`;
    const hour = `CAST(${part(12, 2)} AS INTEGER)`;
    const h12 = `(CASE WHEN ${hour} % 12 = 0 THEN 12 ELSE ${hour} % 12 END)`;
    const h12Text = `(CASE WHEN ${h12} < 10 THEN '0' || CAST(${h12} AS TEXT) ELSE CAST(${h12} AS TEXT) END)`;
    return `(${date} || ' ' || ${h12Text} || ':' || ${minutes} || (CASE WHEN ${hour} < 12 THEN 'AM' ELSE 'PM' END))`;
  }
}

/** Comma-separated option ids; null when one of them is not an integer (Baserow: no row matches). */
function optionIdList(value: string): number[] | null {
  const ids = value.split(',').map((part) => pyInt(part));
  return ids.every((id): id is number => id !== null) ? ids : null;
}

/** An array filter: compatible with arrays of the listed element types. */
abstract class ArrayFilter implements FilterType {
  abstract readonly type: string;
  protected abstract readonly elementTypes: readonly FormulaTypeName[];

  compatible(field: FieldEntity): boolean {
    const element = arrayElement(field);
    return !!element && this.elementTypes.includes(element.name);
  }

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    return this.condition(new Items(field, ctx), value, ctx);
  }

  /** The condition on the items, or null when the value makes it match every row. */
  protected abstract condition(items: Items, value: string, ctx: FilterContext): string | null;
}

/** The `has_not_` form of an array filter: its negation (an empty or NULL array matches). */
function negated(Positive: new () => ArrayFilter, type: string): new () => FilterType {
  const positive = new Positive();
  class NegatedArrayFilter implements FilterType {
    readonly type = type;

    compatible(field: FieldEntity): boolean {
      return positive.compatible(field);
    }

    compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
      return negate(positive.compile(field, value, ctx));
    }
  }
  return named(NegatedArrayFilter, `ArrayFilter_${type}`);
}

/** `has_empty_value`: an item is empty (text '' or null, no date, number or option). The value is ignored. */
@Injectable()
export class HasEmptyValueFilter extends ArrayFilter {
  readonly type: string = 'has_empty_value';
  protected readonly elementTypes: readonly FormulaTypeName[] = [...TEXT_ITEMS, 'date', 'single_select', 'number'];

  protected condition(items: Items): string {
    const name = items.element.name;
    if (name === 'number' || name === 'single_select') return items.any(`${items.raw} IS NULL`);
    return items.any(`${items.text()} = ''`);
  }
}

/**
 * `has_value_equal`: an item is the (stripped) value: the text exactly, the number
 * numerically, the boolean as Django reads it (`1`/`t`/`True`, `0`/`f`/`False`), the
 * option one of the comma-separated ids. An empty value matches every row, a value the
 * items cannot take none.
 */
@Injectable()
export class HasValueEqualFilter extends ArrayFilter {
  readonly type: string = 'has_value_equal';
  protected readonly elementTypes: readonly FormulaTypeName[] = [...TEXT_ITEMS, 'boolean', 'single_select', 'number'];

  protected condition(items: Items, value: string, ctx: FilterContext): string | null {
    const text = value.trim();
    if (text === '') return null;
    switch (items.element.name) {
      case 'number': {
        const number = pyDecimal(text);
        return number === null ? NOTHING : items.any(`${items.number()} = ${items.db.toNumber(ctx.sql.param(number))}`);
      }
      case 'boolean': {
        const wanted = equalValue({ type: 'boolean' } as FieldEntity, text);
        return wanted === undefined ? NOTHING : items.any(`${items.boolean()} = ${ctx.sql.param(wanted)}`);
      }
      case 'single_select': {
        const ids = optionIdList(text);
        return ids === null ? NOTHING : items.any(`${items.optionId()} IN ${ctx.sql.list(ids)}`);
      }
      default:
        return items.any(`${items.raw} = ${ctx.sql.param(text)}`);
    }
  }
}

/**
 * `has_value_contains`: an item's text contains the value, case-insensitively: numbers as
 * they show with their decimal places, dates in their date format, options by their value.
 * The value is not stripped (as in Baserow); an empty value matches every row.
 */
@Injectable()
export class HasValueContainsFilter extends ArrayFilter {
  readonly type: string = 'has_value_contains';
  protected readonly elementTypes: readonly FormulaTypeName[] = [...TEXT_ITEMS, 'date', 'single_select', 'number'];

  protected condition(items: Items, value: string, ctx: FilterContext): string | null {
    if (value === '') return null;
    return items.any(ilikeContains(this.itemText(items), value, ctx));
  }

  private itemText(items: Items): string {
    switch (items.element.name) {
      case 'number':
        return items.db.numberText(items.number(), Number(items.element.props.number_decimal_places ?? 0));
      case 'date':
        return items.dateText();
      case 'single_select':
        return items.optionValue();
      default:
        return items.raw;
    }
  }
}

/** `has_value_contains_word`: an item's text (an option's value) has the (stripped) value as a whole word, case-insensitively. */
@Injectable()
export class HasValueContainsWordFilter extends ArrayFilter {
  readonly type: string = 'has_value_contains_word';
  protected readonly elementTypes: readonly FormulaTypeName[] = [...TEXT_ITEMS, 'single_select'];

  protected condition(items: Items, value: string, ctx: FilterContext): string | null {
    const word = value.trim();
    if (word === '') return null;
    const text = items.element.name === 'single_select' ? items.optionValue() : items.raw;
    return items.any(ctx.sql.dialect.containsWord(text, word, (v) => ctx.sql.param(v)));
  }
}

/** `has_value_length_is_lower_than`: an item (an empty one counts as '') is shorter than the integer value; not an integer matches no row. */
@Injectable()
export class HasValueLengthIsLowerThanFilter extends ArrayFilter {
  readonly type = 'has_value_length_is_lower_than';
  protected readonly elementTypes: readonly FormulaTypeName[] = TEXT_ITEMS;

  protected condition(items: Items, value: string, ctx: FilterContext): string | null {
    const text = value.trim();
    if (text === '') return null;
    const limit = pyInt(text);
    if (limit === null) return NOTHING;
    return items.any(`${items.db.length(items.text())} < ${ctx.sql.param(limit)}`);
  }
}

/** `has_all_values_equal`: the array has items and every one is the boolean value (read as `has_value_equal` does). */
@Injectable()
export class HasAllValuesEqualFilter extends ArrayFilter {
  readonly type = 'has_all_values_equal';
  protected readonly elementTypes: readonly FormulaTypeName[] = ['boolean'];

  protected condition(items: Items, value: string, ctx: FilterContext): string | null {
    const text = value.trim();
    if (text === '') return null;
    const wanted = equalValue({ type: 'boolean' } as FieldEntity, text);
    if (wanted === undefined) return NOTHING;
    return `(${items.any()} AND NOT ${items.any(`(${items.boolean()} = ${ctx.sql.param(wanted)}) IS NOT TRUE`)})`;
  }
}

/** `has_any_select_option_equal`: an item is one of the comma-separated option ids. */
@Injectable()
export class HasAnySelectOptionEqualFilter extends HasValueEqualFilter {
  readonly type: string = 'has_any_select_option_equal';
  protected readonly elementTypes: readonly FormulaTypeName[] = ['single_select'];
}

/**
 * `has_value_higher`, `has_value_higher_or_equal`, `has_value_lower`,
 * `has_value_lower_or_equal`: a number item compares so to the (stripped) value, which is
 * not rounded; an empty value matches every row, one that is not a number none.
 */
abstract class HasValueComparisonFilter extends ArrayFilter {
  protected readonly elementTypes: readonly FormulaTypeName[] = ['number'];
  protected abstract readonly operator: '>' | '>=' | '<' | '<=';

  protected condition(items: Items, value: string, ctx: FilterContext): string | null {
    const text = value.trim();
    if (text === '') return null;
    const number = pyDecimal(text);
    if (number === null) return NOTHING;
    return items.any(`${items.number()} ${this.operator} ${items.db.toNumber(ctx.sql.param(number))}`);
  }
}

@Injectable()
export class HasValueHigherFilter extends HasValueComparisonFilter {
  readonly type: string = 'has_value_higher';
  protected readonly operator = '>';
}

@Injectable()
export class HasValueHigherOrEqualFilter extends HasValueComparisonFilter {
  readonly type: string = 'has_value_higher_or_equal';
  protected readonly operator = '>=';
}

@Injectable()
export class HasValueLowerFilter extends HasValueComparisonFilter {
  readonly type: string = 'has_value_lower';
  protected readonly operator = '<';
}

@Injectable()
export class HasValueLowerOrEqualFilter extends HasValueComparisonFilter {
  readonly type: string = 'has_value_lower_or_equal';
  protected readonly operator = '<=';
}

/**
 * The date array filters and the multi-step filter whose bounds each takes (value
 * `"<timezone>?<value>?<operator>"`, see date-filter-value.ts): `has_date_within` is from
 * the start of today (in the value's time zone) to the end of the operator's period, and
 * takes every operator, `today` included.
 */
const HAS_DATE_TYPES: Record<string, MultiStepDateFilterType | 'within'> = {
  has_date_equal: 'date_is',
  has_date_before: 'date_is_before',
  has_date_on_or_before: 'date_is_on_or_before',
  has_date_after: 'date_is_after',
  has_date_on_or_after: 'date_is_on_or_after',
  has_date_within: 'within',
};

/** A date array filter: an item lies in the period of the value. An empty value matches every row, an invalid one none. */
abstract class HasDateFilter extends ArrayFilter {
  protected readonly elementTypes: readonly FormulaTypeName[] = ['date'];

  protected condition(items: Items, value: string, ctx: FilterContext): string | null {
    const kind = HAS_DATE_TYPES[this.type];
    const condition = resolveDateFilter(kind === 'within' ? 'date_is' : kind, value, ctx.now, true);
    if (condition.kind === 'all') return null;
    if (condition.kind !== 'range') return NOTHING;
    let interval: DateInterval = condition.ranges[0];
    if (kind === 'within') {
      const today = startOfDayInTimeZone(localDateString(ctx.now, condition.timeZone), condition.timeZone);
      interval = { from: today, to: interval.to };
    }
    const instant = items.instant();
    const bounds: string[] = [];
    if (interval.from) bounds.push(`${instant} >= ${ctx.sql.param(interval.from.toISOString())}`);
    if (interval.to) bounds.push(`${instant} < ${ctx.sql.param(interval.to.toISOString())}`);
    return items.any(bounds.length ? bounds.join(' AND ') : `${items.raw} IS NOT NULL`);
  }
}

/** One class per date array filter and its `has_not_` form, built from the type names. */
const HAS_DATE_FILTERS = Object.keys(HAS_DATE_TYPES).flatMap((type) => {
  class TypedHasDateFilter extends HasDateFilter {
    readonly type: string = type;
  }
  const positive = named(TypedHasDateFilter, `HasDateFilter_${type}`);
  return [positive, negated(positive, type.replace(/^has_/, 'has_not_'))];
});

/** Every array filter type, `has_not_` forms included. */
export const ARRAY_FILTERS: (new (...args: never[]) => FilterType)[] = [
  HasEmptyValueFilter,
  negated(HasEmptyValueFilter, 'has_not_empty_value'),
  HasValueEqualFilter,
  negated(HasValueEqualFilter, 'has_not_value_equal'),
  HasValueContainsFilter,
  negated(HasValueContainsFilter, 'has_not_value_contains'),
  HasValueContainsWordFilter,
  negated(HasValueContainsWordFilter, 'has_not_value_contains_word'),
  HasValueLengthIsLowerThanFilter,
  HasAllValuesEqualFilter,
  HasAnySelectOptionEqualFilter,
  negated(HasAnySelectOptionEqualFilter, 'has_none_select_option_equal'),
  HasValueHigherFilter,
  negated(HasValueHigherFilter, 'has_not_value_higher'),
  HasValueHigherOrEqualFilter,
  negated(HasValueHigherOrEqualFilter, 'has_not_value_higher_or_equal'),
  HasValueLowerFilter,
  negated(HasValueLowerFilter, 'has_not_value_lower'),
  HasValueLowerOrEqualFilter,
  negated(HasValueLowerOrEqualFilter, 'has_not_value_lower_or_equal'),
  ...HAS_DATE_FILTERS,
];
