/** The driver's error code of a failed statement (TypeORM wraps it in `driverError`). */
function driverCode(error: unknown): string | undefined {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e.driverError?.code ?? e.code;
}

/** A unique index refused the write (PostgreSQL 23505, SQLite's UNIQUE constraint). */
export function isUniqueViolation(error: unknown): boolean {
  const code = driverCode(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** A foreign key refused the write (PostgreSQL 23503, SQLite's FOREIGN KEY constraint). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = driverCode(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
