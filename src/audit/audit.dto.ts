import { Field } from '../core/validation/field';
import type { FieldError } from '../core/errors/api-error';
import { CSV_SEPARATORS, EXPORT_CHARSETS } from '../database/export/export.dto';
import { AUDIT_ACTION_TYPES } from './audit-descriptions';

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** DRF's DateTimeField: ISO 8601 (a date alone is its midnight; no zone: UTC); answers the instant, or null. */
export function parseApiDateTime(text: string): Date | null {
  const m = DATETIME.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0', zone] = m;
  const ms = Math.floor(Number(frac.padEnd(6, '0')) / 1000);
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const check = new Date(local);
  if (check.getUTCFullYear() !== Number(y) || check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  let offset = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    offset = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0')) * (zone[0] === '-' ? -1 : 1);
  }
  return new Date(local - offset * 60_000);
}

const dateTimeCheck = (value: unknown): FieldError | null =>
  typeof value === 'string' && parseApiDateTime(value)
    ? null
    : { error: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].', code: 'invalid' };

/** The CSV columns of an export (Baserow's AUDIT_LOG_CSV_COLUMN_NAMES) and their header. */
export const AUDIT_CSV_COLUMNS: Readonly<Record<string, string>> = {
  user_email: 'User Email',
  user_id: 'User ID',
  workspace_name: 'Group Name',
  workspace_id: 'Group ID',
  type: 'Action Type',
  description: 'Description',
  timestamp: 'Timestamp',
  ip_address: 'IP Address',
};

/** Baserow's CommaSeparatedCsvColumnsField. */
const excludeColumnsCheck = (value: unknown): FieldError | null => {
  const items = String(value).split(',');
  if (new Set(items).size !== items.length) return { error: 'Duplicate items are not allowed.', code: 'invalid' };
  const bad = items.find((item) => !(item in AUDIT_CSV_COLUMNS));
  if (bad !== undefined) return { error: `${bad} is not a valid choice.`, code: 'invalid' };
  if (items.length === Object.keys(AUDIT_CSV_COLUMNS).length) return { error: 'At least one column must be included.', code: 'invalid' };
  return null;
};

/** Baserow's AuditLogQueryParamsSerializer (and the listing's `size`). */
export class AuditLogQuery {
  @Field({ kind: 'int', required: false, default: 1, description: 'Defines which page should be returned.' })
  page: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Defines how many audit log entries should be returned per page (at most 100).' })
  size?: number;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'If provided only audit log entries with id that match the query will be returned.' })
  search?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Comma-separated `+attribute` or `-attribute` among `user, workspace, type, timestamp, ip_address`; the newest first when absent.' })
  sorts?: string;

  @Field({ kind: 'int', min: 1, required: false, description: 'Filter the audit log entries by user id.' })
  user_id?: number;

  @Field({ kind: 'int', min: 1, required: false, description: 'Filter the audit log entries by workspace id (required of a workspace admin who is not staff).' })
  workspace_id?: number;

  @Field({ kind: 'choice', choices: AUDIT_ACTION_TYPES, required: false, description: 'Filter the audit log entries by action type.' })
  action_type?: string;

  @Field({ kind: 'string', required: false, check: dateTimeCheck, description: 'The ISO timestamp to filter the audit log entries from.' })
  from_timestamp?: string;

  @Field({ kind: 'string', required: false, check: dateTimeCheck, description: 'The ISO timestamp to filter the audit log entries to.' })
  to_timestamp?: string;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Filter the audit log entries by IP address.' })
  ip_address?: string;
}

/** The lookups' query (Baserow's AuditLogWorkspaceFilterQueryParamsSerializer, search and page). */
export class AuditLookupQuery {
  @Field({ kind: 'int', min: 1, required: false, description: 'Only what belongs to this workspace (required of a workspace admin who is not staff).' })
  workspace_id?: number;

  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Only the items whose name contains this, case-insensitively.' })
  search?: string;

  @Field({ kind: 'int', min: 1, fallback: 1, required: false, description: 'Defines which page should be returned.' })
  page?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Defines how many items should be returned per page (at most 100).' })
  size?: number;
}

/** The staff's workspace lookup: search and page only. */
export class AuditWorkspaceLookupQuery {
  @Field({ kind: 'string', required: false, allowBlank: true, description: 'Only the workspaces whose name contains this, case-insensitively.' })
  search?: string;

  @Field({ kind: 'int', min: 1, fallback: 1, required: false, description: 'Defines which page should be returned.' })
  page?: number;

  @Field({ kind: 'int', min: 1, fallback: 100, required: false, description: 'Defines how many workspaces should be returned per page (at most 100).' })
  size?: number;
}

/** The `audit_log_export` job's request (Baserow's AuditLogExportJobType request serializer). */
export class AuditLogExportDto {
  @Field({ kind: 'choice', choices: Object.keys(CSV_SEPARATORS), required: false, default: ',', description: 'The value used to separate columns in the resulting csv file.' })
  csv_column_separator: string;

  @Field({ kind: 'bool', required: false, default: true, description: 'Whether or not to generate a header row at the top of the csv file.' })
  csv_first_row_header: boolean;

  @Field({ kind: 'choice', choices: Object.keys(EXPORT_CHARSETS), required: false, default: 'utf-8', description: 'The character set to use when creating the export file.' })
  export_charset: string;

  @Field({ kind: 'int', min: 0, required: false, description: 'Optional: The user to filter the audit log by.' })
  filter_user_id?: number;

  @Field({ kind: 'int', min: 0, required: false, description: 'Optional: The workspace to filter the audit log by.' })
  filter_workspace_id?: number;

  @Field({ kind: 'choice', choices: AUDIT_ACTION_TYPES, required: false, nullable: true, default: null, description: 'Optional: The action type to filter the audit log by.' })
  filter_action_type: string | null;

  @Field({ kind: 'string', required: false, check: dateTimeCheck, description: 'Optional: The start date to filter the audit log by.' })
  filter_from_timestamp?: string;

  @Field({ kind: 'string', required: false, check: dateTimeCheck, description: 'Optional: The end date to filter the audit log by.' })
  filter_to_timestamp?: string;

  @Field({ kind: 'string', required: false, check: excludeColumnsCheck, description: `Optional: A comma separated list of column names to exclude from the export. Available options are \`${Object.keys(AUDIT_CSV_COLUMNS).join(', ')}\`.` })
  exclude_columns?: string;
}
