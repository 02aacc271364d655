import type { INestApplication } from '@nestjs/common';
import { WriteVersions } from '../../src/core/database/write-versions';

/**
 * Every SQL statement the app sends from now on, whitespace collapsed, appended to the list
 * answered (each statement passes WriteVersions.observe, which keeps working as before).
 */
export function recordStatements(app: INestApplication): string[] {
  const sent: string[] = [];
  const versions = app.get(WriteVersions);
  const observe = versions.observe.bind(versions);
  versions.observe = (sql) => {
    sent.push(sql.replace(/\s+/g, ' '));
    observe(sql);
  };
  return sent;
}
