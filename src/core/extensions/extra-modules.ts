import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { DynamicModule, Type } from '@nestjs/common';
import { ConfigError } from '../config/config';

/**
 * `EXTRA_MODULES`: Nest modules a self-hoster adds without editing `src/` (new field types,
 * filter types, controllers…). Each specifier is a path relative to the working folder or a
 * package name; the module it names exports its Nest module class as `RowspaceExtension`
 * (or as its default export). Extensions import Rowspace's public API from
 * `rowspace/extension`, which resolves to this running app's own `src/extension.ts` (under
 * ts-node and jest) or `dist/extension.js` (built), so they share its registries.
 */

/** What extensions import; resolved to the app's own barrel, never to a second copy. */
export const EXTENSION_API = 'rowspace/extension';

type NestModule = Type<unknown> | DynamicModule;

// Node's resolver, aliased once so `rowspace/extension` works from any folder. (jest does
// not go through it: jest.config.js maps the same name with `moduleNameMapper`.)
const NodeModule = require('node:module') as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const barrel = require.resolve('../../extension');
const original = NodeModule._resolveFilename;
if (!(original as { rowspaceAlias?: boolean }).rowspaceAlias) {
  const aliased = function (this: unknown, request: string, ...rest: unknown[]): string {
    return original.call(this, request === EXTENSION_API ? barrel : request, ...rest);
  };
  NodeModule._resolveFilename = Object.assign(aliased, { rowspaceAlias: true });
}

/** Loads the modules named by `EXTRA_MODULES`; anything wrong is a ConfigError naming the specifier. */
export function loadExtraModules(specifiers: readonly string[], cwd = process.cwd()): NestModule[] {
  return specifiers.map((specifier) => loadExtraModule(specifier, cwd));
}

function loadExtraModule(specifier: string, cwd: string): NestModule {
  const file = resolveSpecifier(specifier, cwd);
  let exported: Record<string, unknown>;
  try {
    exported = require(file) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`EXTRA_MODULES: "${specifier}" (${file}) failed to load: ${(error as Error).message}`);
  }
  const candidate = exported?.RowspaceExtension ?? exported?.default;
  if (!isNestModule(candidate)) {
    throw new ConfigError(
      `EXTRA_MODULES: "${specifier}" (${file}) exports no Nest module; export the @Module() class as \`RowspaceExtension\` or as the default export.`,
    );
  }
  return candidate;
}

const isPath = (specifier: string): boolean => specifier.startsWith('.') || isAbsolute(specifier);

function resolveSpecifier(specifier: string, cwd: string): string {
  const request = isPath(specifier) ? resolve(cwd, specifier) : specifier;
  const typeScript = typeScriptError(specifier);
  const find = (): string => require.resolve(request, { paths: [cwd] });
  let file: string | null = null;
  try {
    file = find();
  } catch {
    // Maybe a TypeScript extension run by the built app (`npm start`, `node dist/main.js`),
    // which resolves `.ts` files once ts-node is registered.
    const ts = isPath(specifier) && [request, `${request}.ts`, join(request, 'index.ts')].some((f) => f.endsWith('.ts') && existsSync(f));
    if (ts && !loadsTypeScript()) throw typeScript;
    try {
      if (ts) file = find();
    } catch {
      // Reported below.
    }
  }
  if (file === null) {
    throw new ConfigError(
      `EXTRA_MODULES: cannot find "${specifier}" (${isPath(specifier) ? `no file or folder ${request}` : `no package of that name from ${cwd}`}).`,
    );
  }
  if (/\.[cm]?ts$/.test(file) && !loadsTypeScript()) throw typeScript;
  return file;
}

const typeScriptError = (specifier: string): ConfigError =>
  new ConfigError(
    `EXTRA_MODULES: "${specifier}" is TypeScript, which the built app loads only when ts-node is installed (a dev dependency); compile it to JavaScript for production.`,
  );

/**
 * Whether `.ts` files can be required: yes when the app itself runs as TypeScript (ts-node,
 * jest); when it runs built, once ts-node (transpile only) is registered, if it is installed.
 */
let typeScriptLoader = barrel.endsWith('.ts');
function loadsTypeScript(): boolean {
  if (typeScriptLoader) return true;
  try {
    (require('ts-node') as typeof import('ts-node')).register({ transpileOnly: true });
    typeScriptLoader = true;
  } catch {
    // Not installed (a production install): the caller says what to do.
  }
  return typeScriptLoader;
}

/** A class decorated with `@Module()` (it has module metadata) or a dynamic module object. */
function isNestModule(value: unknown): value is NestModule {
  if (typeof value === 'function') return ['imports', 'providers', 'controllers', 'exports'].some((key) => Reflect.hasOwnMetadata(key, value));
  return typeof value === 'object' && value !== null && typeof (value as DynamicModule).module === 'function';
}
