import { ServerProcess, startBuiltServer, startServer } from '../test/support/server';

export { forkServer, stopServer, type ServerProcess } from '../test/support/server';

/** The SQLite database of a benchmark's Rowspace in `dataDir`. */
export const sqlitePathOf = (dataDir: string) => `${dataDir}/bench.sqlite`;

/**
 * What the benchmarks share: Rowspace served by src/main.ts in a child process (so server and
 * clients do not share an event loop), on SQLite in `dataDir` or on `databaseUrl`, with the
 * request and socket limits lifted (a benchmark is one client doing what many would).
 *
 * BENCH_SERVER=dist serves the compiled dist/main.js instead (as `npm run start:prod` does, without
 * ts-node's compiler in the process; run `npm run build` first), with BENCH_SERVER_NODE_ARGS
 * (space-separated, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) given to node. `extraEnv` goes over
 * these settings (e.g. REDIS_URL for instances sharing one database).
 */
export function startRowspace(dataDir: string, databaseUrl: string | null = null, extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
  const env = {
    DATA_DIR: dataDir,
    SQLITE_PATH: sqlitePathOf(dataDir),
    DATABASE_URL: databaseUrl ?? '',
    REDIS_URL: '',
    SECRET_KEY: 'bench-secret-key-that-is-long-enough',
    PUBLIC_URL: 'http://localhost:8000',
    LOGIN_MAX_FAILURES_PER_IP: '100000',
    RATE_LIMIT_REQUESTS_PER_USER: '0',
    RATE_LIMIT_REQUESTS_PER_IP: '0',
    WS_MAX_CONNECTIONS_PER_USER: '1000000',
    ...extraEnv,
  };
  if (process.env.BENCH_SERVER !== 'dist') return startServer(env);
  return startBuiltServer(env, (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean));
}
