import { isoMicros } from '../../rows/row.repository';
import type { FieldEntity } from '../../fields/field.entity';
import { DateFilterCondition, DateInterval, LEGACY_DATE_FILTER_TYPES, MULTI_STEP_DATE_FILTER_TYPES, resolveDateFilter } from '../date-filter-value';
import type { FilterContext, FilterType } from '../filter-type';
import { cellColumn, DATE_TYPES, named, negate, NOTHING } from './support';

/** created_on and last_modified always store instants; a date field only with `date_include_time`. */
const storesInstants = (field: FieldEntity): boolean => field.type !== 'date' || !!field.properties.date_include_time;

function intervalSql(interval: DateInterval, column: string, instants: boolean, ctx: FilterContext): string {
  const parts: string[] = [];
  if (instants) {
    if (interval.from) parts.push(`${column} ${interval.fromExclusive ? '>' : '>='} ${ctx.sql.param(isoMicros(interval.from))}`);
    if (interval.to) parts.push(`${column} ${interval.toInclusive ? '<=' : '<'} ${ctx.sql.param(isoMicros(interval.to))}`);
  } else {
    if (interval.fromDate !== undefined) parts.push(`${column} >= ${ctx.sql.param(interval.fromDate)}`);
    if (interval.toDate !== undefined) parts.push(`${column} < ${ctx.sql.param(interval.toDate)}`);
  }
  return parts.length ? `(${parts.join(' AND ')})` : '1 = 1';
}

/** The SQL of a resolved date filter (see date-filter-value.ts for the semantics). */
export function dateConditionSql(condition: DateFilterCondition, field: FieldEntity, ctx: FilterContext): string | null {
  const column = cellColumn(field, ctx);
  const instants = storesInstants(field);
  switch (condition.kind) {
    case 'all':
      return null;
    case 'none':
      return NOTHING;
    case 'day_of_month': {
      const day = instants
        ? ctx.sql.dialect.dayOfMonthIn(column, condition.timeZone, (v) => ctx.sql.param(v))
        : `CAST(substr(${ctx.sql.dialect.castText(column)}, 9, 2) AS INTEGER)`;
      return `${day} = ${ctx.sql.param(condition.day)}`;
    }
    case 'range': {
      const inside = condition.ranges.length ? condition.ranges.map((r) => intervalSql(r, column, instants, ctx)).join(' OR ') : '1 = 0';
      const positive = `(${column} IS NOT NULL AND (${inside}))`;
      return condition.negate ? negate(positive) : positive;
    }
  }
}

/** One date filter type (`date_is`, `date_before`, …): the value resolved at the request's `now`. */
abstract class DateFilter implements FilterType {
  abstract readonly type: string;

  compatible(field: FieldEntity): boolean {
    return DATE_TYPES.includes(field.type);
  }

  compile(field: FieldEntity, value: string, ctx: FilterContext): string | null {
    const condition = resolveDateFilter(this.type, value, ctx.now, storesInstants(field), {
      defaultTimezone: field.properties.date_force_timezone ?? null,
    });
    return dateConditionSql(condition, field, ctx);
  }
}

/** One provider class per date filter type (multi-step and legacy), built from the type names. */
export const DATE_FILTERS = [...MULTI_STEP_DATE_FILTER_TYPES, ...LEGACY_DATE_FILTER_TYPES].map((type) => {
  class TypedDateFilter extends DateFilter {
    readonly type = type;
  }
  return named(TypedDateFilter, `DateFilter_${type}`);
});
