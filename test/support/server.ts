import { ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Rowspace served by its real entry point (src/main.ts: configuration from the environment,
 * signal handling) in a child process, so that the server and its clients do not share an
 * event loop and the server can be signalled or killed. Used by the shutdown tests and the
 * benchmarks. main.ts reports its URL over IPC once it listens (PORT=0 picks a free port).
 */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Settles when the process has exited: its exit code, or the signal that killed it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The child's stdout and stderr so far (for failure messages). */
  output(): string;
  /** Resolves once the child has written `text` (e.g. a log line marking a step of its life). */
  printed(text: string): Promise<void>;
}

const MAIN = join(__dirname, '..', '..', 'src', 'main.ts');
const BUILT_MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
const OUTPUT_KEPT = 64 * 1024;

/** A server's environment: this process's, a free port, then `env`. */
const serverEnv = (env: Record<string, string | undefined>): NodeJS.ProcessEnv => ({ ...process.env, PORT: '0', ...env });

/** Starts src/main.ts with `env` over this process's environment; answers once it listens. */
export function startServer(env: Record<string, string | undefined>): Promise<ServerProcess> {
  return forkServer(MAIN, [], serverEnv(env));
}

/** Starts the compiled server (dist/main.js, as `npm run start:prod`; `npm run build` first) with `nodeArgs` (e.g. `--cpu-prof`). */
export function startBuiltServer(env: Record<string, string | undefined>, nodeArgs: string[] = []): Promise<ServerProcess> {
  if (!existsSync(BUILT_MAIN)) return Promise.reject(new Error(`${BUILT_MAIN} is missing: run \`npm run build\` first`));
  return watch(fork(BUILT_MAIN, [], { execArgv: nodeArgs, env: serverEnv(env), silent: true }), BUILT_MAIN);
}

/** Runs `script` with `args` in a child (ts-node with swc, which emits Nest's decorator metadata) until it sends `{url}`. */
export function forkServer(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ServerProcess> {
  return watch(fork(require.resolve('ts-node/dist/bin'), ['--swc', script, ...args], { execArgv: [], env, silent: true }), script);
}

/** Keeps a child's output and answers once it sends `{url}`. */
function watch(child: ChildProcess, script: string): Promise<ServerProcess> {
  let output = '';
  let seen: { text: string; resolve: () => void }[] = [];
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
    seen = seen.filter((waiter) => !(output.includes(waiter.text) && (waiter.resolve(), true)));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const printed = (text: string) => (output.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => seen.push({ text, resolve })));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve({ child, url: message.url, exited, output: () => output, printed }));
    void exited.then(({ code, signal }) => reject(new Error(`${script} exited with ${code ?? signal} before listening:\n${output}`)));
  });
}

/** Asks the server to stop (SIGTERM: graceful shutdown) and answers how it exited; SIGKILL if it is still there after `graceMs`. */
export async function stopServer(server: ServerProcess, graceMs = 60_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.exited;
  const timer = setTimeout(() => server.child.kill('SIGKILL'), graceMs);
  server.child.kill('SIGTERM');
  try {
    return await server.exited;
  } finally {
    clearTimeout(timer);
  }
}
