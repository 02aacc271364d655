import { statementKind } from '../src/core/database/write-versions';

describe('statementKind: which statements may change what the metadata caches hold', () => {
  test.each([
    ['SELECT * FROM "user" WHERE id = $1', 'read'],
    ['  select count(*) from "database_table_4"', 'read'],
    ['WITH x AS (SELECT 1) SELECT * FROM x', 'read'],
    ['PRAGMA table_info("database_table_1")', 'read'],
    ['BEGIN TRANSACTION', 'begin'],
    ['START TRANSACTION', 'begin'],
    ['COMMIT', 'commit'],
    ['ROLLBACK', 'rollback'],
    ['ROLLBACK TO SAVEPOINT typeorm_1', 'savepoint'],
    ['SAVEPOINT typeorm_1', 'savepoint'],
    ['RELEASE SAVEPOINT typeorm_1', 'savepoint'],
    ['INSERT INTO "database_table_12" ("order") VALUES (?) RETURNING *', 'rows'],
    ['UPDATE "database_table_12" SET "field_3" = ?', 'rows'],
    ['DELETE FROM "database_relation_7" WHERE "id" IN (?)', 'rows'],
    ['INSERT INTO "database_rowhistory" ("table_id") VALUES (?)', 'rows'],
    ['UPDATE "job" SET "progress_percentage" = ?', 'rows'],
    ['INSERT OR REPLACE INTO "database_search_12" ("rowid") VALUES (?)', 'rows'],
    ['DELETE FROM "database_search_pending" WHERE "table_id" = ?', 'rows'],
    ['UPDATE "database_table" SET "fields_version" = fields_version + 1', 'metadata'],
    ['INSERT INTO "workspace_user" ("user_id") VALUES (?)', 'metadata'],
    ['DELETE FROM "user" WHERE "id" = ?', 'metadata'],
    ['UPDATE "database_table_12_x" SET a = 1', 'metadata'],
    ['ALTER TABLE "database_table_12" ADD COLUMN "field_9" text', 'metadata'],
    ['CREATE INDEX "i" ON "database_table_12" ("field_9")', 'metadata'],
    ['WITH moved AS (UPDATE "database_field" SET "order" = 1 RETURNING id) SELECT * FROM moved', 'metadata'],
    ['VACUUM', 'metadata'],
  ])('%s → %s', (sql, kind) => {
    expect(statementKind(sql)).toBe(kind);
  });
});
