import type { Dialect } from '../../core/database/dialect';
import type { ArrayRelation } from './expr';

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
  /** A decimal literal (digits, optional point and digits; checked by the caller) as a number value. */
  number(literal: string): string;
  /** Any SQL value as a number value (a number column, an integer column, a boolean). */
  toNumber(expression: string): string;
  /** A text as a number, NULL when it is not one (Baserow's `tonumber`). */
  parseNumber(expression: string): string;
  /** A number rounded to `places` decimals (half away from zero), as stored in a column of that scale. */
  round(expression: string, places: number): string;
  /** A number value as text with exactly `places` decimals (`1.50`), NULL stays NULL. */
  numberText(expression: string, places: number): string;
  /** Text length in characters. */
  length(expression: string): string;
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
   * formulas can aggregate a lookup field of their own table. `alias` names its rows.
   */
  storedArray(column: string, alias: string): { relation: ArrayRelation; value: string };
  /** A text value read from a stored array element's `value`, cast to the element type's SQL. */
  fromJsonValue(value: string, kind: 'text' | 'number' | 'boolean' | 'date' | 'datetime'): string;
  /** The text of `key` (a fixed word) of a JSON object value (a link's `url`, `label`), NULL when absent. */
  jsonGetText(expression: string, key: string): string;
  /** Whether `text` matches the regular expression `pattern` (PostgreSQL's `~`; on SQLite JavaScript's syntax, so use patterns both read alike). */
  regexMatches(text: string, pattern: string): string;
  /**
   * Baserow's `try_encode_uri` (`component`: `try_encode_uri_component`): every character but
   * the kept ones as lowercase `%xx` of its UTF-8 bytes; NULL stays NULL.
   */
  encodeUri(expression: string, component: boolean): string;
  /** A date value as the datetime of its midnight UTC (to compare or mix dates with datetimes). */
  dateAsDateTime(expression: string): string;
  /** A datetime value as its date in UTC. */
  dateTimeAsDate(expression: string): string;
  /** A number value with NaN as NULL (PostgreSQL's numeric NaN; SQLite has none). */
  nanToNull(expression: string): string;
}

class SqliteFormulaDialect implements FormulaDialect {
  readonly name = 'sqlite' as const;

  number(literal: string): string {
    return `CAST(${literal} AS REAL)`;
  }

  toNumber(expression: string): string {
    return `CAST(${expression} AS REAL)`;
  }

  parseNumber(expression: string): string {
    const trimmed = `trim(${expression})`;
    return `CASE WHEN ${trimmed} GLOB '[+-][0-9]*' OR ${trimmed} GLOB '[0-9]*' OR ${trimmed} GLOB '[+-].[0-9]*' OR ${trimmed} GLOB '.[0-9]*' THEN CASE WHEN CAST(${trimmed} AS REAL) || '' = '' THEN NULL ELSE CAST(${trimmed} AS REAL) END END`;
  }

  round(expression: string, places: number): string {
    return `ROUND(${expression}, ${Math.trunc(places)})`;
  }

  numberText(expression: string, places: number): string {
    return `CASE WHEN ${expression} IS NULL THEN NULL ELSE printf('%.${Math.trunc(places)}f', ${expression}) END`;
  }

  length(expression: string): string {
    return `length(${expression})`;
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
    return `CAST(${expression} AS REAL)`;
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

  storedArray(column: string, alias: string): { relation: ArrayRelation; value: string } {
    return {
      relation: { from: `json_each(${column}) ${alias}`, where: [], order: `${alias}."key"`, id: `json_extract(${alias}."value", '$.id')` },
      value: `json_extract(${alias}."value", '$.value')`,
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

  encodeUri(expression: string, component: boolean): string {
    return `${component ? 'try_encode_uri_component' : 'try_encode_uri'}(${expression})`;
  }

  dateAsDateTime(expression: string): string {
    return `(${expression} || 'T00:00:00.000Z')`;
  }

  dateTimeAsDate(expression: string): string {
    return `substr(${expression}, 1, 10)`;
  }

  nanToNull(expression: string): string {
    return expression;
  }
}

class PostgresFormulaDialect implements FormulaDialect {
  readonly name = 'postgres' as const;

  number(literal: string): string {
    return `CAST(${literal} AS numeric)`;
  }

  toNumber(expression: string): string {
    return `CAST(${expression} AS numeric)`;
  }

  parseNumber(expression: string): string {
    const trimmed = `btrim(${expression})`;
    return `CASE WHEN ${trimmed} ~ '^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)$' THEN CAST(${trimmed} AS numeric) END`;
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

  storedArray(column: string, alias: string): { relation: ArrayRelation; value: string } {
    return {
      relation: { from: `jsonb_array_elements(${column}) WITH ORDINALITY ${alias}("v", "n")`, where: [], order: `${alias}."n"`, id: `CAST(${alias}."v"->>'id' AS integer)` },
      value: `${alias}."v"->>'value'`,
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

  nanToNull(expression: string): string {
    return `NULLIF(${expression}, CAST('NaN' AS numeric))`;
  }
}

/** A JSON key written into SQL: fixed words only. */
function jsonKey(key: string): string {
  if (!/^[a-z_]+$/.test(key)) throw new Error(`Unsafe JSON key: ${key}`);
  return key;
}

/** The formula SQL of the database in use. */
export function formulaDialect(dialect: Dialect): FormulaDialect {
  return dialect.name === 'postgres' ? new PostgresFormulaDialect() : new SqliteFormulaDialect();
}
