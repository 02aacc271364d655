import { Injectable } from '@nestjs/common';
import { escapeLike } from '../../../core/database/dialect';
import { Sql } from '../../../core/database/sql';
import type { FieldEntity } from '../field.entity';
import { CellError, cellError, ColumnRef, FieldContext, FieldType, RawRow, RelationSource, SearchSource, USERS_SEARCH_SOURCE } from '../field-type';
import { Junction } from './junction';
import { joinedText } from './search-text';
import { joinCommaSeparated } from '../values/comma-separated';
import type { ImportIds } from '../../serialization/database-document';

type Collaborator = { id: number; name: string };

/** `multiple_collaborators`: members of the workspace, in `database_collaborators_<field id>`. */
@Injectable()
export class MultipleCollaboratorsFieldType implements FieldType {
  readonly type = 'multiple_collaborators';
  readonly readOnly = false;
  readonly canIndex = false;
  readonly properties = {
    notify_user_when_added: { kind: 'bool', required: false, default: true },
  } as const;

  private junction(field: FieldEntity): Junction {
    return new Junction(`database_collaborators_${field.id}`, 'row_id', 'user_id');
  }

  canBePrimary(): boolean {
    return true;
  }

  column(): null {
    return null;
  }

  async createStorage(field: FieldEntity, ctx: FieldContext): Promise<void> {
    await this.junction(field).create(ctx);
  }

  async dropStorage(field: FieldEntity, ctx: FieldContext): Promise<void> {
    await this.junction(field).drop(ctx);
  }

  /** Imported cells keep the collaborators who are members of the new workspace. */
  async importCell(_field: FieldEntity, value: unknown, _ids: ImportIds, ctx: FieldContext): Promise<number[]> {
    const ids = (Array.isArray(value) ? value : []).map((item) => Number((item as { id?: unknown })?.id)).filter((id) => Number.isInteger(id));
    if (!ids.length) return [];
    const members = new Set((await this.members(ctx, [...new Set(ids)])).map((m) => m.id));
    return [...new Set(ids)].filter((id) => members.has(id));
  }

  /** The members of the table's workspace, by id. */
  private async members(ctx: FieldContext, userIds?: number[]): Promise<Collaborator[]> {
    const sql = new Sql(ctx.dialect);
    // Bound in the order the placeholders appear (SQLite's `?` are positional).
    const database = sql.param(ctx.table.databaseId);
    const only = userIds ? ` AND u."id" IN ${sql.list(userIds)}` : '';
    const rows: Record<string, unknown>[] = await ctx.manager.query(
      `SELECT u."id" AS "id", u."first_name" AS "name" FROM "user" u JOIN "workspace_user" wu ON wu."user_id" = u."id" JOIN "application" a ON a."workspace_id" = wu."workspace_id" WHERE a."id" = ${database}${only} ORDER BY u."id"`,
      sql.params,
    );
    return rows.map((r) => ({ id: Number(r.id), name: String(r.name) }));
  }

  async serializeExtra(_field: FieldEntity, ctx: FieldContext): Promise<Record<string, unknown>> {
    return { available_collaborators: await this.members(ctx) };
  }

  /** `[{"id": user_id}, …]`; users that are not members of the workspace are refused. */
  async prepareValue(_field: FieldEntity, value: unknown, ctx: FieldContext): Promise<number[]> {
    if (value === null || value === undefined) return [];
    if (!Array.isArray(value)) throw cellError(`Expected a list of items but got type "${typeof value === 'object' ? 'dict' : typeof value}".`, 'not_a_list');
    const ids: number[] = [];
    for (const item of value) {
      const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
      if (typeof id !== 'number' || !Number.isInteger(id)) throw cellError('Invalid data. Expected a dictionary with a valid integer "id".', 'invalid');
      if (!ids.includes(id)) ids.push(id);
    }
    if (!ids.length) return [];
    const found = new Set((await this.members(ctx, ids)).map((m) => m.id));
    const invalid = ids.filter((id) => !found.has(id));
    if (invalid.length) {
      const list = `[${invalid.join(', ')}]`;
      throw new CellError(invalid.length > 1 ? `The provided user ids ${list} are not valid collaborators.` : `The provided user id ${list} is not a valid collaborator.`);
    }
    return ids;
  }

  defaultValue(): number[] {
    return [];
  }

  async writeRelations(field: FieldEntity, rows: { id: number; value: unknown }[], ctx: FieldContext): Promise<void> {
    await this.junction(field).write(ctx, rows);
  }

  async deleteRelations(field: FieldEntity, rowIds: number[], ctx: FieldContext): Promise<void> {
    await this.junction(field).deleteWhere(ctx, 'row_id', rowIds);
  }

  async readValues(field: FieldEntity, rows: RawRow[], ctx: FieldContext): Promise<Collaborator[][]> {
    const byRow = await this.junction(field).read(
      ctx,
      rows.map((r) => Number(r.id)),
      { table: 'user' },
    );
    const userIds = [...new Set([...byRow.values()].flat())];
    const names = new Map<number, string>();
    if (userIds.length) {
      const sql = new Sql(ctx.dialect);
      const users: Record<string, unknown>[] = await ctx.manager.query(`SELECT "id", "first_name" FROM "user" WHERE "id" IN ${sql.list(userIds)}`, sql.params);
      for (const u of users) names.set(Number(u.id), String(u.first_name));
    }
    return rows.map((row) => (byRow.get(Number(row.id)) ?? []).map((id) => ({ id, name: names.get(id) ?? '' })));
  }

  toText(_field: FieldEntity, apiValue: unknown): string | null {
    const names = ((apiValue as Collaborator[] | null) ?? []).map((c) => c.name);
    return names.length ? names.join(', ') : null;
  }

  /** Exported as the collaborators' names: a list (JSON, XML) or Baserow's comma-separated text (CSV, Excel). */
  exportValue(_field: FieldEntity, apiValue: unknown, rich: boolean): unknown {
    const names = ((apiValue as Collaborator[] | null) ?? []).map((c) => c.name);
    return rich ? names : joinCommaSeparated(names);
  }

  /** Collaborators only come from collaborator fields (other values are not user ids). */
  convertFrom(_field: FieldEntity, apiValue: unknown, from: FieldEntity): unknown {
    if (from.type === this.type) return apiValue;
    return null;
  }

  sortExpression(): string | null {
    return null;
  }

  searchCondition(field: FieldEntity, ref: ColumnRef, term: string): string | null {
    return this.junction(field).exists(ref.alias, 'user', ref.sql.dialect.ilike('x."first_name"', ref.sql.param(`%${escapeLike(term)}%`)));
  }

  /** The collaborators' names, in the cell's order, joined by spaces. */
  searchText(field: FieldEntity, ref: ColumnRef): string {
    const { relation, target } = this.junction(field).relation(ref.alias, `mc_${field.id}`, 'user');
    return joinedText(relation, `${target}."first_name"`, `mca_${field.id}`, ref);
  }

  /** The junction, and users (their names). */
  searchSources(field: FieldEntity): SearchSource[] {
    return [this.junction(field).searchSource(), USERS_SEARCH_SOURCE];
  }

  relationSource(field: FieldEntity): RelationSource {
    return this.junction(field).source();
  }
}
