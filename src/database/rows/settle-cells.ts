/**
 * Replaces the cells of prepared rows that are still promises (work of a type that
 * `preparesOffLoop`, e.g. password hashes) with their values, all awaited together: a batch of
 * 200 passwords is hashed on every thread of libuv's pool at once, not one hash after another.
 */
export async function settleCells(rows: Record<string, unknown>[]): Promise<void> {
  const pending: Promise<void>[] = [];
  for (const values of rows) {
    for (const [column, value] of Object.entries(values)) {
      if (value instanceof Promise) pending.push(value.then((settled: unknown) => void (values[column] = settled)));
    }
  }
  if (pending.length) await Promise.all(pending);
}
