import { ApplicationOperations as A, TableOperations as T, ViewOperations as V, WorkspaceOperations as W } from './operations';

/**
 * What anyone signed in may do on the objects of a template's preview workspace (Baserow's
 * `allow_if_template` permission manager, core's list then the database's): read the
 * workspace, list its applications, tables, fields, rows and views, read a row, a view, its
 * field options, decorations and aggregations. Nothing else: no write, no socket page, no token.
 */
export const TEMPLATE_READS: ReadonlySet<string> = new Set(
  [W.read, W.listApplications, A.listTables, T.listFields, T.listRows, V.list, T.readRow, V.read, V.readFieldOptions, V.listDecorations, V.listAggregations, V.readAggregation].map(
    (operation) => operation.name,
  ),
);

/**
 * The names the permissions endpoint's `allow_if_template` object lists, as Baserow 1.35.3
 * answers them (its core, database, builder and dashboard apps each add theirs; those of
 * applications Rowspace does not serve name nothing here).
 */
export const TEMPLATE_OPERATION_NAMES: readonly string[] = [
  'workspace.read', 'workspace.list_applications', 'application.list_integrations',
  'application.list_user_sources', 'application.user_source.login',
  'database.table.field_rules.read_field_rules',
  'database.list_tables', 'database.table.list_fields', 'database.table.list_rows',
  'database.table.list_views', 'database.table.read_row', 'database.table.view.read',
  'database.table.view.read_field_options', 'database.table.view.list_decoration',
  'database.table.view.list_aggregations', 'database.table.view.read_aggregation',
  'builder.list_pages', 'builder.page.list_elements', 'builder.page.list_workflow_actions',
  'builder.page.data_source.dispatch', 'builder.page.list_data_sources',
  'dashboard.widget.read', 'dashboard.list_widgets', 'dashboard.data_source.read',
  'dashboard.list_data_sources', 'dashboard.data_source.dispatch',
];
