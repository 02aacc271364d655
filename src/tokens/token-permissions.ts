import type { TableGrant } from '../core/context/request-context';
import type { FieldError } from '../core/errors/api-error';
import { TOKEN_OPERATIONS, TokenOperation } from './token.entity';
import type { PermissionRow } from './token.repository';

/** A reference in a permission list: `["database", id]` or `["table", id]`. */
export type PermissionRef = ['database' | 'table', number];
/** One operation's permission on the wire: the whole workspace, nothing, or some databases and tables. */
export type PermissionValue = boolean | PermissionRef[];
export type PermissionsJson = Record<TokenOperation, PermissionValue>;

const MESSAGES = {
  invalid_key: 'Only create, read, update and delete keys are allowed.',
  invalid_value: 'The value must either be a bool, or a list containing database or table ids like [["database", 1], ["table", 1]].',
  invalid_instance_type: 'The instance type can only be a database or table.',
};
const fail = (code: keyof typeof MESSAGES): { error: FieldError } => ({ error: { error: MESSAGES[code], code } });

/**
 * The shape checks of Baserow's `TokenPermissionsField`, in its order and with its messages:
 * exactly the four keys, each a bool or a list of `[type, integer id]` pairs naming a
 * database or a table. Whether the ids exist is the service's check.
 */
export function parsePermissions(data: unknown): { value: PermissionsJson } | { error: FieldError } {
  if (typeof data !== 'object' || data === null || Array.isArray(data) || Object.keys(data).length !== TOKEN_OPERATIONS.length) return fail('invalid_key');
  for (const [key, value] of Object.entries(data)) {
    if (!(TOKEN_OPERATIONS as readonly string[]).includes(key)) return fail('invalid_key');
    if (typeof value !== 'boolean' && !Array.isArray(value)) return fail('invalid_value');
    if (!Array.isArray(value)) continue;
    for (const ref of value) {
      if (!Array.isArray(ref) || ref.length !== 2 || typeof ref[0] !== 'string' || typeof ref[1] !== 'number' || !Number.isInteger(ref[1])) return fail('invalid_value');
      if (ref[0] !== 'database' && ref[0] !== 'table') return fail('invalid_instance_type');
    }
  }
  const source = data as PermissionsJson;
  return { value: { create: source.create, read: source.read, update: source.update, delete: source.delete } };
}

/** The wire form of stored grants (Baserow's `to_representation`): `true` wins over any list. */
export function permissionsJson(rows: PermissionRow[]): PermissionsJson {
  const json: PermissionsJson = { create: false, read: false, update: false, delete: false };
  for (const row of rows) {
    const current = json[row.type];
    if (current === true) continue;
    if (row.databaseId === null && row.tableId === null) json[row.type] = true;
    else {
      const list = Array.isArray(current) ? current : [];
      list.push(row.databaseId !== null ? ['database', row.databaseId] : ['table', row.tableId!]);
      json[row.type] = list;
    }
  }
  return json;
}

interface Scope {
  all: boolean;
  databases: Set<number>;
  tables: Set<number>;
}

/** A token's grants in memory, as the permission cache keeps them. */
export class TokenGrants {
  private readonly scopes = new Map<TokenOperation, Scope>();

  constructor(
    readonly workspaceId: number,
    rows: PermissionRow[],
  ) {
    for (const operation of TOKEN_OPERATIONS) this.scopes.set(operation, { all: false, databases: new Set(), tables: new Set() });
    for (const row of rows) {
      const scope = this.scopes.get(row.type)!;
      if (row.databaseId !== null) scope.databases.add(row.databaseId);
      else if (row.tableId !== null) scope.tables.add(row.tableId);
      else scope.all = true;
    }
  }

  /** Whether the token may do any of `operations` on a table (of any workspace: others' are refused). */
  allows(operations: readonly TokenOperation[], table: { id: number; databaseId: number }, workspaceId: number): boolean {
    if (workspaceId !== this.workspaceId) return false;
    return operations.some((operation) => {
      const scope = this.scopes.get(operation)!;
      return scope.all || scope.databases.has(table.databaseId) || scope.tables.has(table.id);
    });
  }

  /** What a route declaring `operations` lets the request do. */
  grant(operations: readonly TokenOperation[]): TableGrant {
    return { allows: (table, workspaceId) => this.allows(operations, table, workspaceId) };
  }
}
