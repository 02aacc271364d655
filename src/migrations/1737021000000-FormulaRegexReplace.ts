import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PostgreSQL: the formula language's regex_replace as one function (Baserow's
 * `try_regexp_replace`): every match replaced, `#ERROR!` for a pattern PostgreSQL refuses
 * (one read from a cell; literal ones are checked when the formula is typed) or one SQLite's
 * linear-time engine cannot run (back-references, lookahead: refused on both databases), and
 * `#ERROR!` for a text or result longer than `max_length`, or when the result could pass ten
 * times it (the bound of FormulaDialect.regexReplace, checked before the result is built). SQLite's twin is the
 * JavaScript `regexp_replace` with a fifth argument (src/database/formula/sqlite/regex.ts).
 */
export const FORMULA_REGEXP_REPLACE_FUNCTION = `CREATE OR REPLACE FUNCTION formula_regexp_replace(t text, p text, r text, max_length integer) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  kept text;
  matches bigint;
  result text;
BEGIN
  IF t IS NULL OR p IS NULL OR r IS NULL THEN RETURN NULL; END IF;
  IF length(t) > max_length OR p ~ '\\\\[1-9]|\\(\\?[=!]' THEN RETURN '#ERROR!'; END IF;
  kept := regexp_replace(t, p, '', 'g');
  SELECT count(*) INTO matches FROM regexp_matches(t, p, 'g');
  IF length(kept) + matches * length(r) + (length(r) - length(replace(r, '\\', ''))) * (length(t) - length(kept)) > 10 * max_length THEN RETURN '#ERROR!'; END IF;
  result := regexp_replace(t, p, r, 'g');
  RETURN CASE WHEN length(result) > max_length THEN '#ERROR!' ELSE result END;
EXCEPTION WHEN invalid_regular_expression THEN
  RETURN '#ERROR!';
END
$$`;

export class FormulaRegexReplace1737021000000 implements MigrationInterface {
  name = 'FormulaRegexReplace1737021000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'postgres') return;
    await q.query(FORMULA_REGEXP_REPLACE_FUNCTION);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'postgres') return;
    await q.query('DROP FUNCTION IF EXISTS formula_regexp_replace(text, text, text, integer)');
  }
}
