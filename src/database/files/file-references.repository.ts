import { Inject, Injectable } from '@nestjs/common';
import type { Dialect } from '../../core/database/dialect';
import { escapeLike } from '../../core/database/dialect';
import { quote, Sql } from '../../core/database/sql';
import { DIALECT } from '../../core/database/tokens';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { formulaDialect } from '../formula/formula-dialect';
import { fieldColumn, rowsTable } from '../fields/field-type';

/** Where user files are named: file cells (of every row, trashed ones too) and row history. */
@Injectable()
export class FileReferencesRepository {
  constructor(
    private readonly db: UnitOfWork,
    @Inject(DIALECT) private readonly dialect: Dialect,
  ) {}

  /** Every file field whose table still exists, trashed or not (a trashed field keeps its cells). */
  fileFields(): Promise<{ id: number; tableId: number }[]> {
    return this.db.manager.query(
      `SELECT f."id" AS "id", f."table_id" AS "tableId" FROM "database_field" f JOIN "database_table" t ON t."id" = f."table_id" WHERE f."type" = 'file'`,
    );
  }

  /** Which of `names` the field's cells name. */
  async namedInCells(field: { id: number; tableId: number }, names: string[]): Promise<Set<string>> {
    if (!names.length) return new Set();
    const sql = new Sql(this.dialect);
    const db = formulaDialect(this.dialect);
    const items = db.jsonArrayItems(`"r".${quote(fieldColumn(field))}`, quote('files'));
    const name = db.jsonGetText(items.item, 'name');
    const rows: { name: string }[] = await this.db.manager.query(
      `SELECT DISTINCT ${name} AS "name" FROM ${quote(rowsTable(field.tableId))} "r", ${items.from} WHERE ${name} IN ${sql.list(names)}`,
      sql.params,
    );
    return new Set(rows.map((row) => row.name));
  }

  /** Whether a row history entry names `name` (before or after the change). */
  async namedInHistory(name: string): Promise<boolean> {
    const sql = new Sql(this.dialect);
    const pattern = `%${escapeLike(name)}%`;
    const rows = await this.db.manager.query(
      `SELECT 1 AS "found" FROM "database_rowhistory" WHERE "before_values" LIKE ${sql.param(pattern)} ESCAPE '\\' OR "after_values" LIKE ${sql.param(pattern)} ESCAPE '\\' LIMIT 1`,
      sql.params,
    );
    return rows.length > 0;
  }
}
