import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PageTypeRegistry } from '../src/realtime/pages/page-type';
import { NO_TIMED_WORK, signUp, SignedUp, startApp, TEST_DB, TestApp } from './support/app';
import { fingerprint } from './support/fingerprint';
import { addMember, createTenant, endedJob, fillPath, Tenant } from './support/fixtures';
import { Operation, operationsOf } from './support/fuzz';
import { bodyFor } from './support/valid-bodies';
import { connect, SETTLE_MS, WsClient } from './support/ws';

/** A test making one pass over every route of the API for each role (its time grows with the API, not with a fault). */
const ROUTE_PASS_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * The role matrix: every route × every role of Baserow enterprise. Alice owns a tenant whose
 * database and table carry secret markers; one member per role joins her workspace (the role on
 * the workspace), and one more is EDITOR on the workspace but NO_ACCESS on her table. For every
 * route, the roles below the least one that may do it are refused, change nothing and (the
 * NO_ACCESS ones) see nothing of hers; the least role is not refused. The least roles are in
 * MATRIX below, read from Baserow 1.35.3 (enterprise `role/default_roles.py`, each route's API
 * view for its operation), not from Rowspace's own role table; a route of the OpenAPI document
 * without an entry fails the suite.
 */

/** The roles from the least to the most capable (NO_ACCESS below them all). */
const LADDER = ['VIEWER', 'COMMENTER', 'EDITOR', 'BUILDER', 'ADMIN'] as const;
type Role = (typeof LADDER)[number];
/** The members of Alice's workspace: one per role, and EDITOR with NO_ACCESS on Alice's table. */
type Who = Role | 'NO_ACCESS' | 'TABLE_NO_ACCESS';
const MEMBERS: readonly Who[] = ['ADMIN', 'BUILDER', 'EDITOR', 'COMMENTER', 'VIEWER', 'NO_ACCESS', 'TABLE_NO_ACCESS'];

/** Where a route's object sits (which assignment decides it): table-level routes are refused to the table's NO_ACCESS. */
type Level = 'workspace' | 'application' | 'table';

interface Scoped {
  /** The least default role whose operations include the route's operation. */
  min: Role;
  /** The Baserow operation type the route's view checks. */
  baserow: string;
  /**
   * A workspace BUILDER is stored as the historical MEMBER, which Rowspace keeps as Baserow's
   * `basic` permission manager answers it (the core spec): `invalid` for its admin-only
   * operations (400 ERROR_USER_INVALID_GROUP_PERMISSIONS even where an enterprise role below
   * BUILDER may), `allowed` for what the enterprise roles keep to ADMIN but `basic` allows a MEMBER.
   */
  builder?: 'invalid' | 'allowed';
  /** The refusal when it is not 401 PERMISSION_DENIED. */
  refusal?: [number, string];
  /** The route's level when its path does not tell (the object is named in the query or body). */
  level?: Level;
  /**
   * Baserow refuses it in its job, not in the request, to whoever may read the object: the
   * request answers the pending job (202), the job fails, and nothing but the job is made.
   */
  deferred?: string;
  /** A query the route needs, naming Alice's objects. */
  query?: (ids: Record<string, string>) => string;
}
/** Any member may, whatever their role (Baserow's `member` manager, or only membership checked): nothing of Alice's may show. */
interface MemberOnly {
  member: string;
}
/** Not governed by a workspace role: why. */
interface NotScoped {
  unscoped: string;
}
type Entry = Scoped | MemberOnly | NotScoped;

const OWN = 'the user\'s own account, session or files: no workspace is named';
const STAFF = 'staff route (instance admin), refused to non-staff whatever their role: the tenant suite covers it';
const PUBLIC = 'public: no user and no workspace';
const JOB = 'a job is its starter\'s: another member is told it does not exist (the tenant suite covers it)';
const LIST = 'the user\'s own list across workspaces: what it shows of a role-hidden object is tested below (lists)';
const SLUG_404 = (error: string): Partial<Scoped> => ({ refusal: [404, error] });

const ALL_READ_SLUGS = 'database.table.view.read (ViewHandler.get_public_view_by_slug: a non-public view opens to whoever may read it)';

/** A calendar listing's range (Baserow checks it before the view). */
const CALENDAR_RANGE = 'from_timestamp=2024-01-01T00:00:00Z&to_timestamp=2024-01-31T00:00:00Z';

const MATRIX: Record<string, Entry> = {
  // The user's own.
  undo: { unscoped: 'undoes the user\'s own actions; each is checked again as it is undone' },
  redo: { unscoped: 'redoes the user\'s own actions; each is checked again as it is redone' },
  upload_file: { unscoped: OWN },
  upload_via_url: { unscoped: OWN },
  update_account: { unscoped: OWN },
  change_password: { unscoped: OWN },
  send_password_reset_email: { unscoped: PUBLIC },
  reset_password: { unscoped: PUBLIC },
  schedule_account_deletion: { unscoped: OWN },
  create_user: { unscoped: PUBLIC },
  token_auth: { unscoped: PUBLIC },
  token_refresh: { unscoped: PUBLIC },
  token_verify: { unscoped: PUBLIC },
  token_blacklist: { unscoped: OWN },
  send_verify_email: { unscoped: OWN },
  verify_email: { unscoped: PUBLIC },
  dashboard: { unscoped: OWN },
  list_workspaces: { unscoped: LIST },
  create_workspace: { unscoped: OWN },
  create_initial_workspace: { unscoped: OWN },
  order_workspaces: { unscoped: OWN },
  list_all_applications: { unscoped: LIST },
  get_trash_structure: { unscoped: LIST },
  list_all_token_tables: { unscoped: 'a database token\'s own tables: the tokens test below' },
  list_job: { unscoped: JOB },
  get_job: { unscoped: JOB },
  cancel_job: { unscoped: JOB },
  get_export_job: { unscoped: JOB },
  export_publicly_shared_view: { unscoped: 'runs as nobody: only a public view that allows public export is exported, whoever asks (public-view-export suite); a non-public view is refused to every role' },
  get_public_view_export_job: { unscoped: 'an anonymous job read by its signed id, which is its secret (public-view-export suite)' },
  list_database_tokens: { unscoped: 'the user\'s own tokens' },
  get_database_token: { unscoped: 'a token is its owner\'s: another member is told it does not exist' },
  update_database_token: { unscoped: 'a token is its owner\'s: another member is told it does not exist' },
  delete_database_token: { unscoped: 'a token is its owner\'s: another member is told it does not exist' },
  check_database_token: { unscoped: 'checks the token it is called with' },
  list_mcp_endpoints: { unscoped: 'the user\'s own MCP endpoints' },
  get_mcp_endpoint: { unscoped: 'an MCP endpoint is its owner\'s: another member is told it does not exist' },
  update_mcp_endpoint: { unscoped: 'an MCP endpoint is its owner\'s: another member is told it does not exist' },
  delete_mcp_endpoint: { unscoped: 'an MCP endpoint is its owner\'s: another member is told it does not exist' },
  audit_log_workspaces: { unscoped: LIST },
  accept_workspace_invitation: { unscoped: 'the invitee\'s (the email must match), not a member\'s' },
  reject_workspace_invitation: { unscoped: 'the invitee\'s (the email must match), not a member\'s' },
  get_workspace_invitation_by_token: { unscoped: 'the invitation\'s token is its secret' },
  leave_workspace: { unscoped: 'Baserow checks only membership to leave; leaving would end the member\'s part in the matrix' },
  // Public and instance routes.
  get_settings: { unscoped: PUBLIC },
  update_settings: { unscoped: STAFF },
  get_instance_id: { unscoped: STAFF },
  admin_licenses: { unscoped: STAFF },
  schema: { unscoped: PUBLIC },
  redoc: { unscoped: PUBLIC },
  redoc_bundle: { unscoped: PUBLIC },
  list_templates: { unscoped: PUBLIC },
  get_template: { unscoped: PUBLIC },
  health_check: { unscoped: PUBLIC },
  health_check_2: { unscoped: PUBLIC },
  full_health_check: { unscoped: PUBLIC },
  list_auth_providers_login_options: { unscoped: PUBLIC },
  oauth_provider_login_redirect: { unscoped: PUBLIC },
  oauth_provider_login_callback: { unscoped: PUBLIC },
  auth_provider_saml_sp_login: { unscoped: PUBLIC },
  auth_provider_login_url: { unscoped: PUBLIC },
  auth_provider_saml_acs_url: { unscoped: PUBLIC },
  auth_provider_saml_sp_metadata: { unscoped: PUBLIC },
  admin_dashboard: { unscoped: STAFF },
  admin_list_users: { unscoped: STAFF },
  admin_create_user: { unscoped: STAFF },
  admin_impersonate_user: { unscoped: STAFF },
  admin_edit_user: { unscoped: STAFF },
  admin_delete_user: { unscoped: STAFF },
  admin_list_workspaces: { unscoped: STAFF },
  admin_delete_workspace: { unscoped: STAFF },
  list_auth_providers: { unscoped: STAFF },
  create_auth_provider: { unscoped: STAFF },
  get_next_auth_provider_id: { unscoped: STAFF },
  get_auth_provider: { unscoped: STAFF },
  update_auth_provider: { unscoped: STAFF },
  delete_auth_provider: { unscoped: STAFF },
  admin_audit_log_list: { unscoped: STAFF },
  admin_audit_log_users: { unscoped: STAFF },
  admin_audit_log_workspaces: { unscoped: STAFF },
  admin_audit_log_action_types: { unscoped: STAFF },
  admin_async_audit_log_export: { unscoped: STAFF },

  // Membership only (Baserow's `member` permission manager, and the permissions endpoint every member reads).
  workspace_permissions: { member: 'CoreHandler.get_permissions: every member reads their own' },
  list_workspace_notifications: { member: 'workspace.list_notifications (member manager)' },
  clear_workspace_notifications: { member: 'workspace.clear_notification (member manager)' },
  mark_all_workspace_notifications_as_read: { member: 'workspace.mark_notification_as_read (member manager)' },
  mark_notification_as_read: { member: 'workspace.mark_notification_as_read (member manager): another member\'s notification is not found' },

  // The workspace.
  update_workspace: { min: 'ADMIN', baserow: 'workspace.update', builder: 'invalid' },
  delete_workspace: { min: 'ADMIN', baserow: 'workspace.delete', builder: 'invalid' },
  list_workspace_users: { min: 'EDITOR', baserow: 'workspace.list_workspace_users', builder: 'invalid' },
  update_workspace_user: { min: 'ADMIN', baserow: 'workspace_user.update', builder: 'invalid' },
  delete_workspace_user: { min: 'ADMIN', baserow: 'workspace_user.delete', builder: 'invalid' },
  list_workspace_invitations: { min: 'ADMIN', baserow: 'workspace.list_invitations', builder: 'invalid' },
  create_workspace_invitation: { min: 'ADMIN', baserow: 'workspace.create_invitation', builder: 'invalid' },
  get_workspace_invitation: { min: 'ADMIN', baserow: 'invitation.read', builder: 'invalid' },
  update_workspace_invitation: { min: 'ADMIN', baserow: 'invitation.update', builder: 'invalid' },
  delete_workspace_invitation: { min: 'ADMIN', baserow: 'invitation.delete', builder: 'invalid' },
  get_contents: { min: 'BUILDER', baserow: 'workspace.read_trash' },
  empty_contents: { min: 'ADMIN', baserow: 'workspace.empty_trash', builder: 'allowed' },
  restore: { min: 'EDITOR', baserow: 'database.table.restore_row (the trashed row named in the body)', level: 'table' },
  list_role_assignments: { min: 'ADMIN', baserow: 'workspace.read_role', query: (ids) => `scope_type=workspace&scope_id=${ids.workspaceId}` },
  assign_role: { min: 'ADMIN', baserow: 'workspace.assign_role (and database.table.update_role)' },
  batch_assign_role: { min: 'ADMIN', baserow: 'workspace.assign_role' },
  workspace_list_teams: { min: 'VIEWER', baserow: 'enterprise.teams.list_teams' },
  workspace_create_team: { min: 'ADMIN', baserow: 'enterprise.teams.create_team' },
  get_team: { min: 'VIEWER', baserow: 'enterprise.teams.team.read' },
  update_team: { min: 'ADMIN', baserow: 'enterprise.teams.team.update' },
  delete_team: { min: 'ADMIN', baserow: 'enterprise.teams.team.delete' },
  list_team_subjects: { min: 'EDITOR', baserow: 'enterprise.teams.list_subjects' },
  create_subject: { min: 'ADMIN', baserow: 'enterprise.teams.create_subject' },
  get_subject: { min: 'EDITOR', baserow: 'enterprise.teams.read_subject' },
  delete_subject: { min: 'ADMIN', baserow: 'enterprise.teams.delete_subject' },
  audit_log_list: { min: 'ADMIN', baserow: 'workspace.list_audit_log_entries', query: (ids) => `workspace_id=${ids.workspaceId}` },
  audit_log_users: { min: 'ADMIN', baserow: 'workspace.list_audit_log_entries', query: (ids) => `workspace_id=${ids.workspaceId}` },
  audit_log_action_types: { min: 'ADMIN', baserow: 'workspace.list_audit_log_entries', query: (ids) => `workspace_id=${ids.workspaceId}` },
  async_audit_log_export: { min: 'ADMIN', baserow: 'workspace.list_audit_log_entries (filter_workspace_id)' },
  create_database_token: { min: 'BUILDER', baserow: 'workspace.create_token' },
  create_mcp_endpoint: { min: 'VIEWER', baserow: 'workspace.create_mcp_endpoint' },
  list_applications: { min: 'VIEWER', baserow: 'workspace.list_applications' },
  create_application: { min: 'BUILDER', baserow: 'workspace.create_application' },
  order_applications: { min: 'BUILDER', baserow: 'workspace.order_applications' },
  install_template: { min: 'BUILDER', baserow: 'workspace.create_application' },
  install_template_async: { min: 'BUILDER', baserow: 'workspace.create_application (InstallTemplateJobType.prepare_values)' },
  export_workspace_applications_async: { min: 'VIEWER', baserow: 'workspace.read, then workspace.list_applications on each (ImportExportHandler)' },
  list_workspace_exports: { min: 'VIEWER', baserow: 'workspace.read' },
  import_resource_upload_file: { min: 'BUILDER', baserow: 'workspace.create_application' },
  import_workspace_applications_async: { min: 'BUILDER', baserow: 'workspace.create_application' },
  import_export_resource: { min: 'BUILDER', baserow: 'workspace.create_application' },

  // The database.
  get_application: { min: 'VIEWER', baserow: 'application.read' },
  update_application: { min: 'BUILDER', baserow: 'application.update' },
  delete_application: { min: 'BUILDER', baserow: 'application.delete' },
  duplicate_application_async: {
    min: 'BUILDER',
    baserow: 'application.duplicate',
    deferred: 'DuplicateApplicationJobType.prepare_values reads the application (application.read); the action checks application.duplicate in the job',
  },
  list_snapshots: { min: 'ADMIN', baserow: 'application.list_snapshots', builder: 'allowed' },
  create_snapshot: { min: 'ADMIN', baserow: 'application.create_snapshot', builder: 'allowed' },
  restore_snapshot: { min: 'ADMIN', baserow: 'application.snapshot.restore', builder: 'allowed' },
  delete_snapshot: { min: 'ADMIN', baserow: 'application.snapshot.delete', builder: 'allowed' },
  list_database_tables: { min: 'VIEWER', baserow: 'database.list_tables' },
  create_database_table: { min: 'BUILDER', baserow: 'database.create_table' },
  create_database_table_async: { min: 'BUILDER', baserow: 'database.create_table' },
  order_database_tables: { min: 'BUILDER', baserow: 'database.order_tables' },

  // The table.
  get_database_table: { min: 'VIEWER', baserow: 'database.table.read' },
  update_database_table: { min: 'BUILDER', baserow: 'database.table.update' },
  delete_database_table: { min: 'BUILDER', baserow: 'database.table.delete' },
  duplicate_database_table_async: { min: 'BUILDER', baserow: 'database.table.duplicate' },
  import_data_database_table_async: { min: 'EDITOR', baserow: 'database.table.import_rows' },
  export_table: { min: 'VIEWER', baserow: 'database.table.run_export' },
  type_formula_field: { min: 'BUILDER', baserow: 'database.table.formula.type' },
  list_database_table_fields: { min: 'VIEWER', baserow: 'database.table.list_fields' },
  create_database_table_field: { min: 'BUILDER', baserow: 'database.table.create_field' },
  change_primary_field: { min: 'BUILDER', baserow: 'database.table.field.update (FieldHandler.change_primary_field)' },
  get_database_table_field: { min: 'VIEWER', baserow: 'database.table.field.read' },
  update_database_table_field: { min: 'BUILDER', baserow: 'database.table.field.update' },
  delete_database_table_field: { min: 'BUILDER', baserow: 'database.table.field.delete' },
  duplicate_table_field: { min: 'BUILDER', baserow: 'database.table.field.duplicate' },
  get_database_field_unique_row_values: { min: 'VIEWER', baserow: 'database.table.field.read' },
  get_field_permissions: { min: 'BUILDER', baserow: 'database.table.field.read_permissions' },
  update_field_permissions: { min: 'BUILDER', baserow: 'database.table.field.update_permissions' },
  password_field_authentication: { min: 'VIEWER', baserow: 'database.table.read_row (the field and row named in the body)', level: 'table' },
  list_database_table_row_names: { min: 'VIEWER', baserow: 'database.table.list_row_names', level: 'table', query: (ids) => `table__${ids.tableId}=${ids.rowId}` },
  list_database_table_rows: { min: 'VIEWER', baserow: 'database.table.list_rows' },
  create_database_table_row: { min: 'EDITOR', baserow: 'database.table.create_row' },
  batch_create_database_table_rows: { min: 'EDITOR', baserow: 'database.table.create_row' },
  batch_update_database_table_rows: { min: 'EDITOR', baserow: 'database.table.update_row' },
  batch_delete_database_table_rows: { min: 'EDITOR', baserow: 'database.table.delete_row' },
  get_database_table_row: { min: 'VIEWER', baserow: 'database.table.read_row' },
  update_database_table_row: { min: 'EDITOR', baserow: 'database.table.update_row' },
  delete_database_table_row: { min: 'EDITOR', baserow: 'database.table.delete_row' },
  move_database_table_row: { min: 'EDITOR', baserow: 'database.table.move_row' },
  get_database_table_row_adjacent: { min: 'VIEWER', baserow: 'database.table.read_adjacent_row' },
  get_database_table_row_history: { min: 'COMMENTER', baserow: 'database.table.read_row_history' },
  get_row_comments: { min: 'COMMENTER', baserow: 'database.table.list_comments' },
  create_row_comment: { min: 'COMMENTER', baserow: 'database.table.create_comment' },
  update_row_comment: { min: 'COMMENTER', baserow: 'database.table.update_comment (then only its author)' },
  delete_row_comment: { min: 'COMMENTER', baserow: 'database.table.delete_comment (then only its author)' },
  update_row_comment_notification_mode: { min: 'COMMENTER', baserow: 'database.table.list_comments (RowCommentHandler.update_row_comments_notification_mode)' },
  list_database_table_webhooks: { min: 'BUILDER', baserow: 'database.table.list_webhooks' },
  create_database_table_webhook: { min: 'BUILDER', baserow: 'database.table.create_webhook' },
  test_call_database_table_webhook: { min: 'BUILDER', baserow: 'database.table.webhook.test_trigger' },
  get_database_table_webhook: { min: 'BUILDER', baserow: 'database.table.webhook.read' },
  update_database_table_webhook: { min: 'BUILDER', baserow: 'database.table.webhook.update' },
  delete_database_table_webhook: { min: 'BUILDER', baserow: 'database.table.webhook.delete' },

  // Views.
  list_database_table_views: { min: 'VIEWER', baserow: 'database.table.list_views' },
  create_database_table_view: { min: 'BUILDER', baserow: 'database.table.create_view' },
  order_database_table_views: { min: 'BUILDER', baserow: 'database.table.order_views' },
  get_database_table_view: { min: 'VIEWER', baserow: 'database.table.view.read' },
  update_database_table_view: { min: 'BUILDER', baserow: 'database.table.view.update' },
  premium_view_attributes_update: { min: 'BUILDER', baserow: 'database.table.view.update' },
  delete_database_table_view: { min: 'BUILDER', baserow: 'database.table.view.delete' },
  duplicate_database_table_view: { min: 'BUILDER', baserow: 'database.table.view.duplicate' },
  rotate_database_view_slug: { min: 'BUILDER', baserow: 'database.table.view.update_slug' },
  get_database_table_view_field_options: { min: 'VIEWER', baserow: 'database.table.view.read_field_options' },
  update_database_table_view_field_options: { min: 'BUILDER', baserow: 'database.table.view.update_field_options' },
  list_database_table_grid_view_rows: { min: 'VIEWER', baserow: 'database.table.list_rows' },
  filter_database_table_grid_view_rows: { min: 'VIEWER', baserow: 'database.table.list_rows' },
  list_database_table_gallery_view_rows: { min: 'VIEWER', baserow: 'database.table.list_rows' },
  list_database_table_kanban_view_rows: { min: 'VIEWER', baserow: 'database.table.list_rows' },
  list_database_table_calendar_view_rows: { min: 'VIEWER', baserow: 'database.table.list_rows', query: () => CALENDAR_RANGE },
  list_database_table_timeline_view_rows: { min: 'VIEWER', baserow: 'database.table.list_rows' },
  rotate_calendar_view_ical_feed_slug: { min: 'BUILDER', baserow: 'database.table.view.update_slug' },
  calendar_ical_feed: { unscoped: PUBLIC },
  get_database_table_grid_view_field_aggregations: { min: 'VIEWER', baserow: 'database.table.view.list_aggregations' },
  get_database_table_grid_view_field_aggregation: { min: 'VIEWER', baserow: 'database.table.view.read_aggregation' },
  list_database_table_view_filters: { min: 'VIEWER', baserow: 'database.table.view.list_filter' },
  create_database_table_view_filter: { min: 'BUILDER', baserow: 'database.table.view.create_filter' },
  get_database_table_view_filter: { min: 'VIEWER', baserow: 'database.table.view.filter.read' },
  update_database_table_view_filter: { min: 'BUILDER', baserow: 'database.table.view.filter.update' },
  delete_database_table_view_filter: { min: 'BUILDER', baserow: 'database.table.view.filter.delete' },
  create_database_table_view_filter_group: { min: 'BUILDER', baserow: 'database.table.view.create_filter_group' },
  get_database_table_view_filter_group: { min: 'VIEWER', baserow: 'database.table.view.filter_group.read' },
  update_database_table_view_filter_group: { min: 'BUILDER', baserow: 'database.table.view.filter_group.update' },
  delete_database_table_view_filter_group: { min: 'BUILDER', baserow: 'database.table.view.filter_group.delete' },
  list_database_table_view_sortings: { min: 'VIEWER', baserow: 'database.table.view.list_sort' },
  create_database_table_view_sort: { min: 'BUILDER', baserow: 'database.table.view.create_sort' },
  get_database_table_view_sort: { min: 'VIEWER', baserow: 'database.table.view.sort.read' },
  update_database_table_view_sort: { min: 'BUILDER', baserow: 'database.table.view.sort.update' },
  delete_database_table_view_sort: { min: 'BUILDER', baserow: 'database.table.view.sort.delete' },
  list_database_table_view_group_bys: { min: 'VIEWER', baserow: 'database.table.view.list_group_bys' },
  create_database_table_view_group_by: { min: 'BUILDER', baserow: 'database.table.view.create_group_by' },
  get_database_table_view_group_by: { min: 'VIEWER', baserow: 'database.table.view.group_by.read' },
  update_database_table_view_group_by: { min: 'BUILDER', baserow: 'database.table.view.group_by.update' },
  delete_database_table_view_group_by: { min: 'BUILDER', baserow: 'database.table.view.group_by.delete' },
  list_database_table_view_decorations: { min: 'VIEWER', baserow: 'database.table.view.list_decoration' },
  create_database_table_view_decoration: { min: 'BUILDER', baserow: 'database.table.view.create_decoration' },
  get_database_table_view_decoration: { min: 'VIEWER', baserow: 'database.table.view.decoration.read' },
  update_database_table_view_decoration: { min: 'BUILDER', baserow: 'database.table.view.decoration.update' },
  delete_database_table_view_decoration: { min: 'BUILDER', baserow: 'database.table.view.decoration.delete' },
  // A view's slug: the view is not public, so only who may read it opens it; the others are told it does not exist.
  get_meta_database_table_form_view: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_FORM_DOES_NOT_EXIST') },
  submit_database_table_form_view: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_FORM_DOES_NOT_EXIST') },
  upload_file_form_view: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_FORM_DOES_NOT_EXIST') },
  public_view_token_auth: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_VIEW_DOES_NOT_EXIST') },
  get_public_view_info: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_VIEW_DOES_NOT_EXIST') },
  public_list_database_table_grid_view_rows: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_GRID_DOES_NOT_EXIST') },
  public_list_database_table_gallery_view_rows: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_GALLERY_DOES_NOT_EXIST') },
  public_list_database_table_kanban_view_rows: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_KANBAN_DOES_NOT_EXIST') },
  public_list_database_table_calendar_view_rows: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_VIEW_DOES_NOT_EXIST'), query: () => CALENDAR_RANGE },
  public_list_database_table_timeline_view_rows: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_TIMELINE_DOES_NOT_EXIST') },
  get_database_table_public_grid_view_field_aggregations: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_GRID_DOES_NOT_EXIST') },
  get_public_view_row: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_VIEW_DOES_NOT_EXIST') },
  database_table_public_view_link_row_field_lookup: { min: 'VIEWER', baserow: ALL_READ_SLUGS, ...SLUG_404('ERROR_VIEW_DOES_NOT_EXIST') },
};

/** The path parameters whose object lives in Alice's table (createTenant makes them all there), and in her database. */
const TABLE_PARAMS = ['tableId', 'fieldId', 'rowId', 'viewId', 'viewFilterId', 'viewFilterGroupId', 'viewSortId', 'viewGroupById', 'decorationId', 'webhookId', 'commentId', 'slug'];
const APPLICATION_PARAMS = ['applicationId', 'databaseId', 'snapshotId'];

const isScoped = (entry: Entry): entry is Scoped => 'min' in entry;

function levelOf(op: Operation, entry: Scoped): Level {
  if (entry.level) return entry.level;
  if (op.pathParams.some((p) => TABLE_PARAMS.includes(p))) return 'table';
  if (op.pathParams.some((p) => APPLICATION_PARAMS.includes(p))) return 'application';
  return 'workspace';
}

/** The role a member acts with on the route (the table override decides table-level routes). */
function effectiveRole(who: Who, level: Level): Role | 'NO_ACCESS' {
  if (who === 'TABLE_NO_ACCESS') return level === 'table' ? 'NO_ACCESS' : 'EDITOR';
  return who;
}

/** Null when the member may do it; else the refusal they get. */
function expectedRefusal(entry: Scoped, who: Who, level: Level): [number, string] | null {
  const role = effectiveRole(who, level);
  const denied = entry.refusal ?? [401, 'PERMISSION_DENIED'];
  if (role === 'NO_ACCESS') return denied;
  if (role === 'BUILDER' && entry.builder === 'invalid') return [400, 'ERROR_USER_INVALID_GROUP_PERMISSIONS'];
  if (role === 'BUILDER' && entry.builder === 'allowed') return null;
  return LADDER.indexOf(role) >= LADDER.indexOf(entry.min) ? null : denied;
}

/** The least capable member who may do it (the route's minimum in this workspace). */
function leastAllowed(entry: Scoped, level: Level): Who {
  const candidates: Who[] = ['VIEWER', 'COMMENTER', 'EDITOR', 'BUILDER', 'ADMIN'];
  return candidates.find((who) => expectedRefusal(entry, who, level) === null)!;
}

const isRefusal = (res: { status: number; body: any }) =>
  res.status >= 500 || (res.status === 401 && res.body?.error === 'PERMISSION_DENIED') || ['ERROR_USER_INVALID_GROUP_PERMISSIONS', 'ERROR_USER_NOT_IN_GROUP'].includes(res.body?.error);

/** Deletions last, leaves before their parents, the workspace at the very end. */
const DELETION_ORDER = [
  'batch_delete_database_table_rows',
  'delete_database_table_row',
  'delete_row_comment',
  'delete_database_table_view_filter',
  'delete_database_table_view_filter_group',
  'delete_database_table_view_sort',
  'delete_database_table_view_group_by',
  'delete_database_table_view_decoration',
  'delete_database_table_webhook',
  'delete_database_table_view',
  'delete_database_table_field',
  'delete_database_table',
  'delete_snapshot',
  'delete_application',
  'import_export_resource',
  'empty_contents',
  'delete_subject',
  'delete_team',
  'delete_workspace_invitation',
  'delete_workspace_user',
  'delete_workspace',
];

describe(`role matrix (${TEST_DB})`, () => {
  let t: TestApp;
  let dataSource: DataSource;
  let alice: Tenant;
  let ids: Record<string, string>;
  let operations: Operation[];
  const members = {} as Record<Who, SignedUp>;
  /** On everything of Alice's table (its name, fields, views, cells, comments): never shown to its NO_ACCESS members. */
  const secret = `TABLE-SECRET-${randomBytes(4).toString('hex')}`;
  /** On Alice's database and team: never shown to the workspace's NO_ACCESS member. */
  const dbSecret = `DB-SECRET-${randomBytes(4).toString('hex')}`;

  const as = (who: Who | 'ALICE') => (who === 'ALICE' ? alice.user.token : members[who].token);
  const leaks = (who: Who, text: string) => text.includes(secret) || (who === 'NO_ACCESS' && text.includes(dbSecret));
  const assign = async (items: Record<string, unknown>[]) => {
    const res = await t.request('POST', `/api/role/${ids.workspaceId}/batch/`, { token: alice.user.token, body: { items } });
    expect(res.status).toBe(200);
  };
  const userItem = (user: SignedUp, scope_type: string, scope_id: string, role: string) => ({ subject_type: 'auth.User', subject_id: user.id, scope_type, scope_id: Number(scope_id), role });

  /** Bodies of the routes that name their object in the body, beyond the tenant suite's VALID_BODIES (made in the setup). */
  const extraBodies: Record<string, (ids: Record<string, string>) => unknown> = {};

  function request(op: Operation, entry: Entry, who: Who | 'ALICE') {
    const query = isScoped(entry) && entry.query ? `?${entry.query(ids)}` : '';
    return t.request(op.method, `${fillPath(op.path, ids)}${query}`, { token: as(who), body: extraBodies[op.operationId]?.(ids) ?? bodyFor(op, ids) });
  }

  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_REQUESTS_PER_USER: '0', RATE_LIMIT_REQUESTS_PER_IP: '0', ...NO_TIMED_WORK });
    dataSource = t.app.get(DataSource);
    alice = await createTenant(t, 'Alice');
    ids = { ...alice.ids };
    const token = alice.user.token;
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await t.request(method, path, { token, body });
      if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${res.text}`);
      return res.body;
    };
    const rows = `/api/database/rows/table/${ids.tableId}`;
    // A password field that authenticates (password_field_authentication names it), and a trashed row (restore names it).
    const password = await ok('POST', `/api/database/fields/table/${ids.tableId}/`, { name: `${secret} password`, type: 'password', allow_endpoint_authentication: true });
    await ok('PATCH', `${rows}/${ids.rowId}/`, { [`field_${password.id}`]: 'the password' });
    const trashed = await ok('POST', `${rows}/`, { [`field_${ids.fieldId}`]: `${secret} trashed cell` });
    await ok('DELETE', `${rows}/${trashed.id}/`);
    const extra: typeof extraBodies = {
      password_field_authentication: () => ({ field_id: password.id, row_id: Number(ids.rowId), password: 'the password' }),
      restore: () => ({ trash_item_type: 'row', trash_item_id: trashed.id, parent_trash_item_id: Number(ids.tableId) }),
      async_audit_log_export: () => ({ filter_workspace_id: Number(ids.workspaceId) }),
      create_database_token: () => ({ name: `Token ${randomBytes(3).toString('hex')}`, workspace: Number(ids.workspaceId) }),
    };
    Object.assign(extraBodies, extra);

    // Alice's names and cells carry the markers.
    const renames: [string, string, unknown][] = [
      ['PATCH', `/api/applications/${ids.applicationId}/`, { name: `${dbSecret} database` }],
      ['PUT', `/api/teams/${ids.teamId}/`, { name: `${dbSecret} team`, default_role: 'VIEWER', subjects: [{ subject_id: Number(ids.userId), subject_type: 'auth.User' }] }],
      ['PATCH', `/api/database/tables/${ids.tableId}/`, { name: `${secret} table` }],
      ['PATCH', `/api/database/fields/${ids.fieldId}/`, { name: `${secret} field` }],
      ['PATCH', `/api/database/views/${ids.viewId}/`, { name: `${secret} view` }],
      ['PATCH', `/api/database/views/decoration/${ids.decorationId}/`, { value_provider_type: 'conditional_color', value_provider_conf: { colors: [{ id: 'c', color: `${secret} colour`, filters: [] }] } }],
      ['PATCH', `${rows}/${ids.rowId}/`, { [`field_${ids.fieldId}`]: `${secret} cell` }],
      ['POST', `${rows}/`, { [`field_${ids.fieldId}`]: `${secret} second cell` }],
      ['PATCH', `/api/row_comments/${ids.tableId}/comment/${ids.commentId}/`, { message: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: `${secret} comment` }] }] } }],
    ];
    for (const [method, path, body] of renames) await ok(method, path, body);

    // One member per role, on the workspace; one EDITOR with NO_ACCESS on Alice's table.
    for (const who of MEMBERS) {
      members[who] = await signUp(t, who);
      await addMember(t, alice.user, members[who], Number(ids.workspaceId));
    }
    await assign([
      ...MEMBERS.map((who) => userItem(members[who], 'workspace', ids.workspaceId, who === 'TABLE_NO_ACCESS' ? 'EDITOR' : who)),
      userItem(members.TABLE_NO_ACCESS, 'database_table', ids.tableId, 'NO_ACCESS'),
    ]);
    operations = operationsOf((await t.request('GET', '/api/schema.json')).body);
  });
  afterAll(() => t?.close());

  it('has an entry for every route of the OpenAPI document, and none for a route that is gone', () => {
    const missing = operations.filter((op) => !MATRIX[op.operationId]).map((op) => `${op.operationId} ${op.method} ${op.path}`);
    expect(missing).toEqual([]);
    const known = new Set(operations.map((op) => op.operationId));
    expect(Object.keys(MATRIX).filter((id) => !known.has(id))).toEqual([]);
    expect(operations.filter((op) => isScoped(MATRIX[op.operationId])).length).toBeGreaterThan(120);
  });

  it('refuses every role below a route\'s least role, changing nothing and showing NO_ACCESS nothing of Alice\'s', async () => {
    const problems: string[] = [];
    for (const op of operations) {
      const entry = MATRIX[op.operationId];
      if (!entry || !isScoped(entry)) continue;
      const level = levelOf(op, entry);
      for (const who of MEMBERS) {
        const expected = expectedRefusal(entry, who, level);
        if (!expected) continue;
        const where = `${who} ${op.operationId} ${op.method} ${op.path}`;
        if (entry.deferred && effectiveRole(who, level) !== 'NO_ACCESS') {
          const applications = async () => (await t.request('GET', `/api/applications/workspace/${ids.workspaceId}/`, { token: alice.user.token })).text;
          const apps = await applications();
          const res = await request(op, entry, who);
          const job = res.status === 202 ? await endedJob(t, as(who), res.body.id) : null;
          if (job?.state !== 'failed') problems.push(`${where}: expected its job to fail, got ${res.status} ${res.text.slice(0, 160)} ${JSON.stringify(job)?.slice(0, 200)}`);
          if ((await applications()) !== apps) problems.push(`${where}: its job made an application`);
          continue;
        }
        const before = await fingerprint(dataSource);
        const res = await request(op, entry, who);
        if (res.status !== expected[0] || res.body?.error !== expected[1]) problems.push(`${where}: expected ${expected.join(' ')}, got ${res.status} ${res.text.slice(0, 160)}`);
        if (effectiveRole(who, level) === 'NO_ACCESS' && leaks(who, res.text)) problems.push(`${where}: leaked Alice's data: ${res.text.slice(0, 160)}`);
        if ((await fingerprint(dataSource)) !== before) problems.push(`${where}: changed the database`);
      }
    }
    expect(problems).toEqual([]);
  }, ROUTE_PASS_TIMEOUT_MS);

  it('answers the membership-only routes to every role, showing the NO_ACCESS members nothing of Alice\'s', async () => {
    const problems: string[] = [];
    for (const op of operations.filter((o) => 'member' in MATRIX[o.operationId])) {
      for (const who of MEMBERS) {
        const res = await request(op, MATRIX[op.operationId], who);
        const where = `${who} ${op.operationId}`;
        if (isRefusal(res)) problems.push(`${where}: refused ${res.status} ${res.text.slice(0, 160)}`);
        if ((who === 'NO_ACCESS' || who === 'TABLE_NO_ACCESS') && leaks(who, res.text)) problems.push(`${where}: leaked Alice's data: ${res.text.slice(0, 160)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('shows the table\'s NO_ACCESS member nothing of the table on the reads its workspace role allows', async () => {
    const problems: string[] = [];
    const checked: string[] = [];
    for (const op of operations.filter((o) => o.method === 'GET')) {
      const entry = MATRIX[op.operationId];
      if (!isScoped(entry) || expectedRefusal(entry, 'TABLE_NO_ACCESS', levelOf(op, entry)) !== null) continue;
      checked.push(op.operationId);
      const res = await request(op, entry, 'TABLE_NO_ACCESS');
      const where = `${op.operationId} ${op.method} ${op.path}`;
      if (isRefusal(res)) problems.push(`${where}: refused ${res.status} ${res.text.slice(0, 160)}`);
      if (leaks('TABLE_NO_ACCESS', res.text)) problems.push(`${where}: leaked the table: ${res.text.slice(0, 160)}`);
    }
    expect(checked).toEqual(expect.arrayContaining(['list_applications', 'get_application', 'list_database_tables', 'list_workspace_users']));
    expect(problems).toEqual([]);
  });

  it('lists nothing of a NO_ACCESS table to its member (applications, tables, fields, views, rows, names, search)', async () => {
    const token = as('TABLE_NO_ACCESS');
    const get = (path: string) => t.request('GET', path, { token });
    const problems: string[] = [];
    const tablesOf = (apps: any[]) => apps.find((a) => String(a.id) === ids.applicationId)?.tables.map((x: any) => String(x.id));
    const all = await get('/api/applications/');
    const inWorkspace = await get(`/api/applications/workspace/${ids.workspaceId}/`);
    const tables = await get(`/api/database/tables/database/${ids.databaseId}/`);
    for (const [name, res, list] of [
      ['all applications', all, tablesOf(all.body)],
      ['workspace applications', inWorkspace, tablesOf(inWorkspace.body)],
      ['database tables', tables, tables.body.map((x: any) => String(x.id))],
    ] as const) {
      // The database stays listed (the member may read its other tables), without the table.
      if (res.status !== 200 || !list || list.length === 0 || list.includes(ids.tableId)) problems.push(`${name}: ${res.status} ${JSON.stringify(list)}`);
      if (leaks('TABLE_NO_ACCESS', res.text)) problems.push(`${name}: leaked ${res.text.slice(0, 160)}`);
    }
    for (const path of [
      `/api/database/fields/table/${ids.tableId}/`,
      `/api/database/views/table/${ids.tableId}/`,
      `/api/database/rows/table/${ids.tableId}/?search=${secret}`,
      `/api/database/rows/names/?table__${ids.tableId}=${ids.rowId}`,
      `/api/database/views/grid/${ids.viewId}/?search=${secret}`,
    ]) {
      const res = await get(path);
      if (res.status !== 401 || leaks('TABLE_NO_ACCESS', res.text)) problems.push(`${path}: ${res.status} ${res.text.slice(0, 160)}`);
    }
    // The other tables of the database: their fields and rows read, nothing of the hidden table in them.
    for (const other of tablesOf(inWorkspace.body) ?? []) {
      for (const path of [`/api/database/fields/table/${other}/`, `/api/database/rows/table/${other}/?size=200`, `/api/database/views/table/${other}/`]) {
        const res = await get(path);
        if (res.status !== 200 || leaks('TABLE_NO_ACCESS', res.text)) problems.push(`${path}: ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    // The workspace's NO_ACCESS member: the workspace is listed (its name is no secret), none of its databases.
    const noAccess = as('NO_ACCESS');
    const workspaces = await t.request('GET', '/api/workspaces/', { token: noAccess });
    if (!workspaces.body.some((w: any) => String(w.id) === ids.workspaceId) || leaks('NO_ACCESS', workspaces.text)) problems.push(`workspaces: ${workspaces.text.slice(0, 160)}`);
    const apps = await t.request('GET', '/api/applications/', { token: noAccess });
    if (apps.body.some((a: any) => String(a.workspace.id) === ids.workspaceId) || leaks('NO_ACCESS', apps.text)) problems.push(`applications: ${apps.text.slice(0, 160)}`);
    const trash = await t.request('GET', '/api/trash/', { token: noAccess });
    if (leaks('NO_ACCESS', trash.text)) problems.push(`trash: ${trash.text.slice(0, 160)}`);
    expect(problems).toEqual([]);
  });

  it('gives every role its socket pages as it may read them, and the NO_ACCESS members none of the messages Alice\'s writes cause', async () => {
    const pageParameters: Record<string, string | null> = { table_id: ids.tableId, row_id: ids.rowId, view_id: ids.viewId, slug: ids.slug, token: null };
    const frames = t.app.get(PageTypeRegistry).all().map((type) => {
      const frame: Record<string, unknown> = { page: type.type };
      for (const name of type.parameters) {
        if (pageParameters[name] === undefined) throw new Error(`No fixture for the ${type.type} page parameter ${name}: add it here`);
        const value = pageParameters[name];
        frame[name] = value !== null && /^\d+$/.test(value) ? Number(value) : value;
      }
      return frame;
    });
    expect(frames.length).toBeGreaterThanOrEqual(3);
    const sockets = {} as Record<Who, WsClient>;
    for (const who of MEMBERS) sockets[who] = await connect(t, as(who));
    try {
      for (const who of MEMBERS) for (const frame of frames) sockets[who].send(frame);
      const readers = MEMBERS.filter((who) => who !== 'NO_ACCESS' && who !== 'TABLE_NO_ACCESS');
      for (const who of readers) {
        for (let i = 0; i < frames.length; i++) await sockets[who].waitFor('page_add');
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      for (const who of ['NO_ACCESS', 'TABLE_NO_ACCESS'] as const) {
        expect([who, sockets[who].received.filter((m) => m.type === 'page_add')]).toEqual([who, []]);
      }

      const rows = `/api/database/rows/table/${ids.tableId}`;
      const comment = (text: string) => ({ message: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] } });
      const writes: [string, string, unknown][] = [
        ['PATCH', `/api/applications/${ids.applicationId}/`, { name: `${dbSecret} db again` }],
        ['PATCH', `/api/database/tables/${ids.tableId}/`, { name: `${secret} table again` }],
        ['POST', `/api/database/fields/table/${ids.tableId}/`, { name: `${secret} new field`, type: 'text' }],
        ['POST', `${rows}/`, { [`field_${ids.fieldId}`]: `${secret} new cell` }],
        ['PATCH', `${rows}/${ids.rowId}/`, { [`field_${ids.fieldId}`]: `${secret} changed cell` }],
        ['POST', `/api/row_comments/${ids.tableId}/${ids.rowId}/`, comment(`${secret} socket comment`)],
        ['POST', `/api/database/views/table/${ids.tableId}/`, { name: `${secret} new view`, type: 'grid' }],
        ['PATCH', `/api/database/views/${ids.viewId}/`, { name: `${secret} view again` }],
        ['POST', `/api/database/views/${ids.viewId}/decorations/`, { type: 'background_color', value_provider_type: 'conditional_color', value_provider_conf: { colors: [{ id: 'c', color: `${secret} new colour`, filters: [] }] } }],
      ];
      for (const [method, path, body] of writes) expect([path, (await t.request(method, path, { token: alice.user.token, body })).status]).toEqual([path, 200]);
      // The VIEWER hears them (each write is a message on a page or the workspace).
      const viewerHeard = async () => sockets.VIEWER.received.filter((m) => JSON.stringify(m).includes(secret)).length;
      for (let i = 0; i < 100 && (await viewerHeard()) < writes.length - 1; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await viewerHeard()).toBeGreaterThanOrEqual(writes.length - 1);
      expect(sockets.VIEWER.received.some((m) => m.type === 'rows_created')).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      for (const who of ['NO_ACCESS', 'TABLE_NO_ACCESS'] as const) {
        const heard = sockets[who].received.filter((m) => JSON.stringify(m).includes(secret) || (who === 'NO_ACCESS' && JSON.stringify(m).includes(dbSecret)));
        expect([who, heard]).toEqual([who, []]);
        expect([who, sockets[who].received.filter((m) => ['rows_created', 'row_updated', 'rows_updated', 'field_created', 'view_created', 'row_comment_created'].includes(m.type))]).toEqual([who, []]);
      }
      // The table's NO_ACCESS member still hears the database (it is an EDITOR of the workspace).
      expect(sockets.TABLE_NO_ACCESS.received.some((m) => m.type === 'application_updated')).toBe(true);
    } finally {
      for (const who of MEMBERS) sockets[who].close();
    }
  });

  it('caps a database token by its owner\'s role: a VIEWER\'s token opens nothing, a table NO_ACCESS member\'s reads nothing of the table', async () => {
    const tokenOf = async (user: SignedUp) => {
      const res = await t.request('POST', '/api/database/tokens/', { token: user.token, body: { name: 'All tables', workspace: Number(ids.workspaceId) } });
      expect(res.status).toBe(200);
      return { Authorization: `Token ${res.body.key}` };
    };
    // Tokens are made by BUILDERs (workspace.create_token); the owners' roles are lowered after.
    const viewer = await signUp(t, 'Token viewer');
    const hidden = await signUp(t, 'Token hidden');
    for (const user of [viewer, hidden]) await addMember(t, alice.user, user, Number(ids.workspaceId));
    const viewerHeaders = await tokenOf(viewer);
    const hiddenHeaders = await tokenOf(hidden);
    // While their owners are BUILDERs, both tokens read Alice's table.
    for (const headers of [viewerHeaders, hiddenHeaders]) expect((await t.request('GET', `/api/database/rows/table/${ids.tableId}/`, { headers })).status).toBe(200);
    await assign([userItem(viewer, 'workspace', ids.workspaceId, 'VIEWER'), userItem(hidden, 'database_table', ids.tableId, 'NO_ACCESS')]);

    const rows = `/api/database/rows/table/${ids.tableId}`;
    const writes: [string, string, unknown][] = [
      ['POST', `${rows}/`, { [`field_${ids.fieldId}`]: 'by token' }],
      ['POST', `${rows}/batch/`, { items: [{}] }],
      ['PATCH', `${rows}/${ids.rowId}/`, { [`field_${ids.fieldId}`]: 'by token' }],
      ['PATCH', `${rows}/batch/`, { items: [{ id: Number(ids.rowId), [`field_${ids.fieldId}`]: 'by token' }] }],
      ['DELETE', `${rows}/${ids.rowId}/`, undefined],
      ['POST', `${rows}/batch-delete/`, { items: [Number(ids.rowId)] }],
    ];
    const reads = [`${rows}/`, `${rows}/${ids.rowId}/`, `/api/database/fields/table/${ids.tableId}/`, `/api/database/rows/names/?table__${ids.tableId}=${ids.rowId}`];
    const problems: string[] = [];
    const before = await fingerprint(dataSource);
    // Baserow's TokenHandler.has_table_permission: a token is used only by an owner with workspace.token.use (BUILDER): a VIEWER's writes and reads nothing.
    for (const [method, path, body] of [...writes, ...reads.map((path): [string, string, unknown] => ['GET', path, undefined])]) {
      const res = await t.request(method, path, { headers: viewerHeaders, body });
      if (res.status !== 401 || res.body?.error !== 'ERROR_NO_PERMISSION_TO_TABLE') problems.push(`viewer's token ${method} ${path}: ${res.status} ${res.text.slice(0, 160)}`);
    }
    const viewerTables = await t.request('GET', '/api/database/tables/all-tables/', { headers: viewerHeaders });
    expect([viewerTables.status, viewerTables.body]).toEqual([200, []]);
    for (const path of reads) {
      const res = await t.request('GET', path, { headers: hiddenHeaders });
      if (res.status !== 401 || res.text.includes(secret)) problems.push(`hidden's token GET ${path}: ${res.status} ${res.text.slice(0, 160)}`);
    }
    for (const [method, path, body] of writes) {
      const res = await t.request(method, path, { headers: hiddenHeaders, body });
      if (res.status !== 401 || res.text.includes(secret)) problems.push(`hidden's token ${method} ${path}: ${res.status} ${res.text.slice(0, 160)}`);
    }
    expect(await fingerprint(dataSource)).toBe(before);
    const tables = await t.request('GET', '/api/database/tables/all-tables/', { headers: hiddenHeaders });
    expect(tables.status).toBe(200);
    const listed = tables.body.map((table: { id: number }) => String(table.id));
    expect(listed).not.toContain(ids.tableId);
    expect(listed.length).toBeGreaterThan(0);
    expect(tables.text).not.toContain(secret);
    // The other tables still answer the hidden member's token (the refusal above is the table's, not the token's).
    expect((await t.request('GET', `/api/database/rows/table/${listed[0]}/`, { headers: hiddenHeaders })).status).toBe(200);
    expect(problems).toEqual([]);
  });

  it('lets each route\'s least role do it (not refused, no server error), deletions last and leaves first', async () => {
    const scoped = operations.filter((op) => isScoped(MATRIX[op.operationId]));
    const rank = (op: Operation) => DELETION_ORDER.indexOf(op.operationId);
    const unordered = scoped.filter((op) => op.method === 'DELETE' && rank(op) < 0).map((op) => op.operationId);
    expect(unordered).toEqual([]);
    const ordered = [...scoped.filter((op) => rank(op) < 0), ...scoped.filter((op) => rank(op) >= 0).sort((a, b) => rank(a) - rank(b))];
    const problems: string[] = [];
    for (const op of ordered) {
      const entry = MATRIX[op.operationId] as Scoped;
      const who = leastAllowed(entry, levelOf(op, entry));
      const res = await request(op, entry, who);
      if (isRefusal(res)) problems.push(`${who} ${op.operationId} ${op.method} ${op.path}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  }, ROUTE_PASS_TIMEOUT_MS);
});
