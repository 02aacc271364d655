import type { SqliteFunctions } from '../../../core/database/sqlite-functions';

export const NUMBER_SQLITE_FUNCTIONS: SqliteFunctions = {
  // round(numeric, n), n < 0 rounding left of the point.
  formula_round: { fn: roundDecimal },
  // numeric a + b, a - b, a * b, a / b, mod(a, b), abs, trunc, ceil, floor, sign with PostgreSQL's NaN (here the text 'NaN'); a division by 0 is NaN.
  formula_numeric: { fn: numericOperation, varargs: true },
};

/** round(numeric, n): half away from zero at the n-th decimal (n < 0: left of the point), by the decimal digits written; NULL beyond 1000 places. */
function roundDecimal(value: unknown, places: unknown): number | null {
  if (value == null || places == null) return null;
  const x = Number(value);
  const n = Math.trunc(Number(places));
  if (!Number.isFinite(x) || !Number.isFinite(n) || Math.abs(n) > 1000) return null;
  // Shifting the decimal point in the written digits (1.005 rounds to 1.01, not 1.00).
  const [mantissa, exponent = '0'] = String(Math.abs(x)).split('e');
  const scaled = Number(`${mantissa}e${Number(exponent) + n}`);
  if (!Number.isFinite(scaled) || scaled >= 1e21) return x;
  const rounded = Number(`${Math.round(scaled)}e${-n}`);
  return x < 0 ? -rounded : rounded;
}

/** A formula's number operation (see formula_numeric): NULL for NULL, 'NaN' for NaN or a division by zero. */
function numericOperation(op: unknown, a: unknown, b: unknown = 0): number | string | null {
  if (a == null || b == null) return null;
  if (a === 'NaN' || b === 'NaN') return 'NaN';
  const result = numericResult(op, Number(a), Number(b));
  // PostgreSQL's numeric has no -0, and its NaN is the text 'NaN' here.
  return result === null ? null : Number.isNaN(result) ? 'NaN' : result === 0 ? 0 : result;
}

function numericResult(op: unknown, x: number, y: number): number | null {
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return y === 0 ? NaN : x / y;
    case 'mod':
      return y === 0 ? NaN : x % y;
    case 'abs':
      return Math.abs(x);
    case 'trunc':
      return Math.trunc(x);
    case 'ceil':
      return Math.ceil(x);
    case 'floor':
      return Math.floor(x);
    case 'sign':
      return Math.sign(x);
    default:
      return null;
  }
}
