import { Injectable } from '@nestjs/common';
import { WriteVersions } from '../../core/database/write-versions';

/**
 * Exact row counts of listings, kept by the compiled WHERE (text and bound values) and the
 * versions of what it reads: the metadata (fields) and the rows of the table and of the tables
 * it reaches through links. A row write bumps its table's version when its transaction ends, so
 * an entry is never read after the rows it counted changed.
 */
@Injectable()
export class CountCache {
  private readonly entries = new Map<string, number>();
  private static readonly LIMIT = 5000;

  constructor(private readonly versions: WriteVersions) {}

  /** The key of a count of `tableId`'s rows whose WHERE reads the rows of `readTables`. */
  key(tableId: number, readTables: number[], where: string, params: unknown[]): string {
    const rows = readTables.map((id) => `${id}.${this.versions.rowsOf(id)}`).join(',');
    return `${tableId}:${this.versions.metadata}:${rows}:${where}:${JSON.stringify(params)}`;
  }

  get(key: string): number | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Most recently used last, so the oldest entries go first when full.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, count: number): void {
    this.entries.set(key, count);
    if (this.entries.size > CountCache.LIMIT) this.entries.delete(this.entries.keys().next().value!);
  }
}
