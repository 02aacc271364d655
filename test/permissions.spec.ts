import { OPERATIONS, TableOperations, WorkspaceOperations } from '../src/permissions';
import { ADMIN_ONLY_OPERATIONS, ROLE_OPERATIONS, ROLE_UIDS, roleOfMembership } from '../src/permissions/roles';

/** The operation registry and Baserow's default roles as data (enterprise/role/default_roles.py). */
describe('operations and default roles', () => {
  test('every operation a role allows is registered, under its Baserow name', () => {
    for (const uid of ROLE_UIDS) for (const name of ROLE_OPERATIONS[uid]) expect(OPERATIONS.has(name)).toBe(true);
    for (const name of ADMIN_ONLY_OPERATIONS) expect(OPERATIONS.has(name)).toBe(true);
    expect(TableOperations.createRow.name).toBe('database.table.create_row');
    expect(TableOperations.listRows.context).toBe('database_table');
  });

  test('each role includes the one below it, as Baserow builds them', () => {
    const chain = ['ADMIN', 'BUILDER', 'EDITOR', 'COMMENTER', 'VIEWER', 'NO_ACCESS'] as const;
    for (let i = 1; i < chain.length; i++) {
      for (const name of ROLE_OPERATIONS[chain[i]]) expect(ROLE_OPERATIONS[chain[i - 1]].has(name)).toBe(true);
    }
    expect(ROLE_OPERATIONS.NO_ACCESS.size).toBe(0);
    expect(ROLE_OPERATIONS.NO_ROLE_LOW_PRIORITY.size).toBe(0);
  });

  test('what each role adds', () => {
    expect(ROLE_OPERATIONS.VIEWER.has(TableOperations.listRows.name)).toBe(true);
    expect(ROLE_OPERATIONS.VIEWER.has(TableOperations.listComments.name)).toBe(false);
    expect(ROLE_OPERATIONS.COMMENTER.has(TableOperations.createComment.name)).toBe(true);
    expect(ROLE_OPERATIONS.COMMENTER.has(TableOperations.createRow.name)).toBe(false);
    expect(ROLE_OPERATIONS.EDITOR.has(TableOperations.updateRow.name)).toBe(true);
    expect(ROLE_OPERATIONS.EDITOR.has(TableOperations.createField.name)).toBe(false);
    expect(ROLE_OPERATIONS.BUILDER.has(TableOperations.createField.name)).toBe(true);
    expect(ROLE_OPERATIONS.BUILDER.has(WorkspaceOperations.update.name)).toBe(false);
    expect(ROLE_OPERATIONS.ADMIN.has(WorkspaceOperations.update.name)).toBe(true);
  });

  test('workspace_user.permissions: MEMBER means BUILDER, an unknown value no access', () => {
    expect(roleOfMembership('MEMBER')).toBe('BUILDER');
    expect(roleOfMembership('ADMIN')).toBe('ADMIN');
    expect(roleOfMembership('VIEWER')).toBe('VIEWER');
    expect(roleOfMembership('nonsense')).toBe('NO_ACCESS');
  });
});
