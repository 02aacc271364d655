import { idList, quote, Sql } from '../../../core/database/sql';
import type { ArrayRelation } from '../../formula/expr';
import type { FieldContext, SearchSource } from '../field-type';

/**
 * A junction table of a field type whose cells are lists (links, multiple select options,
 * collaborators): one row per (owner row, target) pair, kept in insertion order by `id`.
 * Its DDL runs on the caller's transaction, like the rest of the field's storage.
 */
export class Junction {
  constructor(
    readonly table: string,
    /** The column holding the row of the field's own table. */
    readonly owner: string,
    /** The column holding what the cell points at (a linked row, an option, a user). */
    readonly target: string,
  ) {}

  /** The same table read from the other side (the related link field). */
  reversed(): Junction {
    return new Junction(this.table, this.target, this.owner);
  }

  async create(ctx: FieldContext): Promise<void> {
    const t = quote(this.table);
    const int = ctx.dialect.columnType({ name: this.owner, kind: 'integer' });
    await ctx.manager.query(`CREATE TABLE IF NOT EXISTS ${t} (${ctx.dialect.rowIdColumn}, ${quote(this.owner)} ${int} NOT NULL, ${quote(this.target)} ${int} NOT NULL)`);
    await ctx.manager.query(`CREATE INDEX IF NOT EXISTS ${quote(`${this.table}_${this.owner}`)} ON ${t} (${quote(this.owner)})`);
    await ctx.manager.query(`CREATE INDEX IF NOT EXISTS ${quote(`${this.table}_${this.target}`)} ON ${t} (${quote(this.target)})`);
  }

  async drop(ctx: FieldContext): Promise<void> {
    await ctx.manager.query(`DROP TABLE IF EXISTS ${quote(this.table)}`);
  }

  /** The targets of each owner row, in insertion order (one query for all rows). */
  async read(ctx: FieldContext, ownerIds: number[], join?: { table: string; column?: string }): Promise<Map<number, number[]>> {
    const result = new Map<number, number[]>(ownerIds.map((id) => [id, []]));
    if (!ownerIds.length) return result;
    const sql = new Sql(ctx.dialect);
    const o = quote(this.owner);
    const tg = quote(this.target);
    // Joining the target table leaves out pairs whose target is gone (a deleted linked row).
    const joinSql = join ? ` JOIN ${quote(join.table)} x ON x.${quote(join.column ?? 'id')} = j.${tg}` : '';
    const rows: Record<string, unknown>[] = await ctx.manager.query(
      `SELECT j.${o} AS "o", j.${tg} AS "t" FROM ${quote(this.table)} j${joinSql} WHERE j.${o} IN ${idList(sql, ownerIds)} ORDER BY j."id"`,
      sql.params,
    );
    for (const row of rows) result.get(Number(row.o))?.push(Number(row.t));
    return result;
  }

  /** Replaces the targets of the given owner rows. */
  async write(ctx: FieldContext, rows: { id: number; value: unknown }[]): Promise<void> {
    if (!rows.length) return;
    await this.deleteWhere(ctx, this.owner, rows.map((r) => r.id));
    const pairs = rows.flatMap((r) => ((r.value as number[] | null) ?? []).map((target) => [r.id, target]));
    for (let i = 0; i < pairs.length; i += 400) {
      const sql = new Sql(ctx.dialect);
      const values = pairs
        .slice(i, i + 400)
        .map(([owner, target]) => `(${sql.param(owner)}, ${sql.param(target)})`)
        .join(', ');
      await ctx.manager.query(`INSERT INTO ${quote(this.table)} (${quote(this.owner)}, ${quote(this.target)}) VALUES ${values}`, sql.params);
    }
  }

  async deleteWhere(ctx: FieldContext, column: string, ids: number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      const sql = new Sql(ctx.dialect);
      await ctx.manager.query(`DELETE FROM ${quote(this.table)} WHERE ${quote(column)} IN ${sql.list(ids.slice(i, i + 500))}`, sql.params);
    }
  }

  /** The junction as filters reach it (`relationSource` of the types that use one). */
  source(): { from: string; rowColumn: string; targetColumn: string } {
    return { from: quote(this.table), rowColumn: quote(this.owner), targetColumn: quote(this.target) };
  }

  /**
   * The pairs of the row aliased `ownerAlias` as a relation (in insertion order), each joined to
   * its target in `joinTable` aliased `alias`_x (the junction itself is `alias`_j).
   */
  relation(ownerAlias: string, alias: string, joinTable: string, joinColumn = 'id'): { relation: ArrayRelation; target: string } {
    const j = quote(`${alias}_j`);
    const x = quote(`${alias}_x`);
    return {
      relation: {
        from: `${quote(this.table)} ${j} JOIN ${quote(joinTable)} ${x} ON ${x}.${quote(joinColumn)} = ${j}.${quote(this.target)}`,
        where: [`${j}.${quote(this.owner)} = ${quote(ownerAlias)}."id"`],
        order: `${j}."id"`,
        id: `${j}.${quote(this.target)}`,
      },
      target: x,
    };
  }

  /** Full-text search: writes of the junction change its owner rows' texts. */
  searchSource(): SearchSource {
    return { table: this.table, column: this.owner };
  }

  /** `EXISTS` a pair of the row aliased `alias` whose target matches `condition` (on `x`, joined by `joinTable`). */
  exists(alias: string, joinTable: string, condition: string, joinColumn = 'id'): string {
    return `EXISTS (SELECT 1 FROM ${quote(this.table)} j JOIN ${quote(joinTable)} x ON x.${quote(joinColumn)} = j.${quote(this.target)} WHERE j.${quote(this.owner)} = ${quote(alias)}."id" AND ${condition})`;
  }
}
