/**
 * Runs `shutDown` on the first SIGTERM or SIGINT and exits with the code it answers; a second
 * signal while it runs exits at once with 1 (an operator pressing Ctrl-C twice).
 */
export function exitOnSignals(shutDown: (signal: NodeJS.Signals) => Promise<number>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(1);
    stopping = true;
    shutDown(signal).then(
      (code) => process.exit(code),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
