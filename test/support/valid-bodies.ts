import { randomBytes } from 'node:crypto';
import { Operation, sample } from './fuzz';

const COMMENT_MESSAGE = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'A comment' }] }] };

/**
 * Valid bodies of the write routes, naming the objects of `ids`: the permission check, not
 * validation, must be what refuses a stranger (Baserow validates some bodies first).
 */
export const VALID_BODIES: Record<string, (ids: Record<string, string>) => unknown> = {
  create_workspace_invitation: () => ({ email: `invitee-${randomBytes(3).toString('hex')}@example.com`, permissions: 'MEMBER', message: '', base_url: 'http://localhost:8000/invite' }),
  update_workspace_invitation: () => ({ permissions: 'ADMIN' }),
  update_field_permissions: () => ({ role: 'NOBODY', allow_in_forms: true }),
  update_workspace: () => ({ name: 'Renamed' }),
  mark_notification_as_read: () => ({ read: true }),
  update_workspace_user: () => ({ permissions: 'ADMIN' }),
  create_application: () => ({ name: 'New database', type: 'database' }),
  order_applications: (ids) => ({ application_ids: [Number(ids.applicationId)] }),
  update_application: () => ({ name: 'Renamed' }),
  duplicate_application_async: () => ({}),
  create_snapshot: () => ({ name: `Snapshot ${randomBytes(3).toString('hex')}` }),
  create_database_table: () => ({ name: 'New table' }),
  create_database_table_async: () => ({ name: 'New table' }),
  duplicate_database_table_async: () => ({}),
  import_data_database_table_async: () => ({ data: [['imported']] }),
  export_table: () => ({ exporter_type: 'csv' }),
  export_workspace_applications_async: (ids) => ({ application_ids: [Number(ids.applicationId)], only_structure: true }),
  import_workspace_applications_async: (ids) => ({ resource_id: Number(ids.resourceId) }),
  order_database_tables: (ids) => ({ table_ids: [Number(ids.tableId)] }),
  update_database_table: () => ({ name: 'Renamed' }),
  create_database_table_field: () => ({ name: 'New field', type: 'text' }),
  change_primary_field: (ids) => ({ new_primary_field_id: Number(ids.fieldId) }),
  update_database_table_field: () => ({ name: 'Renamed' }),
  duplicate_table_field: () => ({ duplicate_data: true }),
  create_database_table_row: () => ({}),
  batch_create_database_table_rows: () => ({ items: [{}] }),
  batch_update_database_table_rows: (ids) => ({ items: [{ id: Number(ids.rowId) }] }),
  batch_delete_database_table_rows: (ids) => ({ items: [Number(ids.rowId)] }),
  update_database_table_row: () => ({}),
  create_database_table_view: () => ({ name: 'New view', type: 'grid' }),
  order_database_table_views: (ids) => ({ view_ids: [Number(ids.viewId)] }),
  update_database_table_view: () => ({ name: 'Renamed' }),
  premium_view_attributes_update: () => ({ show_logo: false }),
  export_publicly_shared_view: () => ({ exporter_type: 'csv' }),
  update_database_table_view_field_options: (ids) => ({ field_options: { [ids.fieldId]: { width: 120 } } }),
  create_database_table_view_decoration: (ids) => ({
    type: 'background_color',
    value_provider_type: 'conditional_color',
    value_provider_conf: { colors: [{ id: 'c', color: 'red', filters: [{ id: 'f', field: Number(ids.fieldId), type: 'empty' }] }] },
  }),
  update_database_table_view_decoration: (ids) => ({ value_provider_type: 'single_select_color', value_provider_conf: { field_id: Number(ids.fieldId) } }),
  filter_database_table_grid_view_rows: (ids) => ({ row_ids: [Number(ids.rowId)] }),
  submit_database_table_form_view: (ids) => ({ [`field_${ids.fieldId}`]: 'Submitted' }),
  create_database_table_view_filter: (ids) => ({ field: Number(ids.fieldId), type: 'contains', value: 'x', group: Number(ids.viewFilterGroupId) }),
  update_database_table_view_filter: (ids) => ({ field: Number(ids.fieldId), type: 'contains', value: 'x' }),
  create_database_table_view_filter_group: (ids) => ({ filter_type: 'OR', parent_group: Number(ids.viewFilterGroupId) }),
  update_database_table_view_filter_group: () => ({ filter_type: 'OR' }),
  create_database_table_view_sort: (ids) => ({ field: Number(ids.fieldId), order: 'DESC' }),
  update_database_table_view_sort: (ids) => ({ field: Number(ids.fieldId), order: 'DESC' }),
  create_database_table_view_group_by: (ids) => ({ field: Number(ids.fieldId), order: 'DESC' }),
  update_database_table_view_group_by: (ids) => ({ field: Number(ids.fieldId), width: 300 }),
  create_row_comment: () => ({ message: COMMENT_MESSAGE }),
  update_row_comment: () => ({ message: COMMENT_MESSAGE }),
  update_row_comment_notification_mode: () => ({ mode: 'all' }),
  public_view_token_auth: () => ({ password: 'a password' }),
  create_database_table_webhook: () => ({ name: 'Hook', url: 'http://93.184.216.34/hook', include_all_events: false, events: ['view.deleted'] }),
  update_database_table_webhook: () => ({ name: 'Renamed' }),
  test_call_database_table_webhook: () => ({ url: 'http://93.184.216.34/hook', event_type: 'rows.created' }),
  assign_role: (ids) => ({ subject_type: 'auth.User', subject_id: Number(ids.userId), scope_type: 'database_table', scope_id: Number(ids.tableId), role: 'VIEWER' }),
  batch_assign_role: (ids) => ({
    items: [
      { subject_type: 'auth.User', subject_id: Number(ids.userId), scope_type: 'application', scope_id: Number(ids.applicationId), role: 'EDITOR' },
      { subject_type: 'auth.User', subject_id: Number(ids.userId), scope_type: 'workspace', scope_id: Number(ids.workspaceId), role: 'VIEWER' },
    ],
  }),
  workspace_create_team: (ids) => ({ name: `Team ${randomBytes(3).toString('hex')}`, default_role: 'ADMIN', subjects: [{ subject_id: Number(ids.userId), subject_type: 'auth.User' }] }),
  update_team: (ids) => ({ name: 'Renamed', default_role: 'ADMIN', subjects: [{ subject_id: Number(ids.userId), subject_type: 'auth.User' }] }),
  create_subject: (ids) => ({ subject_id: Number(ids.userId), subject_type: 'auth.User' }),
  async_audit_log_export: () => ({}),
  admin_async_audit_log_export: () => ({}),
  create_mcp_endpoint: (ids) => ({ name: `MCP ${randomBytes(3).toString('hex')}`, workspace_id: Number(ids.workspaceId) }),
  update_mcp_endpoint: () => ({ name: 'Renamed' }),
  update_database_token: (ids) => ({ name: 'Renamed', rotate_key: true, permissions: { create: [['table', Number(ids.tableId)]], read: true, update: false, delete: false } }),
};

export const hasBody = (op: Operation) => ['POST', 'PATCH', 'PUT'].includes(op.method);
/** The route's valid body (VALID_BODIES, else a sample of its schema) naming the objects of `ids`; none for a route without one. */
export const bodyFor = (op: Operation, ids: Record<string, string>) => (hasBody(op) ? (VALID_BODIES[op.operationId]?.(ids) ?? sample(op.body ?? { type: 'object' }, ids)) : undefined);
