import { operations } from '../operation-type';

/** Operations on a workspace and what lives directly in it (Baserow's core `operations.py` and its siblings). */
export const WorkspaceOperations = operations({
  read: { name: 'workspace.read', context: 'workspace' },
  /** Baserow checks nothing but membership to leave (or see one's own item of) a workspace. */
  membership: { name: 'workspace.membership', context: 'workspace', memberOnly: true },
  update: { name: 'workspace.update', context: 'workspace' },
  delete: { name: 'workspace.delete', context: 'workspace' },
  restore: { name: 'workspace.restore', context: 'workspace' },
  listApplications: { name: 'workspace.list_applications', context: 'workspace' },
  createApplication: { name: 'workspace.create_application', context: 'workspace' },
  orderApplications: { name: 'workspace.order_applications', context: 'workspace' },
  listInvitations: { name: 'workspace.list_invitations', context: 'workspace' },
  createInvitation: { name: 'workspace.create_invitation', context: 'workspace' },
  readInvitation: { name: 'invitation.read', context: 'invitation' },
  updateInvitation: { name: 'invitation.update', context: 'invitation' },
  deleteInvitation: { name: 'invitation.delete', context: 'invitation' },
  listWorkspaceUsers: { name: 'workspace.list_workspace_users', context: 'workspace' },
  updateWorkspaceUser: { name: 'workspace_user.update', context: 'workspace_user' },
  deleteWorkspaceUser: { name: 'workspace_user.delete', context: 'workspace_user' },
  readTrash: { name: 'workspace.read_trash', context: 'workspace' },
  emptyTrash: { name: 'workspace.empty_trash', context: 'workspace' },
  createToken: { name: 'workspace.create_token', context: 'workspace' },
  readToken: { name: 'workspace.token.read', context: 'token' },
  updateToken: { name: 'workspace.token.update', context: 'token' },
  useToken: { name: 'workspace.token.use', context: 'token' },
  listNotifications: { name: 'workspace.list_notifications', context: 'workspace', memberOnly: true },
  clearNotifications: { name: 'workspace.clear_notification', context: 'workspace', memberOnly: true },
  markNotificationAsRead: { name: 'workspace.mark_notification_as_read', context: 'workspace', memberOnly: true },
  assignRole: { name: 'workspace.assign_role', context: 'workspace' },
  readRole: { name: 'workspace.read_role', context: 'workspace' },
  listAuditLogEntries: { name: 'workspace.list_audit_log_entries', context: 'workspace' },
});
