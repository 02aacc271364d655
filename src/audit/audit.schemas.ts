import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

const page = (item: SchemaObject): SchemaObject => ({
  type: 'object',
  properties: { count: { type: 'integer' }, next: { type: 'string', nullable: true }, previous: { type: 'string', nullable: true }, results: { type: 'array', items: item } },
  required: ['count', 'next', 'previous', 'results'],
});

/** Baserow's AuditLogSerializer. */
export const AUDIT_ENTRY_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    action_type: { type: 'string' },
    user: { type: 'string', description: '`email (id)`, or empty.' },
    workspace: { type: 'string', description: '`name (id)`, or empty.' },
    type: { type: 'string', description: "The action type's short description." },
    description: { type: 'string', description: 'What was done, with its values; `UNDONE: ` or `REDONE: ` first for an undo or redo.' },
    timestamp: { type: 'string', format: 'date-time' },
    ip_address: { type: 'string', nullable: true },
  },
};

export const AUDIT_ENTRY_PAGE_SCHEMA = page(AUDIT_ENTRY_SCHEMA);
export const LOOKUP_PAGE_SCHEMA = page({ type: 'object', properties: { id: { oneOf: [{ type: 'integer' }, { type: 'string' }] }, value: { type: 'string' } } });

/** Baserow's SingleAuditLogExportJobResponseSerializer. */
export const AUDIT_EXPORT_JOB_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    type: { type: 'string', enum: ['audit_log_export'] },
    progress_percentage: { type: 'integer' },
    state: { type: 'string' },
    human_readable_error: { type: 'string' },
    csv_column_separator: { type: 'string' },
    csv_first_row_header: { type: 'boolean' },
    export_charset: { type: 'string' },
    filter_user_id: { type: 'integer', nullable: true },
    filter_workspace_id: { type: 'integer', nullable: true },
    filter_action_type: { type: 'string', nullable: true },
    filter_from_timestamp: { type: 'string', format: 'date-time', nullable: true },
    filter_to_timestamp: { type: 'string', format: 'date-time', nullable: true },
    exclude_columns: { type: 'string', nullable: true },
    created_on: { type: 'string', format: 'date-time' },
    exported_file_name: { type: 'string', nullable: true },
    url: { type: 'string', nullable: true },
  },
};
