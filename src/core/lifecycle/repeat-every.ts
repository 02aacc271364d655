/**
 * Runs `task` every `minutes` in the background (the configurable cleanups): the timer never keeps
 * the process alive, a failed run goes to `onError` and the next one runs all the same. Answers
 * the function that stops it (a module's `onModuleDestroy`).
 */
export function repeatEvery(minutes: number, task: () => Promise<unknown>, onError: (error: Error) => void): () => void {
  const timer = setInterval(() => void task().catch((error: unknown) => onError(error instanceof Error ? error : new Error(String(error)))), minutes * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
