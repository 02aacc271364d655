/**
 * Database ids and integers are 32-bit signed (`serial`/`integer` on PostgreSQL). A value
 * beyond the range can never name a row, so it is answered as not found (ids) or as a
 * validation error (other integers) before it reaches a query: PostgreSQL refuses it as a
 * bound integer parameter, SQLite would silently compare it.
 */
export const INT32_MAX = 2147483647;

/** A positive id from a digit string or a number, or null when it cannot name a row. */
export function databaseId(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 && id <= INT32_MAX ? id : null;
}

/** What an id beyond the 32-bit range becomes: no row has it, so the lookup answers not found. */
export const NO_ID = 0;

/** Whether an integer can be bound as a 32-bit id parameter (one outside the range names no row). */
export function inIdRange(id: number): boolean {
  return Number.isInteger(id) && id >= -INT32_MAX - 1 && id <= INT32_MAX;
}
