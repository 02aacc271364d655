import { operations } from '../operation-type';

/** Operations on an application (a database here) and its snapshots and trash. */
export const ApplicationOperations = operations({
  read: { name: 'application.read', context: 'application' },
  update: { name: 'application.update', context: 'application' },
  duplicate: { name: 'application.duplicate', context: 'application' },
  delete: { name: 'application.delete', context: 'application' },
  restore: { name: 'application.restore', context: 'application' },
  readTrash: { name: 'application.read_trash', context: 'application' },
  emptyTrash: { name: 'application.empty_trash', context: 'application' },
  listSnapshots: { name: 'application.list_snapshots', context: 'application' },
  createSnapshot: { name: 'application.create_snapshot', context: 'application' },
  restoreSnapshot: { name: 'application.snapshot.restore', context: 'snapshot' },
  deleteSnapshot: { name: 'application.snapshot.delete', context: 'snapshot' },
  readRole: { name: 'application.read_role', context: 'application' },
  updateRole: { name: 'application.update_role', context: 'application' },
  listTables: { name: 'database.list_tables', context: 'application' },
  createTable: { name: 'database.create_table', context: 'application' },
  orderTables: { name: 'database.order_tables', context: 'application' },
});
