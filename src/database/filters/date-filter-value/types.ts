export const DATE_FILTER_OPERATORS = [
  'today',
  'yesterday',
  'tomorrow',
  'one_week_ago',
  'one_month_ago',
  'one_year_ago',
  'this_week',
  'this_month',
  'this_year',
  'next_week',
  'next_month',
  'next_year',
  'nr_days_ago',
  'nr_weeks_ago',
  'nr_months_ago',
  'nr_years_ago',
  'nr_days_from_now',
  'nr_weeks_from_now',
  'nr_months_from_now',
  'nr_years_from_now',
  'exact_date',
] as const;
export type DateFilterOperator = (typeof DATE_FILTER_OPERATORS)[number];

export const MULTI_STEP_DATE_FILTER_TYPES = [
  'date_is',
  'date_is_not',
  'date_is_before',
  'date_is_on_or_before',
  'date_is_after',
  'date_is_on_or_after',
  'date_is_within',
] as const;
export type MultiStepDateFilterType = (typeof MULTI_STEP_DATE_FILTER_TYPES)[number];

export const LEGACY_DATE_FILTER_TYPES = [
  'date_equal',
  'date_not_equal',
  'date_before',
  'date_before_or_equal',
  'date_after',
  'date_after_or_equal',
  'date_after_days_ago',
  'date_equals_today',
  'date_before_today',
  'date_after_today',
  'date_within_days',
  'date_within_weeks',
  'date_within_months',
  'date_equals_days_ago',
  'date_equals_months_ago',
  'date_equals_years_ago',
  'date_equals_week',
  'date_equals_month',
  'date_equals_year',
  'date_equals_day_of_month',
] as const;
export type LegacyDateFilterType = (typeof LEGACY_DATE_FILTER_TYPES)[number];

export type DateFilterType = MultiStepDateFilterType | LegacyDateFilterType;

export interface DateInterval {
  /** Lower bound as a UTC instant (timestamp columns); inclusive unless `fromExclusive`. */
  from?: Date;
  /** Upper bound as a UTC instant (timestamp columns); exclusive unless `toInclusive`. */
  to?: Date;
  fromExclusive?: boolean;
  toInclusive?: boolean;
  /** Inclusive lower calendar date `YYYY-MM-DD` in the filter's time zone (date columns). */
  fromDate?: string;
  /** Exclusive upper calendar date `YYYY-MM-DD` in the filter's time zone (date columns). */
  toDate?: string;
}

export type DateFilterCondition =
  | { kind: 'all' }
  | { kind: 'none'; reason: string }
  | { kind: 'range'; ranges: DateInterval[]; negate: boolean; timeZone: string }
  | { kind: 'day_of_month'; day: number; timeZone: string };

export interface DateFilterOptions {
  /** The field's `date_force_timezone`; legacy filters use it when the value has no tz. */
  defaultTimezone?: string | null;
}

const MULTI_STEP_SET: ReadonlySet<string> = new Set(MULTI_STEP_DATE_FILTER_TYPES);
const LEGACY_SET: ReadonlySet<string> = new Set(LEGACY_DATE_FILTER_TYPES);
export const OPERATOR_SET: ReadonlySet<string> = new Set(DATE_FILTER_OPERATORS);

export function isMultiStepDateFilterType(type: string): type is MultiStepDateFilterType {
  return MULTI_STEP_SET.has(type);
}

export function isLegacyDateFilterType(type: string): type is LegacyDateFilterType {
  return LEGACY_SET.has(type);
}

export function isDateFilterType(type: string): type is DateFilterType {
  return MULTI_STEP_SET.has(type) || LEGACY_SET.has(type);
}
