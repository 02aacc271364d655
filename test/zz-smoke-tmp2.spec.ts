import { FormulaEval } from './support/formula-eval';
import { dialectFor } from '../src/core/database/dialect';
import { Sql } from '../src/core/database/sql';
import { FormulaCompiler } from '../src/database/formula/compiler';
import { formulaDialect } from '../src/database/formula/formula-dialect';
import { FORMULA_FUNCTIONS } from '../src/database/formula/functions';
import { FormulaFunctionRegistry } from '../src/database/formula/functions/function';
import { parseFormula } from '../src/database/formula/parser';
test('sql', () => {
  const kind = (process.env.ROWSPACE_TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres';
  const registry = new FormulaFunctionRegistry();
  for (const fn of FORMULA_FUNCTIONS) registry.register(fn);
  const compiler = new FormulaCompiler(registry, formulaDialect(dialectFor(kind)));
  const sql = new Sql(dialectFor(kind));
  const c = compiler.compile(parseFormula(process.env.F!), { tableId: 1, fields: [], fieldsOf: () => [], selfId: null }, sql);
  console.log(c.expr.sql, sql.params, JSON.stringify(c.expr.type));
  require("fs").writeFileSync("/tmp/q.json", JSON.stringify({ sql: c.expr.sql, params: sql.params }));
  void FormulaEval;
});
