/**
 * Request generation for the fuzz suite: reads operations from the app's OpenAPI document and
 * makes, for each, a deterministic (seeded) list of bad requests: missing, extra, wrong-typed,
 * huge, negative, NUL-bearing, unicode and malformed values in the body, query and path, wrong
 * content types and missing or broken credentials.
 */

export interface Operation {
  method: string;
  /** OpenAPI path, e.g. `/api/database/rows/table/{tableId}/`. */
  path: string;
  operationId: string;
  pathParams: string[];
  /** `namePattern`: a parameter whose name carries data (`x-name-pattern`, e.g. `table__{id}`). */
  queryParams: { name: string; schema: Schema; namePattern?: RegExp }[];
  body: Schema | null;
  /** The route needs no credentials (empty `security`, or marked public). */
  public: boolean;
  /** The security schemes the route accepts (`JWT`, `Database token`). */
  schemes: string[];
}

export type Schema = Record<string, any>;

export interface FuzzCase {
  label: string;
  /** Path parameter overrides (raw, already URL-encoded where needed). */
  pathOverrides: Record<string, string>;
  /** The query string without `?` (already encoded). */
  query: string;
  body?: { json: unknown } | { raw: string | Uint8Array; contentType?: string };
  /** Which credentials the case sends. */
  auth: 'user' | 'none' | { header: string };
  /** The case names objects of another tenant: it must be refused. */
  foreign?: boolean;
}

/** A small, fast, seeded PRNG (mulberry32), so every run sends the same requests. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Ids that only mean something next to another one: row ids are numbered per table (every
 * table's rows start at 1), so another tenant's row id alone names one of the caller's rows
 * (of the table, or of the view's table for a shared view's `{slug}`).
 */
const SCOPED_PARAMS: Record<string, string[]> = { rowId: ['tableId', 'slug'] };

export function operationsOf(document: Schema): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters: Schema[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolve(document, p));
      const bodySchema = op.requestBody ? resolve(document, op.requestBody).content?.['application/json']?.schema : null;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
        queryParams: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: resolve(document, p.schema ?? {}), ...(p['x-name-pattern'] ? { namePattern: new RegExp(p['x-name-pattern']) } : {}) })),
        body: bodySchema ? resolveDeep(document, bodySchema) : null,
        public: Array.isArray(op.security) && op.security.length === 0,
        schemes: (op.security ?? []).flatMap((requirement: Schema) => Object.keys(requirement)),
      });
    }
  }
  return operations;
}

function resolve(document: Schema, node: Schema): Schema {
  let current = node;
  for (let i = 0; current?.$ref && i < 20; i++) {
    const parts = String(current.$ref).replace(/^#\//, '').split('/');
    current = parts.reduce((acc: Schema, key) => acc?.[key], document);
  }
  return current ?? {};
}

function resolveDeep(document: Schema, node: Schema, depth = 0): Schema {
  if (depth > 8 || node === null || typeof node !== 'object') return node;
  const resolved = resolve(document, node);
  if (Array.isArray(resolved)) return resolved.map((n) => resolveDeep(document, n, depth + 1));
  const out: Schema = {};
  for (const [key, value] of Object.entries(resolved)) {
    out[key] = value && typeof value === 'object' ? resolveDeep(document, value, depth + 1) : value;
  }
  if (Array.isArray(out.allOf)) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of out.allOf) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
    }
    return merged;
  }
  return out;
}

/** Integer-valued properties named after an object, answered with the tenant's id of it. */
const ID_HINTS: [RegExp, string][] = [
  [/^(workspace|workspace_id|workspaces)$/, 'workspaceId'],
  [/^(application_id|database_id|application_ids)$/, 'applicationId'],
  [/^(table|table_id|table_ids|link_row_table_id|link_row_table)$/, 'tableId'],
  [/^(field_id|field_ids|new_primary_field_id)$/, 'fieldId'],
  [/^(view|view_id|view_ids)$/, 'viewId'],
  [/^(row_id|row_ids|before_id|before)$/, 'rowId'],
];

function hintedId(name: string, ids: Record<string, string>): number | undefined {
  const hint = ID_HINTS.find(([re]) => re.test(name));
  return hint ? Number(ids[hint[1]]) : undefined;
}

/** A plausible valid value for a schema (examples and defaults first), used as the baseline a case mutates. */
export function sample(schema: Schema | undefined, ids: Record<string, string>, name = '', depth = 0): unknown {
  if (!schema || depth > 6) return 'Fuzz';
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined && schema.default !== null) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (variant) return sample(variant, ids, name, depth + 1);
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries<Schema>(schema.properties ?? {})) out[key] = sample(property, ids, key, depth + 1);
      return out;
    }
    case 'array': {
      const item = sample(schema.items, ids, name, depth + 1);
      return [item];
    }
    case 'integer':
      return hintedId(name, ids) ?? Math.max(1, schema.minimum ?? 1);
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'password') return 'password123';
      if (schema.format === 'date') return '2026-01-02';
      if (schema.format === 'date-time') return '2026-01-02T03:04:05Z';
      return 'Fuzz';
    default:
      return 'Fuzz';
  }
}

const LONG = 'x'.repeat(200_000);
const DEEP = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

/** Values every property is tried with: each JSON type, edges of the integer range, NUL, unicode, sizes. */
export const BODY_VALUES: [string, unknown][] = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['zero', 0],
  ['negative', -1],
  ['fraction', 1.5],
  ['int32 max', 2147483647],
  ['int32 overflow', 2147483648],
  ['int64 overflow', 1e20],
  ['huge float', 1e308],
  ['empty string', ''],
  ['blank string', '   '],
  ['NUL', '\u0000'],
  ['NUL inside', 'a\u0000b'],
  ['lone surrogate', '\ud800'],
  ['emoji', '😀 ñ 漢字'],
  ['rtl and zero-width', '\u202e\u200bx'],
  ['numeric string', '2147483648'],
  ['negative string', '-1'],
  ['sql', "' OR 1=1; --"],
  ['path', '../../etc/passwd'],
  ['long string', LONG],
  ['empty list', []],
  ['list of null', [null]],
  ['list of NUL', ['\u0000']],
  ['list of objects', [{}]],
  ['huge list', Array.from({ length: 100_000 }, (_, i) => i + 1)],
  ['empty object', {}],
  ['object', { a: 1 }],
  ['deep', DEEP(200)],
];

/** Raw query values (URL-encoded) every query parameter is tried with. */
export const QUERY_VALUES: [string, string][] = [
  ['empty', ''],
  ['word', 'abc'],
  ['negative', '-1'],
  ['zero', '0'],
  ['int32 overflow', '2147483648'],
  ['int64 overflow', '99999999999999999999'],
  ['fraction', '1.5'],
  ['exponent', '1e400'],
  ['NUL', '%00'],
  ['NUL inside', 'a%00b'],
  ['lone surrogate', '%ED%A0%80'],
  ['invalid percent', '%E0%A4%A'],
  ['emoji', encodeURIComponent('😀 ñ')],
  ['long', 'x'.repeat(6000)],
  ['json object', encodeURIComponent('{"filter_type":"AND","filters":[{"field":1,"type":"equal","value":"a\u0000"}]}')],
  ['json garbage', encodeURIComponent('{"a":')],
  ['list', '1,2,3,-1,2147483648'],
  ['huge list', Array.from({ length: 3000 }, (_, i) => i + 1).join(',')],
  ['commas', ',,,'],
  ['minus', '-'],
];

/** Query parameters many list routes read; tried on every GET even when undocumented. */
export const COMMON_QUERY = [
  'page', 'size', 'limit', 'offset', 'search', 'search_mode', 'order_by', 'filters', 'filter_type', 'include', 'exclude',
  'user_field_names', 'view_id', 'before', 'before_id', 'include_metadata', 'filter__field_1__equal', 'table__1', 'sorts',
];

export const PATH_VALUES: [string, string][] = [
  ['zero', '0'],
  ['negative', '-1'],
  ['int32 max', '2147483647'],
  ['int32 overflow', '2147483648'],
  ['int64 overflow', '99999999999999999999'],
  ['word', 'abc'],
  ['NUL', '%00'],
  ['NUL inside', '1%001'],
  ['emoji', encodeURIComponent('😀')],
  ['fraction', '1.5'],
  ['long', 'x'.repeat(300)],
];

const RAW_BODIES: [string, string | Uint8Array, string | undefined][] = [
  ['raw empty', '', 'application/json'],
  ['raw null', 'null', 'application/json'],
  ['raw list', '[]', 'application/json'],
  ['raw string', '"x"', 'application/json'],
  ['raw number', '1', 'application/json'],
  ['raw truncated', '{"name": "x', 'application/json'],
  ['raw garbage', 'not json', 'application/json'],
  ['raw NUL byte', '{"name": "a\u0000"}', 'application/json'],
  ['raw infinite', '{"name": 1e400, "id": 1e400}', 'application/json'],
  ['raw duplicate keys', '{"name": "a", "name": 1}', 'application/json'],
  ['raw deep', '['.repeat(20_000) + ']'.repeat(20_000), 'application/json'],
  ['raw bad utf-8', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]), 'application/json'],
  ['text/plain', '{"name": "x"}', 'text/plain'],
  ['form', 'name=x&email=a%40b.c', 'application/x-www-form-urlencoded'],
  ['multipart', '------x\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n------x--\r\n', 'multipart/form-data; boundary=----x'],
  ['xml', '<name>x</name>', 'application/xml'],
  ['no content type', '{"name": "x"}', undefined],
  ['json charset', '{"name": "x"}', 'application/json; charset=latin1'],
];

const AUTH_HEADERS: [string, string][] = [
  ['garbage JWT', 'JWT garbage'],
  ['JWT with three parts', 'JWT a b'],
  ['JWT without token', 'JWT'],
  ['Bearer', 'Bearer abc'],
  ['Token', 'Token abcdefghijklmnopqrstuvwxyz012345'],
  ['JWT not a JWT', 'JWT a.b.c'],
];

/**
 * A concrete name for a dynamic parameter (`table__{id}`, `filter__{field}__{type}`): each
 * placeholder takes a fitting id or word; when the result does not match the declared pattern,
 * every placeholder becomes `1`.
 */
export function dynamicName(name: string, ids: Record<string, string>, pattern?: RegExp): string {
  const fill: Record<string, string> = { id: ids.tableId ?? '1', field: `field_${ids.fieldId ?? '1'}`, type: 'equal' };
  const made = name.replace(/\{([^}]+)\}/g, (_, key: string) => fill[key] ?? ids.fieldId ?? '1');
  return !pattern || pattern.test(made) ? made : name.replace(/\{[^}]+\}/g, '1');
}

function encodeQuery(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');
}

/** Staff routes act on every tenant's accounts and workspaces (a staff caller may name any): no "another tenant's" case. */
const STAFF_ROUTE = /^\/api\/admin\//;

/**
 * Path parameters naming what belongs to no tenant (an invitation's token, a template) or is its
 * own secret (a public view export's signed job id, read by whoever has it): no "another tenant's" case.
 */
const OWNERLESS_PARAMS = new Set(['token', 'templateId', 'providerId', 'job_id']);

/**
 * The cases of one operation. `baseline` is the valid-looking body the body mutations start
 * from; `foreignIds` are another tenant's ids for the same parameters.
 */
export function casesFor(op: Operation, ids: Record<string, string>, foreignIds: Record<string, string>, bodyLimit: number): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const base = { pathOverrides: {}, query: '', auth: 'user' as const };
  const hasBody = ['POST', 'PATCH', 'PUT'].includes(op.method);
  const baseline = hasBody ? sample(op.body ?? { type: 'object' }, ids) : undefined;
  const withBody = hasBody ? { body: { json: baseline } } : {};

  cases.push({ ...base, ...withBody, label: 'baseline' });

  // Path parameters: bad values, and another tenant's ids.
  for (const param of op.pathParams) {
    for (const [label, value] of PATH_VALUES) cases.push({ ...base, ...withBody, label: `path ${param}: ${label}`, pathOverrides: { [param]: value } });
    if (!OWNERLESS_PARAMS.has(param) && !STAFF_ROUTE.test(op.path) && foreignIds[param] && !(SCOPED_PARAMS[param] ?? []).some((scope) => op.pathParams.includes(scope))) {
      cases.push({ ...base, ...withBody, label: `path ${param}: another tenant's`, pathOverrides: { [param]: foreignIds[param] }, foreign: true });
    }
  }
  if (op.pathParams.length > 1 && !STAFF_ROUTE.test(op.path)) {
    cases.push({ ...base, ...withBody, label: `path: all another tenant's`, pathOverrides: { ...foreignIds, token: ids.token }, foreign: true });
  }

  // Query parameters: the documented ones, then common ones every GET may read.
  const documented = op.queryParams.map((p) => p.name);
  const queryNames = op.method === 'GET' ? [...new Set([...documented, ...COMMON_QUERY])] : documented;
  for (const param of op.queryParams.filter((p) => p.namePattern)) {
    // Names made from the pattern's placeholders, with ids beyond 32 bits and of another tenant.
    for (const [label, id] of [['beyond 32 bits', '2147483648'], ['huge', '9'.repeat(40)], ["another tenant's", foreignIds.tableId ?? '1']] as const) {
      const name = dynamicName(param.name, { ...ids, tableId: id, fieldId: id });
      if (param.namePattern!.test(name)) cases.push({ ...base, ...withBody, label: `query name ${name.slice(0, 40)}: ${label}`, query: encodeQuery([[name, '1']]) });
    }
  }
  for (const name of queryNames) {
    const pattern = op.queryParams.find((p) => p.name === name)?.namePattern;
    const queryName = name.includes('{') ? dynamicName(name, ids, pattern) : name;
    for (const [label, value] of QUERY_VALUES) cases.push({ ...base, ...withBody, label: `query ${queryName}: ${label}`, query: encodeQuery([[queryName, value]]) });
    cases.push({ ...base, ...withBody, label: `query ${queryName}: repeated`, query: encodeQuery([[queryName, '1'], [queryName, 'abc'], [queryName, '']]) });
  }
  cases.push({ ...base, ...withBody, label: 'query: unknown parameter', query: 'zz_unknown=1&filter__=x&filter__field_999999999999__equal=1' });

  // Body: whole-body shapes, content types, size; then every property.
  if (hasBody) {
    for (const [label, raw, contentType] of RAW_BODIES) cases.push({ ...base, label: `body ${label}`, body: { raw, contentType } });
    cases.push({ ...base, label: 'body over the size limit', body: { raw: JSON.stringify({ name: 'x'.repeat(bodyLimit + 1024) }), contentType: 'application/json' } });
    for (const [label, value] of BODY_VALUES) cases.push({ ...base, label: `body: ${label}`, body: { json: value } });
    if (baseline && typeof baseline === 'object' && !Array.isArray(baseline)) {
      const record = baseline as Record<string, unknown>;
      cases.push({ ...base, label: 'body: extra keys', body: { json: { ...record, zz_unknown: '\u0000', id: 2147483648, __proto__x: {} } } });
      for (const key of Object.keys(record)) {
        const rest = { ...record };
        delete rest[key];
        cases.push({ ...base, label: `body ${key}: missing`, body: { json: rest } });
        for (const [label, value] of BODY_VALUES) cases.push({ ...base, label: `body ${key}: ${label}`, body: { json: { ...record, [key]: value } } });
        // One level into lists of objects (e.g. `items[0].field_1`).
        const inner = record[key];
        if (Array.isArray(inner) && inner[0] && typeof inner[0] === 'object' && !Array.isArray(inner[0])) {
          for (const innerKey of Object.keys(inner[0] as object)) {
            for (const [label, value] of BODY_VALUES) {
              cases.push({ ...base, label: `body ${key}[0].${innerKey}: ${label}`, body: { json: { ...record, [key]: [{ ...(inner[0] as object), [innerKey]: value }] } } });
            }
          }
        }
      }
    }
  }

  // Credentials.
  if (!op.public) {
    cases.push({ ...base, ...withBody, label: 'auth: none', auth: 'none' });
    for (const [label, header] of AUTH_HEADERS) cases.push({ ...base, ...withBody, label: `auth: ${label}`, auth: { header } });
  }
  return cases;
}

/** Picks at most `budget` cases, always keeping the baseline and the foreign-id cases, in a seeded order. */
export function budgeted(cases: FuzzCase[], budget: number, random: () => number): FuzzCase[] {
  const kept = cases.filter((c) => c.label === 'baseline' || c.foreign);
  const rest = cases.filter((c) => !(c.label === 'baseline' || c.foreign));
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  return [...kept, ...rest.slice(0, Math.max(0, budget - kept.length))];
}

/** Keys of an error body. The envelope is exactly `{error, detail}`. */
export function isEnvelope(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const keys = Object.keys(body).sort();
  return keys.length === 2 && keys[0] === 'detail' && keys[1] === 'error' && typeof (body as { error: unknown }).error === 'string';
}

/**
 * Error bodies Baserow sends outside its envelope: DRF's stock `{"detail"}` for 400 (JSON parse),
 * 401, 403, 405 and 415, and simplejwt's field errors on the token endpoints.
 */
export function isAllowedErrorBody(status: number, body: unknown, operationId: string): boolean {
  if (isEnvelope(body)) return true;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const keys = Object.keys(body);
  if (keys.length === 1 && keys[0] === 'detail' && [400, 401, 403, 405, 415].includes(status)) return true;
  // simplejwt's field errors, and the impersonation serializer's (validated outside Baserow's envelope).
  if (['token_auth', 'token_refresh', 'token_verify', 'admin_impersonate_user'].includes(operationId) && status === 400) {
    return Object.values(body).every((v) => Array.isArray(v) && v.every((m) => typeof m === 'string'));
  }
  return false;
}
