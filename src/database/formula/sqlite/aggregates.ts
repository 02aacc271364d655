import type { SqliteFunctions } from '../../../core/database/sqlite-functions';

export const AGGREGATE_SQLITE_FUNCTIONS: SqliteFunctions = {
  // var_pop / var_samp / stddev_pop / stddev_samp, over json_group_array(value).
  formula_variance: { fn: variance },
};

/** var_pop, var_samp, stddev_pop or stddev_samp of the numbers of a JSON array (nulls left out); NULL without enough of them. */
function variance(json: unknown, sample: unknown, root: unknown): number | null {
  if (json == null) return null;
  const values = (JSON.parse(String(json)) as unknown[]).filter((v) => v !== null).map(Number);
  const n = values.length;
  if (n === 0 || (sample && n < 2)) return null;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const squares = values.reduce((a, b) => a + (b - mean) ** 2, 0);
  const result = squares / (sample ? n - 1 : n);
  return root ? Math.sqrt(result) : result;
}
