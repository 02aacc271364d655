import type { SqliteFunctions } from '../../../core/database/sqlite-functions';
import { AGGREGATE_SQLITE_FUNCTIONS } from './aggregates';
import { ARRAY_SORT_SQLITE_FUNCTIONS } from './array-sort';
import { DATE_SQLITE_FUNCTIONS } from './dates';
import { INTERVAL_SQLITE_FUNCTIONS } from './intervals';
import { NUMBER_SQLITE_FUNCTIONS } from './numbers';
import { REGEX_SQLITE_FUNCTIONS } from './regex';
import { TEXT_SQLITE_FUNCTIONS } from './text';
import { TO_CHAR_SQLITE_FUNCTIONS } from './to-char';
import { TO_TIMESTAMP_SQLITE_FUNCTIONS } from './to-timestamp';
import { URI_SQLITE_FUNCTIONS } from './uri';

/**
 * SQL functions PostgreSQL has built in and SQLite lacks, written in JavaScript and added to
 * every SQLite connection (better-sqlite3's `function`), so the SQL the formulas and filters
 * build for both databases can call them by one name. Each must be deterministic and answer
 * NULL for NULL input, as PostgreSQL's built-ins do. Add a function to its family's file, with
 * its PostgreSQL twin noted.
 *
 * The formula module hands this file to the data source (`OwnedSchemaModule.forFeature({
 * sqliteFunctions })`): the main connection and every read worker load it by path, so it and
 * its families import nothing but plain functions (no Nest, no TypeORM).
 */
export const SQLITE_FUNCTIONS: SqliteFunctions = {
  ...DATE_SQLITE_FUNCTIONS,
  ...TO_CHAR_SQLITE_FUNCTIONS,
  ...TO_TIMESTAMP_SQLITE_FUNCTIONS,
  ...INTERVAL_SQLITE_FUNCTIONS,
  ...NUMBER_SQLITE_FUNCTIONS,
  ...AGGREGATE_SQLITE_FUNCTIONS,
  ...ARRAY_SORT_SQLITE_FUNCTIONS,
  ...REGEX_SQLITE_FUNCTIONS,
  ...TEXT_SQLITE_FUNCTIONS,
  ...URI_SQLITE_FUNCTIONS,
};

/** This file, as the data source loads it (`.js` when compiled, `.ts` under jest and ts-node). */
export const SQLITE_FUNCTIONS_MODULE = __filename;
