/**
 * How each action type reads in the audit log (Baserow's `ActionTypeDescription`: a short
 * name, a long description and its context, `%(key)s` templates over the action's params).
 * `subjects` names the objects whose names the entry copies when it is written (the table, its
 * database or the application, the view, the field); `params` picks the description's own values
 * from what the action recorded for its undo. A type not listed reads as Baserow renders one
 * without a description: its name, capitalized, and its params.
 */

type P = Record<string, any>;

/** The objects an entry names: their names are copied in when it is written. */
export interface AuditSubjects {
  tableId?: number | null;
  applicationId?: number | null;
  viewId?: number | null;
  fieldId?: number | null;
}

export interface AuditDescription {
  short: string;
  /** The template, or the template chosen by the entry's values (Baserow's `get_long_description`). */
  long: string | ((values: P) => string);
  context?: string;
  subjects?: (p: P) => AuditSubjects;
  params?: (p: P) => P;
}

const WORKSPACE = 'in group "%(group_name)s" (%(group_id)s).';
const DATABASE = 'in database "%(database_name)s" (%(database_id)s).';
const TABLE = 'in table "%(table_name)s" (%(table_id)s) of database "%(database_name)s" (%(database_id)s).';
const VIEW = 'in view "%(view_name)s" (%(view_id)s) of table "%(table_name)s" (%(table_id)s) in database "%(database_name)s" (%(database_id)s).';

const ids = (p: P): number[] => (Array.isArray(p.rowIds) ? p.rowIds : Array.isArray(p.after) ? p.after.map((row: P) => row.id) : []);
const inTable = (p: P): AuditSubjects => ({ tableId: p.tableId, applicationId: p.databaseId });
const ofField = (field: (p: P) => unknown) => (p: P): AuditSubjects => ({ tableId: p.tableId, viewId: p.viewId, fieldId: Number(field(p)) || null });
const inView = (p: P): AuditSubjects => ({ tableId: p.tableId, viewId: p.viewId });
const ofApplication = (p: P): AuditSubjects => ({ applicationId: p.applicationId });

const rows = (short: string, long: string, many: boolean): AuditDescription => ({
  short,
  long,
  context: TABLE,
  subjects: inTable,
  params: (p) => (many ? { row_ids: ids(p) } : { row_id: p.rowId ?? ids(p)[0] }),
});
const field = (short: string, verb: string): AuditDescription => ({ short, long: `Field "%(field_name)s" (%(field_id)s) ${verb}`, context: TABLE, subjects: ofField((p) => p.fieldId) });
const view = (short: string, verb: string): AuditDescription => ({ short, long: `View "%(view_name)s" (%(view_id)s) ${verb}`, context: TABLE, subjects: inView });
const filterField = (p: P): unknown => (p.filter ?? p.before ?? {}).field;
const sortField = (p: P): unknown => (p.json ?? p.before ?? {}).field;
const decoration = (short: string, verb: string): AuditDescription => ({ short, long: `View decoration %(decorator_id)s ${verb}`, context: VIEW, subjects: inView, params: (p) => ({ decorator_id: p.id }) });
const application = (short: string, long: string): AuditDescription => ({ short, long, context: WORKSPACE, subjects: ofApplication, params: (p) => ({ application_type: p.applicationType ?? 'database' }) });
const token = (short: string, long: string): AuditDescription => ({ short, long, context: WORKSPACE, params: (p) => ({ token_id: p.tokenId, token_name: p.name, original_token_name: p.before }) });
/** Actions recorded with Baserow's params as they are (the invitation, role and team actions). */
const asRecorded = (short: string, long: string, context?: string): AuditDescription => ({ short, long, context, params: (p) => p });
const TEAM = 'in team "%(team_name)s" (%(team_id)s) ';
const ONE_ROLE = 'Role %(role_uid)s assigned to subject type "%(subject_type_name)s" (%(subject_id)s) on scope type "%(scope_type_name)s" (%(scope_id)s).';
const oneAssignment = (p: P): unknown[] | null => (Array.isArray(p.assignments) && p.assignments.length === 1 && Array.isArray(p.assignments[0]) ? p.assignments[0] : null);
const user = (short: string, long: string): AuditDescription => ({ short, long, params: (p) => ({ user_id: p.userId, user_email: p.email, auth_provider_type: p.authProviderType ?? 'password', auth_provider_id: p.authProviderId ?? null }) });

export const AUDIT_DESCRIPTIONS: Readonly<Record<string, AuditDescription>> = {
  create_group: { short: 'Create group', long: 'Group "%(group_name)s" (%(group_id)s) created.' },
  delete_group: { short: 'Delete group', long: 'Group "%(group_name)s" (%(group_id)s) deleted.' },
  update_group: { short: 'Update group', long: 'Group (%(group_id)s) name changed from "%(original_group_name)s" to "%(group_name)s."', params: (p) => ({ original_group_name: p.before, group_name: p.after }) },
  order_groups: { short: 'Order groups', long: 'Groups order changed.' },
  leave_group: { short: 'Leave group', long: 'Group "%(group_name)s" (%(group_id)s) left.' },
  create_group_invitation: asRecorded('Create group invitation', 'Group invitation created for "%(email)s" to join "%(group_name)s" (%(group_id)s) as %(permissions)s.'),
  delete_group_invitation: asRecorded('Delete group invitation', 'Group invitation (%(invitation_id)s) deleted for "%(email)s" to join "%(group_name)s" (%(group_id)s) as %(permissions)s.'),
  accept_group_invitation: asRecorded('Accept group invitation', 'Invitation (%(invitation_id)s) sent by "%(sender)s" to join "%(group_name)s" (%(group_id)s) as %(permissions)s was accepted.'),
  reject_group_invitation: asRecorded('Reject group invitation', 'Invitation (%(invitation_id)s) sent by "%(sender)s" to join "%(group_name)s" (%(group_id)s) as %(permissions)s was rejected.'),
  update_group_invitation_permissions: asRecorded(
    'Update group invitation permissions',
    'Invitation (%(invitation_id)s) permissions changed from %(original_permissions)s to %(permissions)s for %(email)s  on group "%(group_name)s" (%(group_id)s).',
  ),

  batch_assign_role: {
    short: 'Assign multiple roles',
    long: (values) => (oneAssignment(values) ? ONE_ROLE : 'Multiple roles have been assigned'),
    // One assignment reads as its tuple's values (Baserow's AssignmentTuple._asdict()).
    params: (p) => {
      const one = oneAssignment(p);
      if (!one) return p;
      const [subject_type_name, subject_id, original_role_uid, role_uid, scope_type_name, scope_id] = one;
      return { ...p, subject_type_name, subject_id, original_role_uid, role_uid, scope_type_name, scope_id };
    },
  },
  create_team: asRecorded('Create team', 'Team "%(name)s" (%(team_id)s) created.'),
  update_team: asRecorded('Update team', 'Team "%(name)s" (%(team_id)s) updated.'),
  delete_team: asRecorded('Delete team', 'Team "%(team_name)s" (%(team_id)s) deleted.'),
  create_team_subject: asRecorded('Create team subject', 'Subject (%(subject_id)s) created', TEAM),
  delete_team_subject: asRecorded('Delete team subject', 'Subject (%(subject_id)s) deleted', TEAM),

  create_application: application('Create application', '"%(application_name)s" (%(application_id)s) %(application_type)s created'),
  delete_application: application('Delete application', 'Application "%(application_name)s" (%(application_id)s) of type %(application_type)s deleted'),
  update_application: {
    ...application('Update application', 'Application (%(application_id)s) of type %(application_type)s renamed from "%(original_application_name)s" to "%(application_name)s"'),
    params: (p) => ({ application_type: 'database', original_application_name: p.before, application_name: p.after }),
  },
  duplicate_application: {
    ...application('Duplicate application', 'Application "%(application_name)s" (%(application_id)s) of type %(application_type)s duplicated from "%(original_application_name)s" (%(original_application_id)s)'),
    params: (p) => ({ application_type: 'database', original_application_id: p.originalApplicationId, original_application_name: p.originalApplicationName }),
  },
  order_applications: { short: 'Order applications', long: 'Applications reordered', context: WORKSPACE },
  install_template: {
    short: 'Install template',
    long: 'Template "%(template_name)s" (%(template_id)s) installed into application IDs %(installed_application_ids)s',
    context: WORKSPACE,
    params: (p) => ({ template_name: p.templateName, template_id: p.templateId, installed_application_ids: p.applicationIds }),
  },

  create_table: { short: 'Create table', long: 'Table "%(table_name)s" (%(table_id)s) created', context: DATABASE, subjects: inTable },
  delete_table: { short: 'Delete table', long: 'Table "%(table_name)s" (%(table_id)s) deleted', context: DATABASE, subjects: inTable },
  update_table: {
    short: 'Update table',
    long: 'Table (%(table_id)s) name changed from "%(original_table_name)s" to "%(table_name)s"',
    context: DATABASE,
    subjects: inTable,
    params: (p) => ({ original_table_name: p.before, table_name: p.after }),
  },
  duplicate_table: {
    short: 'Duplicate table',
    long: 'Table "%(table_name)s" (%(table_id)s) duplicated from "%(original_table_name)s" (%(original_table_id)s) ',
    context: DATABASE,
    subjects: inTable,
    params: (p) => ({ original_table_id: p.originalTableId, original_table_name: p.originalTableName }),
  },
  order_tables: { short: 'Order tables', long: 'Tables order changed', context: DATABASE, subjects: (p) => ({ applicationId: p.databaseId }) },

  create_row: rows('Create row', 'Row (%(row_id)s) created', false),
  create_rows: rows('Create rows', 'Rows (%(row_ids)s) created', true),
  import_rows: rows('Import rows', 'Rows (%(row_ids)s) imported', true),
  delete_row: rows('Delete row', 'Row (%(row_id)s) deleted', false),
  delete_rows: rows('Delete rows', 'Rows (%(row_ids)s) deleted', true),
  update_row: rows('Update row', 'Row (%(row_id)s) updated', false),
  update_rows: rows('Update rows', 'Rows (%(row_ids)s) updated', true),
  move_row: rows('Move row', 'Row (%(row_id)s) moved', false),

  create_field: field('Create field', 'created'),
  update_field: field('Update field', 'updated'),
  delete_field: field('Delete field', 'deleted'),
  update_field_permissions: {
    short: 'Update field permissions',
    long: 'Field "%(field_name)s" (%(field_id)s): permissions updated to role "%(role)s" and "allow in forms" set to "%(allow_in_forms)s"',
    context: TABLE,
    subjects: ofField((p) => p.fieldId),
    params: (p) => ({ role: p.role, allow_in_forms: p.allowInForms ? 'True' : 'False' }),
  },
  duplicate_field: {
    ...field('Duplicate field', 'duplicated (with_data=%(with_data)s) from field "%(original_field_name)s" (%(original_field_id)s)'),
    params: (p) => ({ with_data: !!p.withData, original_field_id: p.originalFieldId, original_field_name: p.originalFieldName }),
  },
  change_primary_field: {
    short: 'Change primary field',
    long: 'Primary field of table %(table_name)s was changed to %(new_primary_field_name)s',
    context: TABLE,
    subjects: ofField((p) => p.fieldId),
    params: (p) => ({ new_primary_field_id: p.fieldId }),
  },

  create_view: view('Create view', 'created'),
  update_view: view('Update view', 'updated'),
  delete_view: view('Delete view', 'deleted'),
  duplicate_view: {
    ...view('Duplicate view', 'duplicated from view "%(original_view_name)s" (%(original_view_id)s)'),
    params: (p) => ({ original_view_id: p.originalViewId, original_view_name: p.originalViewName }),
  },
  order_views: { short: 'Order views', long: 'Views order changed', context: TABLE, subjects: inTable },
  update_view_field_options: { short: 'Update view field options', long: 'ViewFieldOptions updated', context: VIEW, subjects: inView },
  rotate_view_slug: { short: 'View slug URL updated', long: 'View changed public slug URL', context: VIEW, subjects: inView },
  rotate_calendar_ical_view_slug: { short: 'Calendar View ICal feed slug URL updated', long: 'View changed public ICal feed slug URL', context: VIEW, subjects: inView },

  create_view_filter: { short: 'Create a view filter', long: 'View filter created on field "%(field_name)s" (%(field_id)s)', context: VIEW, subjects: ofField(filterField) },
  update_view_filter: { short: 'Update a view filter', long: 'View filter updated on field "%(field_name)s" (%(field_id)s)', context: VIEW, subjects: ofField(filterField) },
  delete_view_filter: { short: 'Delete a view filter', long: 'View filter deleted from field "%(field_name)s" (%(field_id)s)', context: VIEW, subjects: ofField(filterField) },
  create_view_filter_group: { short: 'Create a view filter group', long: 'View filter group created', context: VIEW, subjects: inView },
  update_view_filter_group: {
    short: 'Update a view filter group',
    long: 'View filter group updated to "%(filter_type)s"',
    context: VIEW,
    subjects: inView,
    params: (p) => ({ filter_type: (p.body ?? {}).filter_type }),
  },
  delete_view_filter_group: { short: 'Delete a view filter group', long: 'View filter group deleted', context: VIEW, subjects: inView },
  create_view_sort: { short: 'Create a view sort', long: 'View sorted on field "%(field_name)s" (%(field_id)s)', context: VIEW, subjects: ofField(sortField) },
  update_view_sort: { short: 'Update a view sort', long: 'View sort updated on field "%(field_name)s" (%(field_id)s)', context: VIEW, subjects: ofField(sortField) },
  delete_view_sort: { short: 'Delete a view sort', long: 'View sort deleted from field "%(field_name)s" (%(field_id)s)', context: VIEW, subjects: ofField(sortField) },
  create_view_group: { short: 'Create a view group', long: 'View grouped on field "%(field_name)s" (%(field_id)s)', context: VIEW, subjects: ofField(sortField) },
  update_view_group: { short: 'Update a view group', long: 'View group by updated on field "%(field_name)s" (%(field_id)s)', context: VIEW, subjects: ofField(sortField) },
  delete_view_group: { short: 'Delete a view group', long: 'View group by deleted from field "%(field_name)s" (%(field_id)s)', context: VIEW, subjects: ofField(sortField) },
  create_decoration: decoration('Create decoration', 'created'),
  update_decoration: decoration('Update decoration', 'updated'),
  delete_decoration: decoration('Delete decoration', 'deleted'),

  create_snapshot: {
    short: 'Create Snapshot',
    long: 'Snapshot "%(snapshot_name)s" (%(snapshot_id)s) created for application "%(application_name)s" (%(application_id)s).',
    params: (p) => ({ snapshot_name: p.snapshotName, snapshot_id: p.snapshotId, application_name: p.applicationName, application_id: p.applicationId }),
  },
  restore_snapshot: {
    short: 'Restore Snapshot',
    long: 'Snapshot "%(snapshot_name)s" (%(snapshot_id)s) restored from application "%(original_application_name)s" (%(original_application_id)s) to application "%(application_name)s" (%(application_id)s).',
    params: (p) => ({
      snapshot_name: p.snapshotName,
      snapshot_id: p.snapshotId,
      application_name: p.applicationName,
      application_id: p.applicationId,
      original_application_name: p.originalApplicationName,
      original_application_id: p.originalApplicationId,
    }),
  },
  delete_snapshot: {
    short: 'Delete Snapshot',
    long: 'Snapshot "%(snapshot_name)s" (%(snapshot_id)s) deleted for application "%(application_name)s" (%(application_id)s).',
    params: (p) => ({ snapshot_name: p.snapshotName, snapshot_id: p.snapshotId, application_name: p.applicationName, application_id: p.applicationId }),
  },

  empty_trash: {
    short: 'Empty trash',
    long: 'Trash for application "%(application_name)s" (%(application_id)s) has been emptied',
    context: WORKSPACE,
    subjects: (p) => ({ applicationId: p.applicationId }),
    params: (p) => ({ application_id: p.applicationId ?? null, application_name: p.applicationId ? undefined : null }),
  },
  restore_from_trash: {
    short: 'Restore from trash',
    long: 'Item of type "%(item_type)s" (%(item_id)s) has been restored from trash',
    context: WORKSPACE,
    params: (p) => ({ item_type: p.itemType, item_id: p.itemId }),
  },

  export_applications: {
    short: 'Export applications',
    long: 'Applications "%(application_names)s" (%(application_ids)s) exported',
    context: WORKSPACE,
    params: (p) => ({ application_ids: p.applicationIds, application_names: p.applicationNames }),
  },
  export_table: {
    short: 'Export Table',
    long: 'View "%(view_name)s" (%(view_id)s) exported to %(export_type)s',
    context: TABLE,
    subjects: inView,
    // A table exported without a view shows the view as None, as Baserow's.
    params: (p) => ({ export_type: p.exporterType, ...(p.viewId ? {} : { view_id: null, view_name: null }) }),
  },

  create_mcp_endpoint: asRecorded('Create MCP endpoint', 'An MCP Endpoint with name "%(endpoint_name)s" (%(endpoint_id)s) has been created', WORKSPACE),
  update_mcp_endpoint: asRecorded('Update MCP endpoint name', 'The MCP Endpoint (%(endpoint_id)s) name changed from "%(original_endpoint_name)s" to "%(endpoint_name)s"', WORKSPACE),
  delete_mcp_endpoint: asRecorded('Delete MCP endpoint', 'The MCP Endpoint "%(endpoint_name)s" (%(endpoint_id)s) has been deleted', WORKSPACE),

  create_db_token: token('Create DB token', 'A Database Token with name "%(token_name)s" (%(token_id)s) has been created'),
  update_db_token_name: token('Update DB token name', 'The Database Token (%(token_name)s) name changed from "%(original_token_name)s" to "%(token_name)s"'),
  update_db_token_permissions: token('Update DB token permissions', 'The Database Token "%(token_name)s" (%(token_id)s) permissions has been updated'),
  rotate_db_token_key: token('Rotate DB token key', 'The Database Token "%(token_name)s" (%(token_id)s) has been rotated'),
  delete_db_token_key: token('Delete DB token', 'The Database Token "%(token_name)s" (%(token_id)s) has been deleted'),

  create_user: {
    ...user('Create User', 'User "%(user_email)s" (%(user_id)s) created via "%(auth_provider_type)s" (%(auth_provider_id)s) auth provider (invitation: %(with_invitation_token)s)'),
    params: (p) => ({ user_id: p.userId, user_email: p.email, auth_provider_type: p.authProviderType ?? 'password', auth_provider_id: p.authProviderId ?? null, with_invitation_token: !!p.withInvitation }),
  },
  update_user: user('Update User', 'User "%(user_email)s" (%(user_id)s) updated'),
  schedule_user_deletion: user('Schedule user deletion', 'User "%(user_email)s" (%(user_id)s) scheduled to be deleted after grace time'),
  change_user_password: user('Change user password', 'User "%(user_email)s" (%(user_id)s) changed password'),
  reset_user_password: user('Reset user password', 'User "%(user_email)s" (%(user_id)s) reset password'),
  sign_in_user: user('Sign In User', 'User "%(user_email)s" (%(user_id)s) signed in via "%(auth_provider_type)s" (%(auth_provider_id)s) auth provider'),
  // Not audited by Baserow 1.35.3 (it has no action for them); Rowspace's own, in its words.
  sign_in_user_failed: { short: 'Failed sign in', long: 'Sign in as "%(user_email)s" refused: %(reason)s', params: (p) => ({ user_email: p.email, reason: p.reason }) },
  update_settings: { short: 'Update settings', long: 'Instance settings updated: %(settings)s', params: (p) => ({ settings: p.keys }) },
};

/** The action types the log knows, as the filters and the `action_type` choices name them. */
export const AUDIT_ACTION_TYPES = Object.keys(AUDIT_DESCRIPTIONS);

/** Baserow's `get_short_description`: the description's short name, or the type's words capitalized. */
export function shortDescription(type: string): string {
  const found = AUDIT_DESCRIPTIONS[type]?.short;
  if (found) return found;
  const words = type.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A value as Python's `%s` shows it (the descriptions are Baserow's Python templates). */
function pythonText(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map((item) => (typeof item === 'string' ? `'${item}'` : pythonText(item))).join(', ')}]`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `template % values`, a missing key left as it is written (Baserow's IgnoreMissingKeyDict). */
export function renderTemplate(template: string, values: P): string {
  return template.replace(/%\((\w+)\)s/g, (whole, key: string) => (key in values ? pythonText(values[key]) : whole));
}

/** Baserow's `render_action_type_description`, prefixed `UNDONE: ` or `REDONE: ` for an undo or redo. */
export function longDescription(type: string, command: string, values: P): string {
  const description = AUDIT_DESCRIPTIONS[type];
  let text: string;
  if (!description) text = `${shortDescription(type)}: ${JSON.stringify(values)}`;
  else {
    const long = typeof description.long === 'function' ? description.long(values) : description.long;
    text = description.context ? `${renderTemplate(long, values)} ${renderTemplate(description.context, values)}` : renderTemplate(long, values);
  }
  return command === 'UNDO' ? `UNDONE: ${text}` : command === 'REDO' ? `REDONE: ${text}` : text;
}
