import Database from 'better-sqlite3';
import { Client } from 'pg';
import { dialectFor } from '../../src/core/database/dialect';
import { Sql } from '../../src/core/database/sql';
import { installSqliteFunctions } from '../../src/core/database/sqlite-functions';
import { SQLITE_FUNCTIONS_MODULE } from '../../src/database/formula/sqlite';
import type { FieldEntity } from '../../src/database/fields/field.entity';
import { FormulaCompiler } from '../../src/database/formula/compiler';
import { formulaDialect } from '../../src/database/formula/formula-dialect';
import type { FormulaType } from '../../src/database/formula/formula-type';
import { FORMULA_FUNCTIONS } from '../../src/database/formula/functions';
import { FormulaFunctionRegistry } from '../../src/database/formula/functions/function';
import { parseFormula } from '../../src/database/formula/parser';
import { FORMULA_REGEXP_REPLACE_FUNCTION } from '../../src/migrations/1737021000000-FormulaRegexReplace';
import { TEST_DB } from './app';

/**
 * Evaluates formulas straight on the test database (SQLite in memory, or a scratch
 * PostgreSQL schema), without the app: for the formula functions' own tests. Table 1 has the
 * fields below and one row (values given per call); its link field `Link` (id 10) links to
 * rows of table 2 (`Name` text id 20 primary, `Amount` number 2 places id 21), in that order.
 */
export interface TableOneRow {
  Text?: string | null;
  Num?: number | null;
  Bool?: boolean;
  Date?: string | null;
  DateTime?: string | null;
  Dur?: number | null;
  /** Rows of table 2 the row links to, in order. */
  Link?: { Name: string | null; Amount: number | null }[];
}

const field = (id: number, tableId: number, name: string, type: string, properties: Record<string, unknown> = {}, primary = false): FieldEntity =>
  ({ id, tableId, name, type, primary, order: id, description: null, dbIndex: false, fieldConstraints: [], properties, createdOn: new Date(), trashed: false }) as FieldEntity;

const TABLE_1 = [
  field(1, 1, 'Text', 'text', {}, true),
  field(2, 1, 'Num', 'number', { number_decimal_places: 2, number_negative: true }),
  field(3, 1, 'Bool', 'boolean'),
  field(4, 1, 'Date', 'date', { date_format: 'ISO', date_include_time: false }),
  field(5, 1, 'DateTime', 'date', { date_format: 'ISO', date_include_time: true, date_time_format: '24' }),
  field(6, 1, 'Dur', 'duration', { duration_format: 'h:mm:ss' }),
  field(10, 1, 'Link', 'link_row', { link_row_table_id: 2, relation_id: 10, side: 'a' }),
];
const TABLE_2 = [field(20, 2, 'Name', 'text', {}, true), field(21, 2, 'Amount', 'number', { number_decimal_places: 2, number_negative: true })];

export interface FormulaResult {
  type: FormulaType;
  /** The value as the database answers the compiled SQL (arrays: their JSON items, parsed). */
  value: unknown;
  sql: string;
}

export class FormulaEval {
  private constructor(
    readonly kind: 'sqlite' | 'postgres',
    private readonly run: (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>,
    private readonly end: () => Promise<void>,
  ) {}

  static async open(kind: 'sqlite' | 'postgres' = TEST_DB): Promise<FormulaEval> {
    const ddl = (t: { text: string; num: string; bool: string; date: string; datetime: string; real: string; serial: string }) => [
      `CREATE TABLE "database_table_1" ("id" INTEGER PRIMARY KEY, "order" ${t.num}, "created_on" ${t.datetime}, "updated_on" ${t.datetime}, "trashed" ${t.bool} NOT NULL DEFAULT FALSE, "field_1" ${t.text}, "field_2" ${t.num}, "field_3" ${t.bool}, "field_4" ${t.date}, "field_5" ${t.datetime}, "field_6" ${t.real})`,
      `CREATE TABLE "database_table_2" ("id" INTEGER PRIMARY KEY, "order" ${t.num}, "trashed" ${t.bool} NOT NULL DEFAULT FALSE, "field_20" ${t.text}, "field_21" ${t.num})`,
      `CREATE TABLE "database_relation_10" ("id" ${t.serial}, "row_a" INTEGER NOT NULL, "row_b" INTEGER NOT NULL)`,
      `CREATE TABLE "database_select_option" ("id" INTEGER PRIMARY KEY, "field_id" INTEGER, "value" ${t.text}, "color" ${t.text}, "order" INTEGER)`,
    ];
    if (kind === 'sqlite') {
      const db = new Database(':memory:');
      installSqliteFunctions(db as never, [SQLITE_FUNCTIONS_MODULE]);
      for (const statement of ddl({ text: 'TEXT', num: 'REAL', bool: 'INTEGER', date: 'TEXT', datetime: 'TEXT', real: 'REAL', serial: 'INTEGER PRIMARY KEY' })) db.exec(statement);
      return new FormulaEval(
        kind,
        async (sql, params) => (/^\s*select/i.test(sql) ? (db.prepare(sql).all(...(params as never[])) as Record<string, unknown>[]) : (db.prepare(sql).run(...(params as never[])), [])),
        async () => void db.close(),
      );
    }
    const client = new Client({ connectionString: `${process.env.ROWSPACE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432'}/postgres` });
    await client.connect();
    const schema = `formula_eval_${process.pid}_${Date.now()}`;
    await client.query(`CREATE SCHEMA "${schema}"`);
    await client.query(`SET search_path TO "${schema}"`);
    await client.query(`SET TimeZone TO 'UTC'`);
    for (const oid of [1082, 1114, 1184]) client.setTypeParser(oid, (value: string) => value);
    for (const statement of ddl({ text: 'text', num: 'numeric(60, 10)', bool: 'boolean', date: 'date', datetime: 'timestamptz', real: 'double precision', serial: 'SERIAL PRIMARY KEY' })) await client.query(statement);
    // The function the migration FormulaRegexReplace makes (the formulas' regex_replace).
    await client.query(FORMULA_REGEXP_REPLACE_FUNCTION);
    return new FormulaEval(
      kind,
      async (sql, params) => (await client.query(sql, params)).rows,
      async () => {
        await client.query(`DROP SCHEMA "${schema}" CASCADE`);
        await client.end();
      },
    );
  }

  /** Compiles `formula` for table 1 and evaluates it for one row with `row`'s values (texts up to `maxTextLength`, FORMULA_MAX_TEXT_LENGTH). */
  async eval(formula: string, row: TableOneRow = {}, maxTextLength?: number): Promise<FormulaResult> {
    const dialect = dialectFor(this.kind);
    const registry = new FormulaFunctionRegistry();
    for (const fn of FORMULA_FUNCTIONS) registry.register(fn);
    const compiler = new FormulaCompiler(registry, formulaDialect(dialect), maxTextLength);
    const sql = new Sql(dialect, { numbered: true });
    const compiled = compiler.compile(parseFormula(formula), { tableId: 1, fields: TABLE_1, fieldsOf: (id) => (id === 1 ? TABLE_1 : TABLE_2), selfId: null }, sql);
    const { expr } = compiled;
    if (expr.type.name === 'invalid') return { type: expr.type, value: undefined, sql: expr.sql };
    await this.reset(row);
    const select = expr.relation ? formulaDialect(dialect).jsonItems(expr.relation, this.jsonValue(expr)) : expr.sql;
    const [result] = await this.run(`SELECT ${select} AS "v" FROM "database_table_1" "t" WHERE "t"."id" = 1`, sql.bindings());
    let value = result.v;
    if (expr.relation && typeof value === 'string') value = JSON.parse(value);
    return { type: expr.type, value, sql: select };
  }

  private jsonValue(expr: { type: FormulaType; sql: string }): string {
    const db = formulaDialect(dialectFor(this.kind));
    const sub = expr.type.sub!;
    if (sub.name === 'number') return db.jsonNumber(expr.sql, Number(sub.props.number_decimal_places ?? 0));
    if (sub.name === 'boolean') return db.jsonBoolean(expr.sql);
    return db.jsonText(expr.sql);
  }

  private async reset(row: TableOneRow): Promise<void> {
    const bool = (b: boolean | undefined) => (this.kind === 'sqlite' ? (b ? 1 : 0) : !!b);
    const p = (i: number) => (this.kind === 'sqlite' ? '?' : `$${i}`);
    for (const table of ['database_table_1', 'database_table_2', 'database_relation_10']) await this.run(`DELETE FROM "${table}"`, []);
    const now = '2024-01-02T03:04:05.000Z';
    await this.run(
      `INSERT INTO "database_table_1" ("id", "order", "created_on", "updated_on", "field_1", "field_2", "field_3", "field_4", "field_5", "field_6") VALUES (1, 1, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)})`,
      [now, now, row.Text ?? null, row.Num ?? null, bool(row.Bool), row.Date ?? null, row.DateTime ?? null, row.Dur ?? null],
    );
    let id = 0;
    for (const linked of row.Link ?? []) {
      id += 1;
      await this.run(`INSERT INTO "database_table_2" ("id", "order", "field_20", "field_21") VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`, [id, id, linked.Name, linked.Amount]);
      await this.run(`INSERT INTO "database_relation_10" ("row_a", "row_b") VALUES (1, ${p(1)})`, [id]);
    }
  }

  close(): Promise<void> {
    return this.end();
  }
}
