import { extname, join } from 'node:path';
import { ResourceLimits, Worker } from 'node:worker_threads';

/** `.js` when compiled (dist/), `.ts` under ts-node and jest: the form every module of the app runs in. */
const SOURCE_EXTENSION = extname(__filename);

/** A module of the app by its folder and base name, as the running app has it (`.ts` or `.js`). */
export function moduleFile(dir: string, base: string): string {
  return join(dir, `${base}${SOURCE_EXTENSION}`);
}

/**
 * Run from TypeScript sources (tests, benchmarks, `npm start`), a worker compiles what it
 * requires with swc (a dev dependency, as ts-node --swc and jest use), which takes a few
 * milliseconds, where registering ts-node would take hundreds.
 */
const TS_BOOTSTRAP = `
const { readFileSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const { transformSync } = require(workerData.swc);
const options = { module: { type: 'commonjs' }, sourceMaps: 'inline', jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true } } };
require.extensions['.ts'] = (module, filename) => module._compile(transformSync(readFileSync(filename, 'utf8'), { ...options, filename }).code, filename);
require(workerData.entry);
`;

/**
 * A worker thread running `entry` (a module file of the app, see moduleFile) with `workerData`
 * (`entry` and `swc` are taken): from dist/ as it is, from TypeScript sources through swc.
 */
export function spawnWorker(entry: string, workerData: Record<string, unknown>, resourceLimits?: ResourceLimits): Worker {
  const typescript = entry.endsWith('.ts');
  const data = { ...workerData, entry, swc: typescript ? require.resolve('@swc/core') : null };
  return typescript ? new Worker(TS_BOOTSTRAP, { eval: true, workerData: data, resourceLimits }) : new Worker(entry, { workerData: data, resourceLimits });
}
