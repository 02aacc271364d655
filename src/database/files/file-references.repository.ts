import { Inject, Injectable } from '@nestjs/common';
import type { Dialect } from '../../core/database/dialect';
import { quote, Sql } from '../../core/database/sql';
import { DIALECT } from '../../core/database/tokens';
import { UnitOfWork } from '../../core/database/unit-of-work';
import { formulaDialect } from '../formula/formula-dialect';
import { fieldColumn, rowsTable } from '../fields/field-type';

/** A user file name inside JSON text (`<unique>_<sha256>.<extension>`). */
const USER_FILE_NAME = /[A-Za-z0-9]+_[A-Za-z0-9]{64}\.[A-Za-z0-9]*/g;

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

  /**
   * Every user file name the row history keeps (before or after a change of a file cell),
   * read a page at a time from the entries whose changed fields include a file field.
   */
  async namedInHistory(): Promise<Set<string>> {
    const names = new Set<string>();
    for (let afterId = 0; ; ) {
      const sql = new Sql(this.dialect);
      const rows: { id: number; before_values: string; after_values: string }[] = await this.db.manager.query(
        `SELECT "id", "before_values", "after_values" FROM "database_rowhistory" WHERE "id" > ${sql.param(afterId)} AND "fields_metadata" LIKE ${sql.param('%"type":"file"%')} ORDER BY "id" LIMIT 1000`,
        sql.params,
      );
      if (!rows.length) return names;
      afterId = rows[rows.length - 1].id;
      for (const row of rows) for (const match of `${row.before_values}${row.after_values}`.matchAll(USER_FILE_NAME)) names.add(match[0]);
    }
  }
}
