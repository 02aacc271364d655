import { NULL_NOT_ALLOWED, ParseResult, failed, parsed } from './common';

/**
 * Boolean cells: Baserow's `BaserowBooleanField`, a DRF BooleanField whose TRUE/FALSE_VALUES
 * are `BASEROW_BOOLEAN_FIELD_TRUE/FALSE_VALUES` (DRF's lists plus "checked"/"unchecked").
 * Matching is exact (`in list`): only the listed case variants, no trimming. Python's
 * `1.0 == 1` makes the numbers 1 and 0 match too; `null` is rejected (allow_null is false).
 */

// prettier-ignore
export const BOOLEAN_TRUE_STRINGS: readonly string[] = [
  't', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1', 'checked',
];
// prettier-ignore
export const BOOLEAN_FALSE_STRINGS: readonly string[] = [
  'f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0', 'unchecked',
];

export function parseBoolean(value: unknown): ParseResult<boolean> {
  if (value === null || value === undefined) return { ok: false, errors: [NULL_NOT_ALLOWED] };
  if (value === true || value === 1) return parsed(true);
  if (value === false || value === 0) return parsed(false);
  if (typeof value === 'string') {
    if (BOOLEAN_TRUE_STRINGS.includes(value)) return parsed(true);
    if (BOOLEAN_FALSE_STRINGS.includes(value)) return parsed(false);
  }
  return failed('Must be a valid boolean.');
}

/** The text → boolean rule of a field conversion (`lower(value) IN (true values)`), false otherwise. */
export function textToBoolean(text: string | null): boolean {
  if (text === null) return false;
  const lower = text.toLowerCase();
  return BOOLEAN_TRUE_STRINGS.some((t) => t.toLowerCase() === lower);
}
