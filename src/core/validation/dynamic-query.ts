import type { FieldError } from '../errors/api-error';

/**
 * Query parameters whose names carry data (`filter__{field}__{type}`, `table__{id}`). The
 * validation pipe keeps the keys matching `pattern` (the service reads them) and the OpenAPI
 * document lists them with the pattern as `x-name-pattern`, so clients and the fuzzer can make them.
 */
export interface DynamicQuerySpec {
  /** The documented name, e.g. `filter__{field}__{type}`. */
  name: string;
  pattern: RegExp;
  description: string;
  /** An example of a matching name (the fuzzer and the docs use it). */
  example: string;
  /** When set, keys that neither a `@Field` nor the pattern declare are refused with this error (Baserow's `rows/names`). */
  refuseOthers?: FieldError;
}

const DYNAMIC = Symbol('rowspace:dynamic-query');

export function DynamicQuery(spec: DynamicQuerySpec): ClassDecorator {
  return (target: Function) => {
    const holder = target as unknown as Record<symbol, DynamicQuerySpec[]>;
    const own = Object.prototype.hasOwnProperty.call(holder, DYNAMIC) ? holder[DYNAMIC] : [...(holder[DYNAMIC] ?? [])];
    Object.defineProperty(holder, DYNAMIC, { value: [...own, spec], configurable: true, enumerable: false, writable: true });
  };
}

export function dynamicQueries(target: Function): readonly DynamicQuerySpec[] {
  return (target as unknown as Record<symbol, DynamicQuerySpec[]>)[DYNAMIC] ?? [];
}
