import { ParseResult, failed, parsed, pythonLen, pythonStrip } from './common';

/**
 * Number cells, as Baserow's NumberFieldType serializer field parses them: a DRF
 * `DecimalField(decimal_places=N, max_digits=50+N, min_value=0 unless negative, allow_null)`.
 * DRF rejects (never rounds) input with more decimal places than N, counting trailing zeros
 * ("1.50" has two), and answers `'{:f}'` of the value quantized to N places. Everything here
 * works on digit strings and BigInt, so 50-digit values survive.
 */

/** A finite decimal as Python's `Decimal` holds it: trailing zeros are kept in `coefficient`. */
export interface DecimalParts {
  negative: boolean;
  /** The digits without leading zeros ("0" for zero). */
  coefficient: string;
  exponent: bigint;
}

// After `_` removal (Decimal drops every underscore), Python's numeric-string grammar.
const DECIMAL_RE = /^([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;
// Beyond this exponent CPython's decimal raises InvalidOperation.
const MAX_EXPONENT = 999999999999999999n;

/** `Decimal(text)` for finite values; null where Python raises or gives NaN/Infinity. */
export function parseDecimalParts(text: string): DecimalParts | null {
  const m = DECIMAL_RE.exec(pythonStrip(text).replace(/_/g, ''));
  if (!m) return null;
  const [, sign, intDigits, fracAfterInt, fracOnly, exp] = m;
  const frac = fracAfterInt ?? fracOnly ?? '';
  const exponent = BigInt(exp ?? '0') - BigInt(frac.length);
  if (exponent > MAX_EXPONENT || exponent < -MAX_EXPONENT) return null;
  const coefficient = ((intDigits ?? '') + frac).replace(/^0+/, '') || '0';
  return { negative: sign === '-', coefficient, exponent };
}

/** Rounds (half-even, Python's default context) to `places` decimals; answers the scaled integer. */
function quantize(parts: DecimalParts, places: number): bigint {
  const target = -BigInt(places);
  const coefficient = BigInt(parts.coefficient);
  if (parts.exponent >= target) return coefficient * 10n ** (parts.exponent - target);
  const divisor = 10n ** (target - parts.exponent);
  let quotient = coefficient / divisor;
  const twice = (coefficient % divisor) * 2n;
  if (twice > divisor || (twice === divisor && quotient % 2n === 1n)) quotient += 1n;
  return quotient;
}

/** `'{:f}'` of a scaled integer with `places` decimals; zero is never signed (PostgreSQL has no -0). */
function fixed(negative: boolean, scaled: bigint, places: number): string {
  let digits = scaled.toString();
  if (places > 0) {
    digits = digits.padStart(places + 1, '0');
    digits = `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  }
  return negative && scaled !== 0n ? `-${digits}` : digits;
}

/** A decimal string rounded half-even to `places` decimals (`"2.675"`, 2 → `"2.68"`); null if not a number. */
export function quantizeDecimal(text: string, places: number): string | null {
  const parts = parseDecimalParts(text);
  return parts ? fixed(parts.negative, quantize(parts, places), places) : null;
}

export interface DecimalOptions {
  decimalPlaces: number;
  negative: boolean;
  /** `NumberFieldType.MAX_DIGITS`: whole digits allowed (max_digits = this + decimal places). */
  maxIntegerDigits?: number;
}

const MAX_STRING_LENGTH = 1000;

/**
 * A request value for a number field → the canonical decimal string quantized to
 * `decimalPlaces` (`"10"`, `"10.50"`), or null for null, `""` and blank strings.
 */
export function parseDecimal(value: unknown, opts: DecimalOptions): ParseResult<string | null> {
  if (value === null || value === undefined) return parsed(null);
  // DRF feeds `smart_str(data)` to Decimal: anything but strings and numbers ("True", "[1]") is invalid.
  let text: string;
  if (typeof value === 'string') text = pythonStrip(value);
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else return failed('A valid number is required.');
  if (text === '') return parsed(null);
  if (pythonLen(text) > MAX_STRING_LENGTH) return failed('String value too large.', 'max_string_length');

  const parts = parseDecimalParts(text);
  if (!parts) return failed('A valid number is required.');

  // DRF's validate_precision, on Decimal's own (coefficient, exponent) view of the input.
  const places = BigInt(opts.decimalPlaces);
  const maxWhole = BigInt(opts.maxIntegerDigits ?? 50);
  const maxDigits = maxWhole + places;
  const length = BigInt(parts.coefficient.length);
  let total: bigint, whole: bigint, decimals: bigint;
  if (parts.exponent >= 0n) {
    total = length + parts.exponent;
    whole = total;
    decimals = 0n;
  } else if (length > -parts.exponent) {
    total = length;
    whole = length + parts.exponent;
    decimals = -parts.exponent;
  } else {
    total = -parts.exponent;
    whole = 0n;
    decimals = total;
  }
  if (total > maxDigits) return failed(`Ensure that there are no more than ${maxDigits} digits in total.`, 'max_digits');
  if (decimals > places) {
    return failed(`Ensure that there are no more than ${places} decimal places.`, 'max_decimal_places');
  }
  if (whole > maxWhole) {
    return failed(`Ensure that there are no more than ${maxWhole} digits before the decimal point.`, 'max_whole_digits');
  }

  const scaled = quantize(parts, opts.decimalPlaces);
  // MinValueValidator(Decimal("0")) runs on the quantized value; -0 is not below 0.
  if (!opts.negative && parts.negative && scaled !== 0n) {
    return failed('Ensure this value is greater than or equal to 0.', 'min_value');
  }
  return parsed(fixed(parts.negative, scaled, opts.decimalPlaces));
}

/**
 * A stored number (PostgreSQL numeric text, or a SQLite REAL) → the response string, quantized
 * to `decimalPlaces` like DRF's `to_representation` (half-even). Unparseable input is returned as text.
 */
export function formatDecimal(raw: string | number | null | undefined, decimalPlaces: number): string | null {
  if (raw === null || raw === undefined) return null;
  const text = typeof raw === 'number' ? String(raw) : raw;
  return plainDecimal(text, decimalPlaces) ?? quantizeDecimal(text, decimalPlaces) ?? text;
}

// A plain decimal as stored values mostly are (`12`, `-3.5`, PostgreSQL's `1.50`): no exponent, no leading zero.
const PLAIN_DECIMAL = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?$/;

/**
 * The common case of `formatDecimal` without BigInt arithmetic (a listing formats every cell):
 * a plain decimal with no more than `places` decimals is only padded with zeros. Null otherwise.
 */
function plainDecimal(text: string, places: number): string | null {
  const m = PLAIN_DECIMAL.exec(text);
  if (!m) return null;
  const fraction = m[3] ?? '';
  if (fraction.length > places) return null;
  const sign = m[1] && (m[2] !== '0' || /[1-9]/.test(fraction)) ? '-' : '';
  return places > 0 ? `${sign}${m[2]}.${fraction.padEnd(places, '0')}` : `${sign}${m[2]}`;
}
