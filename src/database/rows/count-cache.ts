import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { WriteVersions } from '../../core/database/write-versions';

/**
 * Results of reads over a table's rows (exact counts of listings, grid footers' aggregations),
 * kept by the query (text and bound values) and the versions of what it reads: the metadata
 * (fields) and the rows of the table and of the tables it reaches through links. A row write
 * bumps its table's version when its transaction ends, so an entry is never read after the rows
 * it was computed from changed.
 */
@Injectable()
export class CountCache {
  private readonly entries = new Map<string, unknown>();
  private static readonly LIMIT = 5000;

  constructor(
    private readonly versions: WriteVersions,
    private readonly db: UnitOfWork,
  ) {}

  /**
   * The result of a read over `tableId`'s rows by its SQL text and bound values: kept, or read
   * and kept (not when read inside a transaction, which may see rows not yet committed).
   */
  async remember<T>(tableId: number, text: string, params: unknown[], read: () => Promise<T>): Promise<T> {
    const key = this.keyOfQuery(tableId, text, params);
    const kept = this.get<T>(key);
    if (kept !== undefined) return kept;
    const value = await read();
    if (!this.db.inTransaction) this.set(key, value);
    return value;
  }

  /** The key of a count of `tableId`'s rows whose WHERE reads the rows of `readTables`. */
  key(tableId: number, readTables: number[], where: string, params: unknown[]): string {
    const rows = readTables.map((id) => `${id}.${this.versions.rowsOf(id)}`).join(',');
    return `${tableId}:${this.versions.metadata}:${rows}:${where}:${JSON.stringify(params)}`;
  }

  /** The key of a query over `tableId`'s rows: the tables it reads are those its text names. */
  keyOfQuery(tableId: number, text: string, params: unknown[]): string {
    const linked = [...new Set([...text.matchAll(/"database_table_(\d+)"/g)].map((m) => Number(m[1])))].filter((id) => id !== tableId);
    return this.key(tableId, [tableId, ...linked], text, params);
  }

  get<T = number>(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Most recently used last, so the oldest entries go first when full.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value as T | undefined;
  }

  set(key: string, value: unknown): void {
    this.entries.set(key, value);
    if (this.entries.size > CountCache.LIMIT) this.entries.delete(this.entries.keys().next().value!);
  }
}
