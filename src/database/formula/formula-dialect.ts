import type { Dialect } from '../../core/database/dialect';
import type { ArrayRelation } from './expr';
import { INTERVAL_ITEM, INTERVAL_TEXT, INTERVAL_UNITS } from './sqlite/intervals';
import { dateParsePlan, type DateParsePlan } from './sqlite/to-timestamp';

/**
 * The SQL of formulas that differs between SQLite and PostgreSQL. Formula functions build
 * their SQL from these pieces and from SQL both databases share; nothing else in the
 * formula module branches on the database. Number values are `numeric` on PostgreSQL and
 * REAL on SQLite; booleans are booleans on PostgreSQL and 0/1 on SQLite (both read as
 * conditions); dates are `date`/`timestamptz` on PostgreSQL and ISO text on SQLite
 * (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS.sssZ`); texts are text.
 */
export interface FormulaDialect {
  readonly name: 'sqlite' | 'postgres';
  // Dates, durations and numbers of the number, date and array functions. Dates are date or
  // datetime values (a date read as its midnight UTC where a moment is needed); durations are
  // number values of seconds.
  /** Seconds since 1970-01-01 UTC of a date or datetime value, as a number value. */
  epoch(expression: string): string;
  /** A date or datetime value moved by `seconds` (a number value); a date stays a date (the UTC day the moment falls on). */
  addSeconds(expression: string, seconds: string, includeTime: boolean): string;
  /** A date or datetime value moved by whole `months` (a constant), as PostgreSQL adds an interval's months (in UTC; the day kept or the month's last). */
  addMonths(expression: string, months: number, includeTime: boolean): string;
  /** The year, month, day or second (with its fraction) of a date or datetime value, in UTC, as a number value. */
  datePart(part: 'year' | 'month' | 'day' | 'second', expression: string, includeTime: boolean): string;
  /** The current moment, as a datetime value. */
  now(): string;
  /** The current date in UTC, as a date value. */
  today(): string;
  /**
   * PostgreSQL's `to_char(value AT TIME ZONE zone, template)` of a date or datetime value;
   * `timeZone` null is UTC; NULL when the zone is unknown.
   */
  formatDate(expression: string, includeTime: boolean, template: string, timeZone: string | null): string;
  /**
   * PostgreSQL's `to_timestamp(text, template)` with NULL instead of its errors (Baserow's
   * try_cast_to_date(_tz)), read as a wall clock of `timeZone` (UTC when null): a date value
   * when `dateOnly`, else a datetime value; NULL for a year out of 1..9999 or an unknown zone.
   * `literalTemplate` is the template when the formula writes it as a literal: PostgreSQL then
   * reads the text with that template's regular expression (dateParsePlan), which cannot fail;
   * with any other template it calls to_timestamp itself. `bind` binds a text, answering its SQL.
   */
  parseDate(text: string, template: string, literalTemplate: string | null, timeZone: string | null, dateOnly: boolean, bind: (value: string) => string): string;
  /** A text as the seconds of a PostgreSQL interval (`1 day 2 hours`), years of 365 days and months of 30; NULL when it is not one. */
  intervalSeconds(text: string, bind: (value: string) => string): string;
  /** Seconds (a number value) as PostgreSQL writes the interval: `1 day 02:03:04`, `00:30:00`. */
  intervalText(seconds: string): string;
  /** A number rounded at the decimal `places` (a number value, truncated; negative rounds left of the point), half away from zero. */
  roundTo(expression: string, places: string): string;
  /** The larger of two number values, the one that is not NULL if only one is (PostgreSQL's GREATEST). */
  greatest(a: string, b: string): string;
  /** The smaller of two number values, the one that is not NULL if only one is (PostgreSQL's LEAST). */
  least(a: string, b: string): string;
  /** Aggregate: whether any element (a boolean value) is true; NULL without elements. */
  boolOr(element: string): string;
  /** Aggregate: whether every element (a boolean value) is true; NULL without elements. */
  boolAnd(element: string): string;
  /** Aggregate: the variance or standard deviation (of the population or a sample) of number elements. */
  variance(element: string, kind: 'var_pop' | 'var_samp' | 'stddev_pop' | 'stddev_samp'): string;
  /**
   * A relation's elements (texts) joined by `separator` in the relation's order, NULL when
   * there are none; the separator's SQL comes after the relation's in the text (SQLite binds in
   * order). `alias` names the subqueries.
   */
  stringAgg(relation: ArrayRelation, element: string, separator: string, alias: string): string;
  /** A decimal literal (digits, optional point and digits; checked by the caller) as a number value. */
  number(literal: string): string;
  /** Any SQL value as a number value (a number column, an integer column, a boolean). */
  toNumber(expression: string): string;
  /** A number rounded to `places` decimals (half away from zero), as stored in a column of that scale. */
  round(expression: string, places: number): string;
  /** A number value as text with exactly `places` decimals (`1.50`), NULL stays NULL. */
  numberText(expression: string, places: number): string;
  /** Text length in characters. */
  length(expression: string): string;
  /** Text with every letter upper-cased (`lower`: lower-cased), non-ASCII ones too, as PostgreSQL's. */
  upper(expression: string): string;
  lower(expression: string): string;
  /**
   * The JSON array `[{"id": <id>, "value": <value>}, …]` of a relation's elements in order,
   * `[]` when there are none; `value` is already a JSON value expression (see `json*`).
   */
  jsonItems(relation: ArrayRelation, value: string): string;
  /** An aggregate over a relation's elements: `(SELECT <aggregate> FROM … WHERE …)`. */
  aggregate(relation: ArrayRelation, aggregate: string): string;
  /** A text value as a JSON value (a JSON string, or null). */
  jsonText(expression: string): string;
  /** A number value as a JSON string with `places` decimals (Baserow answers numbers as strings). */
  jsonNumber(expression: string, places: number): string;
  /** A number value as a JSON number (array items keep numbers; the cell reader formats them). */
  jsonNumberValue(expression: string): string;
  /** A select option id as the JSON object `{"id", "value", "color"}` of that option (null when none). */
  jsonSelectOption(expression: string): string;
  /** The text of key `key` of a JSON object given as JSON text (a stored item's object value). */
  jsonObjectText(json: string, key: string): string;
  /** A boolean value as JSON true/false. */
  jsonBoolean(expression: string): string;
  /** A JSON object of key → JSON value expressions. */
  jsonObject(entries: Record<string, string>): string;
  /**
   * The elements of a stored JSON array cell (`[{"id", "value"}, …]`) as a relation, so
   * formulas can aggregate a lookup field of their own table. `alias` names its rows; `value`
   * is an element's `value` (as text), `item` the element (a JSON object).
   */
  storedArray(column: string, alias: string): { relation: ArrayRelation; value: string; item: string };
  /** The items of a JSON array cell as a FROM source aliased `alias`, and the expression of one item (a JSON object). */
  jsonArrayItems(column: string, alias: string): { from: string; item: string };
  /**
   * What a stored array cell sorts by, item by item and alike on both databases: texts (and a
   * select option's value) by their bytes, numbers, booleans; an empty item after any value, a
   * shorter array first when it starts a longer one; NULL for a NULL cell. `alias` names the items.
   */
  arraySortKey(column: string, kind: 'text' | 'number' | 'boolean' | 'select', alias: string): string;
  /** A text value read from a stored array element's `value`, cast to the element type's SQL. */
  fromJsonValue(value: string, kind: 'text' | 'number' | 'boolean' | 'date' | 'datetime'): string;
  /** The text of `key` (a fixed word) of a JSON object value (a link's `url`, `label`), NULL when absent. */
  jsonGetText(expression: string, key: string): string;
  /** Whether `text` matches the regular expression `pattern` (PostgreSQL's `~`; on SQLite by RE2, see sqlite/regex.ts). */
  regexMatches(text: string, pattern: string): string;
  /**
   * Every match of `pattern` in `text` replaced (`regexp_replace(…, 'g')`), or the formula error
   * value when the text or the result is longer than `maxLength` characters, or when the result
   * could pass ten times that (checked before it is built, so no step holds more): the text
   * without its matches, plus the replacement for each match, plus the matches once more for
   * each backslash of the replacement (each may copy a match). The same rule on both databases,
   * so both answer alike. A pattern the database refuses (read from a cell) is the error value
   * too, as Baserow's try_regexp_replace answers.
   */
  regexReplace(text: string, pattern: string, replacement: string, maxLength: number): string;
  /**
   * Baserow's `try_encode_uri` (`component`: `try_encode_uri_component`): every character but
   * the kept ones as lowercase `%xx` of its UTF-8 bytes; NULL stays NULL.
   */
  encodeUri(expression: string, component: boolean): string;
  /** A date value as the datetime of its midnight UTC (to compare or mix dates with datetimes). */
  dateAsDateTime(expression: string): string;
  /** A datetime value as its date in UTC. */
  dateTimeAsDate(expression: string): string;
  /**
   * NaN as a number value (Baserow's numeric 'NaN': a division by zero, tonumber('a')…).
   * PostgreSQL's numeric holds it and carries it through its arithmetic; SQLite has no NaN
   * (a REAL NaN becomes NULL), so there it is the text 'NaN', which a REAL column keeps as
   * text, sorts after every number (as PostgreSQL sorts NaN) and equals only itself.
   */
  nan(): string;
  /** Whether a number value is NaN (false for NULL). */
  isNan(expression: string): string;
  /** Whether the database's arithmetic carries NaN itself (NaN + 1 is NaN): else see `nanGuard`. */
  readonly carriesNan: boolean;
  /** `sql` computed from the number values `refs`, or `onNan` (NaN by default) when one of them is NaN; `sql` alone where NaN carries itself. */
  nanGuard(refs: string[], sql: string, onNan?: string): string;
  /** A number value with NaN as NULL (to use it as a count, a position, a duration). */
  nanToNull(expression: string): string;
  /**
   * PostgreSQL's numeric `a + b`, `a - b`, `a * b`, `a / b`, `mod(a, b)`, and `abs`, `trunc`,
   * `ceil`, `floor`, `sign` of `a`, with NaN: NaN in, NaN out, and a division by zero NaN.
   */
  arithmetic(op: '+' | '-' | '*' | '/' | 'mod' | 'abs' | 'trunc' | 'ceil' | 'floor' | 'sign', a: string, b?: string): string;
  /** An aggregate of number elements (sum, avg, variances) that is NaN when an element is (PostgreSQL's numeric aggregates). */
  nanAggregate(element: string, aggregate: string): string;
}

class SqliteFormulaDialect implements FormulaDialect {
  readonly name = 'sqlite' as const;

  epoch(expression: string): string {
    return `formula_epoch(${expression})`;
  }

  addSeconds(expression: string, seconds: string, includeTime: boolean): string {
    return `formula_from_epoch(formula_epoch(${expression}) + ${seconds}, ${includeTime ? 1 : 0})`;
  }

  addMonths(expression: string, months: number, includeTime: boolean): string {
    return `formula_add_months(${expression}, ${Math.trunc(months)}, ${includeTime ? 1 : 0})`;
  }

  datePart(part: 'year' | 'month' | 'day' | 'second', expression: string): string {
    return `formula_date_part('${part}', ${expression})`;
  }

  now(): string {
    return `strftime('%Y-%m-%dT%H:%M:%f000Z', 'now')`;
  }

  today(): string {
    return `date('now')`;
  }

  formatDate(expression: string, _includeTime: boolean, template: string, timeZone: string | null): string {
    return `formula_to_char(${expression}, ${template}, ${timeZone ?? `'UTC'`})`;
  }

  parseDate(text: string, template: string, _literal: string | null, timeZone: string | null, dateOnly: boolean): string {
    return `formula_to_timestamp(${text}, ${template}, ${timeZone ?? 'NULL'}, ${dateOnly ? 1 : 0})`;
  }

  intervalSeconds(text: string): string {
    return `formula_interval_seconds(${text})`;
  }

  intervalText(seconds: string): string {
    return `formula_interval_text(${seconds})`;
  }

  roundTo(expression: string, places: string): string {
    return `formula_round(${expression}, ${places})`;
  }

  greatest(a: string, b: string): string {
    return `max(COALESCE(${a}, ${b}), COALESCE(${b}, ${a}))`;
  }

  least(a: string, b: string): string {
    return `min(COALESCE(${a}, ${b}), COALESCE(${b}, ${a}))`;
  }

  boolOr(element: string): string {
    return `max(${element})`;
  }

  boolAnd(element: string): string {
    return `min(${element})`;
  }

  variance(element: string, kind: 'var_pop' | 'var_samp' | 'stddev_pop' | 'stddev_samp'): string {
    return `formula_variance(json_group_array(${element}), ${kind.endsWith('samp') ? 1 : 0}, ${kind.startsWith('stddev') ? 1 : 0})`;
  }

  stringAgg(relation: ArrayRelation, element: string, separator: string, alias: string): string {
    // The separator is a column of a subquery written after the relation's (bound values are positional).
    return `(SELECT group_concat("${alias}"."v", "${alias}_s"."s" ORDER BY "${alias}"."o") FROM (SELECT ${element} AS "v", row_number() OVER (ORDER BY ${relation.order}) AS "o" FROM ${relation.from} WHERE ${relation.where.join(' AND ') || '1'}) "${alias}" CROSS JOIN (SELECT ${separator} AS "s") "${alias}_s")`;
  }

  number(literal: string): string {
    return `CAST(${literal} AS REAL)`;
  }

  toNumber(expression: string): string {
    return `CAST(${expression} AS REAL)`;
  }

  round(expression: string, places: number): string {
    return `CASE WHEN ${expression} = 'NaN' THEN 'NaN' ELSE ROUND(${expression}, ${Math.trunc(places)}) END`;
  }

  numberText(expression: string, places: number): string {
    return `CASE WHEN ${expression} IS NULL THEN NULL WHEN ${expression} = 'NaN' THEN 'NaN' ELSE printf('%.${Math.trunc(places)}f', ${expression}) END`;
  }

  length(expression: string): string {
    return `length(${expression})`;
  }

  upper(expression: string): string {
    return `unicode_upper(${expression})`;
  }

  lower(expression: string): string {
    return `unicode_lower(${expression})`;
  }

  jsonItems(relation: ArrayRelation, value: string): string {
    return `(SELECT json_group_array(json_object('id', "_id", 'value', json("_v"))) FROM (SELECT ${relation.id} AS "_id", ${value} AS "_v" FROM ${relation.from} WHERE ${relation.where.join(' AND ') || '1'} ORDER BY ${relation.order}))`;
  }

  aggregate(relation: ArrayRelation, aggregate: string): string {
    return `(SELECT ${aggregate} FROM ${relation.from} WHERE ${relation.where.join(' AND ') || '1'})`;
  }

  jsonText(expression: string): string {
    return `json_quote(${expression})`;
  }

  jsonNumber(expression: string, places: number): string {
    return `json_quote(${this.numberText(expression, places)})`;
  }

  jsonNumberValue(expression: string): string {
    // NaN is no JSON number: the string "NaN", as PostgreSQL's to_jsonb writes it.
    return `CASE WHEN ${expression} = 'NaN' THEN '"NaN"' ELSE CAST(${expression} AS REAL) END`;
  }

  jsonObjectText(json: string, key: string): string {
    return `json_extract(${json}, '$.${key.replace(/[^a-z_]/gi, '')}')`;
  }

  jsonSelectOption(expression: string): string {
    return `(SELECT json_object('id', o."id", 'value', o."value", 'color', o."color") FROM "database_select_option" o WHERE o."id" = ${expression})`;
  }

  jsonBoolean(expression: string): string {
    return `CASE WHEN ${expression} THEN 'true' ELSE 'false' END`;
  }

  jsonObject(entries: Record<string, string>): string {
    return `json_object(${Object.entries(entries)
      .map(([key, value]) => `'${key}', json(${value})`)
      .join(', ')})`;
  }

  jsonArrayItems(column: string, alias: string): { from: string; item: string } {
    return { from: `json_each(${column}) ${alias}`, item: `${alias}."value"` };
  }

  arraySortKey(column: string, kind: 'text' | 'number' | 'boolean' | 'select'): string {
    // A function of ours (sqlite/array-sort.ts): the key as a BLOB compared byte by byte.
    return `formula_array_sort_key(${column}, '${kind}')`;
  }

  storedArray(column: string, alias: string): { relation: ArrayRelation; value: string; item: string } {
    return {
      relation: { from: `json_each(${column}) ${alias}`, where: [], order: `${alias}."key"`, id: `json_extract(${alias}."value", '$.id')` },
      value: `json_extract(${alias}."value", '$.value')`,
      item: `${alias}."value"`,
    };
  }

  fromJsonValue(value: string, kind: 'text' | 'number' | 'boolean' | 'date' | 'datetime'): string {
    if (kind === 'number') return `CAST(${value} AS REAL)`;
    if (kind === 'boolean') return `(${value} = 1)`;
    return value;
  }

  jsonGetText(expression: string, key: string): string {
    return `json_extract(${expression}, '$.${jsonKey(key)}')`;
  }

  regexMatches(text: string, pattern: string): string {
    // `x REGEXP p` is regexp(p, x), written in argument order (SQLite's bound values are positional).
    return `(${text} REGEXP ${pattern})`;
  }

  regexReplace(text: string, pattern: string, replacement: string, maxLength: number): string {
    // The bound is checked as the matches are found (sqlite/regex.ts), the replacing stops there.
    return `regexp_replace(${text}, ${pattern}, ${replacement}, 'g', ${maxLength})`;
  }

  encodeUri(expression: string, component: boolean): string {
    return `${component ? 'try_encode_uri_component' : 'try_encode_uri'}(${expression})`;
  }

  dateAsDateTime(expression: string): string {
    return `(${expression} || 'T00:00:00.000Z')`;
  }

  dateTimeAsDate(expression: string): string {
    return `substr(${expression}, 1, 10)`;
  }

  readonly carriesNan = false;

  nan(): string {
    return `'NaN'`;
  }

  isNan(expression: string): string {
    return `COALESCE(${expression} = 'NaN', FALSE)`;
  }

  nanGuard(refs: string[], sql: string, onNan = this.nan()): string {
    return `CASE WHEN ${refs.map((ref) => `${ref} = 'NaN'`).join(' OR ')} THEN ${onNan} ELSE ${sql} END`;
  }

  nanToNull(expression: string): string {
    return `NULLIF(${expression}, 'NaN')`;
  }

  nanAggregate(element: string, aggregate: string): string {
    return `CASE WHEN max(${element} = 'NaN') THEN 'NaN' ELSE ${aggregate} END`;
  }

  arithmetic(op: string, a: string, b?: string): string {
    // One call per operation: no NaN checks around it, so deep formulas stay within SQLite's expression depth.
    return `formula_numeric('${op}', ${a}${b === undefined ? '' : `, ${b}`})`;
  }
}

class PostgresFormulaDialect implements FormulaDialect {
  readonly name = 'postgres' as const;

  epoch(expression: string): string {
    return `EXTRACT(EPOCH FROM ${expression})`;
  }

  addSeconds(expression: string, seconds: string, includeTime: boolean): string {
    // Beyond ±10^11 seconds (thousands of years) NULL, never out of PostgreSQL's timestamps.
    const shift = `CAST(CASE WHEN abs(${seconds}) < 1e11 THEN ${seconds} END AS double precision) * interval '1 second'`;
    return includeTime ? `(${expression} + ${shift})` : `CAST(CAST(${expression} AS timestamp) + ${shift} AS date)`;
  }

  addMonths(expression: string, months: number, includeTime: boolean): string {
    const interval = `make_interval(months => ${Math.trunc(months)})`;
    return includeTime ? `((${expression} AT TIME ZONE 'UTC') + ${interval}) AT TIME ZONE 'UTC'` : `CAST(${expression} + ${interval} AS date)`;
  }

  datePart(part: 'year' | 'month' | 'day' | 'second', expression: string, includeTime: boolean): string {
    return `EXTRACT(${part.toUpperCase()} FROM ${includeTime ? `${expression} AT TIME ZONE 'UTC'` : expression})`;
  }

  now(): string {
    return 'CURRENT_TIMESTAMP';
  }

  today(): string {
    return `CAST(timezone('UTC', CURRENT_TIMESTAMP) AS date)`;
  }

  formatDate(expression: string, includeTime: boolean, template: string, timeZone: string | null): string {
    const moment = includeTime ? expression : `(CAST(${expression} AS timestamp) AT TIME ZONE 'UTC')`;
    return `to_char(${moment} AT TIME ZONE ${timeZone === null ? `'UTC'` : postgresZone(timeZone)}, ${template})`;
  }

  parseDate(text: string, template: string, literal: string | null, timeZone: string | null, dateOnly: boolean, bind: (value: string) => string): string {
    const type = dateOnly ? 'date' : 'timestamptz';
    if (literal === null) {
      // A template known only when the row is read: PostgreSQL's own to_timestamp (which raises on text it cannot read).
      const moment = `(to_timestamp(${text}, ${template}) AT TIME ZONE 'UTC')`;
      if (dateOnly) return `CAST(${moment} AS date)`;
      return `(${moment} AT TIME ZONE ${timeZone === null ? `'UTC'` : postgresZone(timeZone)})`;
    }
    const plan = dateParsePlan(literal);
    // The arguments' bound values are written still (PostgreSQL refuses a value it cannot type).
    if (!plan) return `(SELECT CAST(NULL AS ${type}) FROM (SELECT ${text} AS "x", ${template} AS "t"${timeZone === null ? '' : `, ${timeZone} AS "z"`}) "_t")`;
    return postgresParseDate(text, template, plan, timeZone, dateOnly, bind);
  }

  intervalSeconds(text: string, bind: (value: string) => string): string {
    return postgresIntervalSeconds(text, bind);
  }

  intervalText(seconds: string): string {
    // Beyond PostgreSQL's intervals (about 10^14 seconds) NULL, not an error.
    return `CAST(justify_hours(make_interval(secs => CAST(CASE WHEN abs(${seconds}) < 1e14 THEN ${seconds} END AS double precision))) AS text)`;
  }

  roundTo(expression: string, places: string): string {
    return `round(${expression}, CAST(trunc(CASE WHEN abs(${places}) <= 1000 THEN ${places} END) AS integer))`;
  }

  greatest(a: string, b: string): string {
    return `GREATEST(${a}, ${b})`;
  }

  least(a: string, b: string): string {
    return `LEAST(${a}, ${b})`;
  }

  boolOr(element: string): string {
    return `bool_or(${element})`;
  }

  boolAnd(element: string): string {
    return `bool_and(${element})`;
  }

  variance(element: string, kind: 'var_pop' | 'var_samp' | 'stddev_pop' | 'stddev_samp'): string {
    return `${kind}(${element})`;
  }

  stringAgg(relation: ArrayRelation, element: string, separator: string): string {
    return `(SELECT string_agg(${element}, ${separator} ORDER BY ${relation.order}) FROM ${relation.from} WHERE ${relation.where.join(' AND ') || 'TRUE'})`;
  }

  number(literal: string): string {
    return `CAST(${literal} AS numeric)`;
  }

  toNumber(expression: string): string {
    return `CAST(${expression} AS numeric)`;
  }

  round(expression: string, places: number): string {
    return `ROUND(${expression}, ${Math.trunc(places)})`;
  }

  numberText(expression: string, places: number): string {
    return `CAST(ROUND(${expression}, ${Math.trunc(places)}) AS text)`;
  }

  length(expression: string): string {
    return `char_length(${expression})`;
  }

  upper(expression: string): string {
    return `upper(${expression})`;
  }

  lower(expression: string): string {
    return `lower(${expression})`;
  }

  jsonItems(relation: ArrayRelation, value: string): string {
    return `(SELECT COALESCE(jsonb_agg(jsonb_build_object('id', ${relation.id}, 'value', ${value}) ORDER BY ${relation.order}), '[]'::jsonb) FROM ${relation.from} WHERE ${relation.where.join(' AND ') || 'TRUE'})`;
  }

  aggregate(relation: ArrayRelation, aggregate: string): string {
    return `(SELECT ${aggregate} FROM ${relation.from} WHERE ${relation.where.join(' AND ') || 'TRUE'})`;
  }

  jsonText(expression: string): string {
    return `to_jsonb(CAST(${expression} AS text))`;
  }

  jsonNumber(expression: string, places: number): string {
    return `to_jsonb(${this.numberText(expression, places)})`;
  }

  jsonNumberValue(expression: string): string {
    return `to_jsonb(CAST(${expression} AS numeric))`;
  }

  jsonObjectText(json: string, key: string): string {
    return `(CAST(${json} AS jsonb)->>'${key.replace(/[^a-z_]/gi, '')}')`;
  }

  jsonSelectOption(expression: string): string {
    return `(SELECT jsonb_build_object('id', o."id", 'value', o."value", 'color', o."color") FROM "database_select_option" o WHERE o."id" = ${expression})`;
  }

  jsonBoolean(expression: string): string {
    return `to_jsonb(CAST(${expression} AS boolean))`;
  }

  jsonObject(entries: Record<string, string>): string {
    return `jsonb_build_object(${Object.entries(entries)
      .map(([key, value]) => `'${key}', ${value}`)
      .join(', ')})`;
  }

  jsonArrayItems(column: string, alias: string): { from: string; item: string } {
    return { from: `jsonb_array_elements(${column}) ${alias}("v")`, item: `${alias}."v"` };
  }

  arraySortKey(column: string, kind: 'text' | 'number' | 'boolean' | 'select', alias: string): string {
    // PostgreSQL compares arrays item by item (a NULL item after any value); texts by their bytes, as SQLite's key.
    const value = `${alias}."v"->>'value'`;
    const item = {
      text: `(${value}) COLLATE "C"`,
      select: `(${alias}."v"->'value'->>'value') COLLATE "C"`,
      number: `CAST(NULLIF(${value}, '') AS numeric)`,
      boolean: `CAST(${value} AS boolean)`,
    }[kind];
    return `(CASE WHEN ${column} IS NULL THEN NULL ELSE ARRAY(SELECT ${item} FROM jsonb_array_elements(${column}) WITH ORDINALITY ${alias}("v", "n") ORDER BY ${alias}."n") END)`;
  }

  storedArray(column: string, alias: string): { relation: ArrayRelation; value: string; item: string } {
    return {
      relation: { from: `jsonb_array_elements(${column}) WITH ORDINALITY ${alias}("v", "n")`, where: [], order: `${alias}."n"`, id: `CAST(${alias}."v"->>'id' AS integer)` },
      value: `${alias}."v"->>'value'`,
      item: `${alias}."v"`,
    };
  }

  fromJsonValue(value: string, kind: 'text' | 'number' | 'boolean' | 'date' | 'datetime'): string {
    if (kind === 'number') return `CAST(${value} AS numeric)`;
    if (kind === 'boolean') return `CAST(${value} AS boolean)`;
    if (kind === 'date') return `CAST(${value} AS date)`;
    if (kind === 'datetime') return `CAST(${value} AS timestamptz)`;
    return value;
  }

  jsonGetText(expression: string, key: string): string {
    return `(CAST(${expression} AS jsonb) ->> '${jsonKey(key)}')`;
  }

  regexMatches(text: string, pattern: string): string {
    return `(${text} ~ ${pattern})`;
  }

  regexReplace(text: string, pattern: string, replacement: string, maxLength: number): string {
    // A function of ours (migration FormulaRegexReplace): it catches invalid patterns, as Baserow's try_regexp_replace.
    return `formula_regexp_replace(${text}, ${pattern}, ${replacement}, ${maxLength})`;
  }

  encodeUri(expression: string, component: boolean): string {
    // Baserow's try_encode_uri(_component), inline: character by character, in order.
    const kept = component ? `[0-9a-zA-Z_.!~*''()-]` : `[0-9a-zA-Z_.!~*''();,/?:@&=+$#-]`;
    return `(SELECT string_agg(CASE WHEN octet_length("_uri"."c") > 1 OR "_uri"."c" !~ '${kept}' THEN regexp_replace(encode(convert_to("_uri"."c", 'UTF8'), 'hex'), '(..)', '%\\1', 'g') ELSE "_uri"."c" END, '' ORDER BY "_uri"."n") FROM regexp_split_to_table(${expression}, '') WITH ORDINALITY AS "_uri"("c", "n"))`;
  }

  dateAsDateTime(expression: string): string {
    return `(CAST(${expression} AS timestamp) AT TIME ZONE 'UTC')`;
  }

  dateTimeAsDate(expression: string): string {
    return `CAST((${expression} AT TIME ZONE 'UTC') AS date)`;
  }

  readonly carriesNan = true;

  nan(): string {
    return `CAST('NaN' AS numeric)`;
  }

  isNan(expression: string): string {
    return `COALESCE(${expression} = CAST('NaN' AS numeric), FALSE)`;
  }

  nanGuard(_refs: string[], sql: string): string {
    return sql;
  }

  nanToNull(expression: string): string {
    return `NULLIF(${expression}, CAST('NaN' AS numeric))`;
  }

  nanAggregate(_element: string, aggregate: string): string {
    return aggregate;
  }

  arithmetic(op: string, a: string, b?: string): string {
    // numeric carries NaN itself; a division by zero (an error) is NaN.
    if (op === '/') return `COALESCE(${a} / NULLIF(${b}, 0), ${this.nan()})`;
    if (op === 'mod') return `COALESCE(mod(${a}, NULLIF(${b}, 0)), ${this.nan()})`;
    return b === undefined ? `${op}(${a})` : `(${a} ${op} ${b})`;
  }
}

/** A JSON key written into SQL: fixed words only. */
function jsonKey(key: string): string {
  if (!/^[a-z_]+$/.test(key)) throw new Error(`Unsafe JSON key: ${key}`);
  return key;
}

/**
 * A time zone (a text value) as PostgreSQL names it, NULL when it knows none of that name, so
 * `AT TIME ZONE` it answers NULL instead of raising (a subquery: never folded into a constant
 * that raises while planning).
 */
function postgresZone(timeZone: string): string {
  return `(SELECT "name" FROM pg_timezone_names WHERE lower("name") = lower(${timeZone}) LIMIT 1)`;
}

const MONTH_ABBREVIATIONS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ROMAN_MONTH_NUMERALS = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];

/**
 * PostgreSQL SQL reading a text by a to_timestamp plan, as `parseInstant` (sqlite/to-timestamp.ts)
 * reads it on SQLite: the regular expression's captures become the template's fields
 * (PostgreSQL's do_to_timestamp: the last of a field wins, 0 is unset, 12-hour clock, 2-digit
 * years near 2020, day of year), every range is checked before make_date/make_timestamp, so
 * no text raises an error.
 */
function postgresParseDate(text: string, template: string, plan: DateParsePlan, timeZone: string | null, dateOnly: boolean, bind: (value: string) => string): string {
  const cap = (g: number) => `"_p0"."m"[${g + 1}]`;
  const num = (g: number) => `CAST(${cap(g)} AS numeric)`;
  const digits = (g: number) => `length(ltrim(${cap(g)}, '+-'))`;
  const year: string[] = [];
  const month: string[] = [];
  const day: string[] = [];
  const doy: string[] = [];
  const hour: string[] = [];
  const twelve: string[] = [];
  const pm: string[] = [];
  const bc: string[] = [];
  const minute: string[] = [];
  const second: string[] = [];
  const ms: string[] = [];
  const us: string[] = [];
  const daySeconds: string[] = [];
  const integers: number[] = [];
  for (let g = 0; g < plan.groups.length; g++) {
    const { key } = plan.groups[g];
    if (key === 'MONTH' || key === 'MON') month.push(`CASE lower(substr(${cap(g)}, 1, 3)) ${MONTH_ABBREVIATIONS.map((m, i) => `WHEN '${m}' THEN ${i + 1}`).join(' ')} END`);
    else if (key === 'RM') month.push(`CASE upper(${cap(g)}) ${ROMAN_MONTH_NUMERALS.map((r, i) => `WHEN '${r}' THEN ${i + 1}`).join(' ')} END`);
    else if (key === 'AM') {
      twelve.push(`${cap(g)} IS NOT NULL`);
      pm.push(`lower(substr(${cap(g)}, 1, 1)) = 'p'`);
    } else if (key === 'BC') bc.push(`lower(substr(${cap(g)}, 1, 1)) = 'b'`);
    else if (key === 'Y,YYY') {
      year.push(`${num(g)} * 1000 + ${num(g + 1)}`);
      integers.push(g, g + 1);
      g++;
    } else {
      integers.push(g);
      if (key === 'YYYY') year.push(num(g));
      else if (key === 'YYY' || key === 'YY' || key === 'Y') {
        const v = num(g);
        year.push(`CASE WHEN length(${cap(g)}) < 4 THEN CASE WHEN ${v} < 70 THEN ${v} + 2000 WHEN ${v} < 100 THEN ${v} + 1900 WHEN ${v} < 520 THEN ${v} + 2000 WHEN ${v} < 1000 THEN ${v} + 1000 ELSE ${v} END ELSE ${v} END`);
      } else if (key === 'MM') month.push(num(g));
      else if (key === 'DD') day.push(num(g));
      else if (key === 'DDD') doy.push(num(g));
      else if (key === 'HH' || key === 'HH12') {
        hour.push(num(g));
        twelve.push(`${cap(g)} IS NOT NULL`);
      } else if (key === 'HH24') hour.push(num(g));
      else if (key === 'MI') minute.push(num(g));
      else if (key === 'SS') second.push(num(g));
      else if (key === 'MS') ms.push(`${num(g)} * CASE ${digits(g)} WHEN 1 THEN 100 WHEN 2 THEN 10 ELSE 1 END`);
      else if (key === 'SSSS' || key === 'SSSSS') daySeconds.push(num(g));
      else if (key === 'US' || key.startsWith('FF')) us.push(`CASE WHEN ${digits(g)} <= 6 THEN ${num(g)} * power(10, 6 - ${digits(g)}) ELSE ${num(g)} END`);
    }
  }
  // The last field given wins (PostgreSQL sets them in template order).
  const last = (values: string[], fallback = 'CAST(NULL AS numeric)') => (values.length ? `COALESCE(${[...values].reverse().join(', ')}, ${fallback})` : fallback);
  const integersOk = integers.map((g) => `(${cap(g)} IS NULL OR abs(${num(g)}) <= 2147483647)`).join(' AND ') || 'TRUE';
  const fields = [
    `("_p0"."m" IS NOT NULL AND ${integersOk}) AS "ok"`,
    `${last(year)} AS "yr"`,
    `${last(bc, 'FALSE')} AS "bc"`,
    `${last(month)} AS "mo"`,
    `${last(day)} AS "dd"`,
    `${last(doy)} AS "ddd"`,
    `${last(hour)} AS "hh"`,
    `${twelve.length ? `(${twelve.join(' OR ')})` : 'FALSE'} AS "c12"`,
    `${last(pm, 'FALSE')} AS "pm"`,
    `${last(minute)} AS "mi"`,
    `${last(second)} AS "ss"`,
    `${last(ms, '0')} * 1000 + ${last(us, '0')} AS "fr"`,
    `${last(daySeconds)} AS "sod"`,
  ];
  const level1 = `SELECT ${fields.join(', ')} FROM (SELECT regexp_match(${text}, ${bind(plan.regex)}) AS "m", ${template} AS "t") "_p0"`;
  const level2 = `SELECT "ok", "c12", "pm", "fr", "ddd",
    CASE WHEN COALESCE("yr", 0) = 0 THEN 0 WHEN "bc" THEN -"yr" ELSE "yr" END AS "y1",
    (COALESCE("yr", 0) <> 0 OR COALESCE("mo", 0) <> 0 OR COALESCE("dd", 0) <> 0 OR COALESCE("ddd", 0) <> 0) AS "dated",
    COALESCE(NULLIF("mo", 0), 1) AS "m0", COALESCE(NULLIF("dd", 0), 1) AS "d0",
    CASE WHEN COALESCE("hh", 0) <> 0 THEN "hh" WHEN COALESCE("sod", 0) <> 0 THEN trunc("sod" / 3600) ELSE 0 END AS "h0",
    CASE WHEN COALESCE("mi", 0) <> 0 THEN "mi" WHEN COALESCE("sod", 0) <> 0 THEN trunc(mod("sod", 3600) / 60) ELSE 0 END AS "mi0",
    CASE WHEN COALESCE("ss", 0) <> 0 THEN "ss" WHEN COALESCE("sod", 0) <> 0 THEN mod("sod", 60) ELSE 0 END AS "s0"
    FROM (${level1}) "_p1"`;
  const level3 = `SELECT "ok" AND (NOT "c12" OR "h0" BETWEEN 1 AND 12) AS "ok", "dated", "m0", "d0", "mi0", "s0", "fr", "ddd",
    CASE WHEN "y1" < 0 THEN "y1" + 1 ELSE "y1" END AS "y",
    CASE WHEN "c12" AND "pm" AND "h0" < 12 THEN "h0" + 12 WHEN "c12" AND NOT "pm" AND "h0" = 12 THEN 0 ELSE "h0" END AS "h",
    (COALESCE("ddd", 0) <> 0 AND ("m0" <= 1 OR "d0" <= 1)) AS "useddd"
    FROM (${level2}) "_p2"`;
  const level4 = `SELECT "ok" AND (NOT "useddd" OR "y" >= 1) AS "ok", "dated", "h", "mi0", "s0", "fr", "y", "useddd", "m0", "d0",
    CASE WHEN "useddd" AND "y" BETWEEN 1 AND 9999 AND abs("ddd") < 10000000 THEN make_date(CAST("y" AS integer), 1, 1) + CAST("ddd" - 1 AS integer) END AS "dx"
    FROM (${level3}) "_p3"`;
  const level5 = `SELECT "ok", "dated", "h", "mi0", "s0", "fr",
    CASE WHEN "useddd" THEN EXTRACT(YEAR FROM "dx") ELSE "y" END AS "yf",
    CASE WHEN "useddd" THEN EXTRACT(MONTH FROM "dx") ELSE "m0" END AS "mf",
    CASE WHEN "useddd" THEN EXTRACT(DAY FROM "dx") ELSE "d0" END AS "df"
    FROM (${level4}) "_p4"`;
  const daysInMonth = `CASE WHEN "mf" IN (4, 6, 9, 11) THEN 30 WHEN "mf" = 2 THEN CASE WHEN mod("yf", 4) = 0 AND (mod("yf", 100) <> 0 OR mod("yf", 400) = 0) THEN 29 ELSE 28 END ELSE 31 END`;
  const valid = [
    `"ok"`,
    `"yf" BETWEEN 1 AND 9999`,
    `(NOT "dated" OR ("mf" BETWEEN 1 AND 12 AND "df" BETWEEN 1 AND ${daysInMonth}))`,
    `"h" BETWEEN 0 AND 23`,
    `"mi0" BETWEEN 0 AND 59`,
    `"s0" BETWEEN 0 AND 59`,
    `"fr" BETWEEN 0 AND 999999`,
  ].join(' AND ');
  const date = `CAST("yf" AS integer), CAST("mf" AS integer), CAST("df" AS integer)`;
  const value = dateOnly
    ? `make_date(${date})`
    : `make_timestamp(${date}, CAST("h" AS integer), CAST("mi0" AS integer), CAST("s0" + "fr" / 1000000.0 AS double precision)) AT TIME ZONE ${timeZone === null ? `'UTC'` : postgresZone(timeZone)}`;
  return `(SELECT CASE WHEN ${valid} THEN ${value} END FROM (${level5}) "_p5")`;
}

/**
 * PostgreSQL SQL of a text's interval seconds, read as `intervalSeconds` (sqlite/intervals.ts)
 * reads it: the whole text checked by INTERVAL_TEXT, its items (INTERVAL_ITEM) summed (each
 * unit once, a time `h:mm:ss` not with hours, minutes or seconds, bare seconds last), so no
 * text raises PostgreSQL's interval errors.
 */
function postgresIntervalSeconds(text: string, bind: (value: string) => string): string {
  const m = (k: number) => `"_i"."m"[${k}]`;
  const q = `CAST(${m(1)} AS numeric)`;
  const byWord = (value: (unit: (typeof INTERVAL_UNITS)[string]) => string) =>
    `CASE lower(${m(2)}) ${Object.entries(INTERVAL_UNITS)
      .map(([word, unit]) => `WHEN '${word}' THEN ${value(unit)}`)
      .join(' ')} END`;
  const slot = `CASE WHEN ${m(1)} IS NOT NULL THEN ${byWord((u) => `'${u.slot}'`)} WHEN ${m(4)} IS NOT NULL THEN 'time' ELSE 'second' END`;
  const months = `CASE WHEN ${m(1)} IS NOT NULL THEN ${byWord((u) => (!u.months ? '0' : u.months >= 12 ? `trunc(${q}) * ${u.months} + round((${q} - trunc(${q})) * ${u.months})` : `trunc(${q})`))} ELSE 0 END`;
  const days = `CASE WHEN ${m(1)} IS NOT NULL THEN ${byWord((u) => (u.months ? (u.months >= 12 ? '0' : `(${q} - trunc(${q})) * 30`) : u.days ? `${q} * ${u.days}` : '0'))} ELSE 0 END`;
  const seconds = `CASE WHEN ${m(1)} IS NOT NULL THEN ${byWord((u) => (u.seconds ? `${q} * ${u.seconds}` : '0'))} WHEN ${m(4)} IS NOT NULL THEN (CASE WHEN ${m(3)} = '-' THEN -1 ELSE 1 END) * (CAST(${m(4)} AS numeric) * 3600 + CAST(${m(5)} AS numeric) * 60 + COALESCE(CAST(${m(6)} AS numeric), 0)) ELSE CAST(${m(7)} AS numeric) END`;
  const items = `SELECT ${slot} AS "slot", (${m(7)} IS NOT NULL) AS "bare", "_i"."n" AS "n", ${months} AS "months", ${days} AS "days", ${seconds} AS "seconds" FROM regexp_matches(${text}, ${bind(INTERVAL_ITEM)}, 'g') WITH ORDINALITY AS "_i"("m", "n")`;
  const valid = `bool_and("slot" IS NOT NULL) AND count(DISTINCT "slot") = count(*) AND NOT (bool_or("slot" = 'time') AND bool_or("slot" IN ('hour', 'minute', 'second'))) AND COALESCE(max(CASE WHEN "bare" THEN "n" END) = max("n"), TRUE)`;
  const years = `trunc(sum("months") / 12)`;
  const total = `(CASE WHEN ${text} ~ '[aA][gG][oO][ \\t]*$' THEN -1 ELSE 1 END) * ((${years} * 365 + (sum("months") - ${years} * 12) * 30 + sum("days")) * 86400 + sum("seconds"))`;
  return `CASE WHEN ${text} ~ ${bind(INTERVAL_TEXT)} THEN (SELECT CASE WHEN ${valid} THEN ${total} END FROM (${items}) "_j") END`;
}

/** The formula SQL of the database in use. */
export function formulaDialect(dialect: Dialect): FormulaDialect {
  return dialect.name === 'postgres' ? new PostgresFormulaDialect() : new SqliteFormulaDialect();
}
