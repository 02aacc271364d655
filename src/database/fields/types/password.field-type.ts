import { Injectable } from '@nestjs/common';
import { liveRow } from '../../rows/table-schema.repository';
import type { ColumnDefinition } from '../../../core/database/dialect';
import { quote } from '../../../core/database/sql';
import { ApiError, Errors } from '../../../core/errors/api-error';
import { PasswordHasher } from '../../../users/password-hasher';
import { DatabaseErrors } from '../../database.errors';
import { RowRepository } from '../../rows/row.repository';
import { TableRepository } from '../../table.repository';
import { tableScope } from '../../table-context';
import { PermissionService, TableOperations as T } from '../../../permissions';
import type { FieldEntity } from '../field.entity';
import { FieldRepository } from '../field.repository';
import { cellError, fieldColumn, KEEP_CELL, RawRow, rowsTable } from '../field-type';
import { ColumnFieldType } from './base';

/**
 * `password`: the cell stores an argon2 hash and answers `true` when set, null otherwise.
 * A string sets it, null or "" clears it, `true` (what clients read back) leaves it alone.
 * Values never convert to or from other types: a hash is no value, and a value is not hashed.
 */
@Injectable()
export class PasswordFieldType extends ColumnFieldType {
  readonly type = 'password';
  readonly canIndex = false;
  readonly properties = {
    allow_endpoint_authentication: { kind: 'bool', required: false, default: false },
  } as const;

  private readonly hasher = new PasswordHasher();

  constructor(
    private readonly fields: FieldRepository,
    private readonly tables: TableRepository,
    private readonly rows: RowRepository,
    private readonly permissions: PermissionService,
  ) {
    super();
  }

  canBePrimary(): boolean {
    return false;
  }

  column(field: FieldEntity): ColumnDefinition {
    return { name: fieldColumn(field), kind: 'text' };
  }

  /** Hashing is CPU work on libuv's pool, no query: a batch hashes all its cells at once. */
  readonly preparesOffLoop = true;

  /** Checks the value at once (a CellError is thrown, not rejected); the hash is the promise. */
  prepareValue(_field: FieldEntity, value: unknown): Promise<string> | null | typeof KEEP_CELL {
    if (value === true) return KEEP_CELL;
    if (value === null || value === undefined || value === '') return null;
    if (typeof value === 'number' && Number.isFinite(value)) return this.hasher.hashCell(String(value));
    if (typeof value !== 'string') throw cellError('Not a valid string.');
    return this.hasher.hashCell(value);
  }

  toApi(_field: FieldEntity, raw: unknown): true | null {
    return raw ? true : null;
  }

  /** Serialized cells keep the hash (a copy authenticates with the same password). */
  exportCell(field: FieldEntity, _apiValue: unknown, raw: RawRow): string | null {
    const hash = raw[fieldColumn(field)];
    return typeof hash === 'string' ? hash : null;
  }

  importCell(_field: FieldEntity, value: unknown): string | null {
    return typeof value === 'string' && value ? value : null;
  }

  toText(): string | null {
    return null;
  }

  convertFrom(): unknown {
    return null;
  }

  /**
   * `POST /api/database/fields/password-authentication/`: whether `password` matches the cell
   * of a row. Only fields with `allow_endpoint_authentication` can be asked (others do not
   * exist, for this endpoint); a wrong or empty cell is 401.
   */
  async authenticate(userId: number, fieldId: number, rowId: number, password: string): Promise<{ is_correct: true }> {
    const found = await this.fields.findWithTable(fieldId);
    if (!found || found.field.type !== this.type || !found.field.properties.allow_endpoint_authentication) throw DatabaseErrors.fieldDoesNotExist();
    const access = await this.tables.findAccess(found.table.id, userId);
    if (!access) throw DatabaseErrors.fieldDoesNotExist();
    const refusal = await this.permissions.refusal(userId, T.readRow, tableScope(access.table, access.workspaceId));
    // Not a member: Baserow's answer here is a plain refusal.
    if (refusal) throw refusal.code === Errors.userNotInWorkspace().code ? Errors.permissionDenied() : refusal;
    const sql = this.rows.sql();
    const [row] = await this.rows.query<Record<string, unknown>>(
      `SELECT ${quote(fieldColumn(found.field))} AS "hash" FROM ${quote(rowsTable(found.table.id))} WHERE "id" = ${sql.param(rowId)} AND ${liveRow()}`,
      sql.params,
    );
    if (!row) throw DatabaseErrors.rowDoesNotExist([rowId]);
    const hash = row.hash;
    const correct = typeof hash === 'string' && hash !== '' && (await this.hasher.verify(hash, password));
    if (!correct) throw new ApiError('ERROR_INVALID_PASSWORD_FIELD_PASSWORD', 401, 'The provided password in incorrect.');
    return { is_correct: true };
  }

  sortExpression(): string | null {
    return null;
  }

  searchCondition(): string | null {
    return null;
  }

  /** Never searched. */
  searchText(): null {
    return null;
  }
}
