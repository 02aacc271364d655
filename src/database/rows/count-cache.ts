import { Injectable } from '@nestjs/common';

/**
 * Exact row counts of listings, kept by table, the table's row and field versions and the
 * compiled WHERE (text and bound values). A committed row write bumps the version, so an
 * entry is never read after the rows it counted changed.
 */
@Injectable()
export class CountCache {
  private readonly entries = new Map<string, number>();
  private static readonly LIMIT = 5000;

  key(tableId: number, rowsVersion: number, fieldsVersion: number, where: string, params: unknown[]): string {
    return `${tableId}:${rowsVersion}:${fieldsVersion}:${where}:${JSON.stringify(params)}`;
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
