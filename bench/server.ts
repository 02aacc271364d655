import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

/**
 * What the benchmarks share: Rowspace served in a child process (so server and clients do
 * not share an event loop), on SQLite in `dataDir` or on the DATABASE_URL of its environment.
 */

/** Child side: starts Rowspace, answers its URL to the parent, and closes when the parent lets go. */
export async function serveRowspace(dataDir: string, afterClose: () => void = () => undefined): Promise<void> {
  const { createApp } = await import('../src/app');
  const { loadConfig } = await import('../src/core/config/config');
  const config = loadConfig({
    DATA_DIR: dataDir,
    SQLITE_PATH: join(dataDir, 'bench.sqlite'),
    SECRET_KEY: 'bench-secret-key-that-is-long-enough',
    PUBLIC_URL: 'http://localhost:8000',
    LOGIN_MAX_FAILURES_PER_IP: '100000',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const app = await createApp(config, { log: { level: 'error' } });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  process.send!({ url: `http://127.0.0.1:${port}` });
  process.on('disconnect', () => {
    void app.close().finally(() => {
      afterClose();
      process.exit(0);
    });
  });
}

/** Parent side: runs `script` with `role` in a child and answers once it reported its URL. */
export function forkServer(script: string, role: string, env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; url: string }> {
  // The same ts-node (with swc, which emits Nest's decorator metadata) runs the server.
  const child = fork(require.resolve('ts-node/dist/bin'), ['--swc', script, role], { execArgv: [], env });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve({ child, url: message.url }));
    child.once('exit', (code) => reject(new Error(`${role} server exited with ${code}`)));
  });
}
