/**
 * Lets whatever waits run first (requests are read, a write queued for the writer takes it):
 * long work on the request path or in a job awaits it between slices, so no slice holds the
 * event loop for long. `setImmediate`, not a resolved promise: SQLite's driver and parsers answer
 * without leaving the microtask queue.
 */
export function yieldTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
