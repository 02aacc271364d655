import { ApplicationOperations, OPERATIONS, TableOperations, WorkspaceOperations } from '../src/permissions';
import type { HeldAssignment } from '../src/permissions/role-assignment.repository';
import { actorRoles, computedGrants, refusalOf } from '../src/permissions/precedence';
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

describe("Baserow's precedence", () => {
  const held = (subjectType: string, scopeType: string, scopeId: number, role: string, databaseId: number | null = null) =>
    ({ subjectType, subjectId: 1, scopeType, scopeId, role, databaseId }) as HeldAssignment;
  const scope = { workspaceId: 1, applicationId: 10, tableId: 100 };

  test("the user's assignment wins over their teams' on a scope; teams' roles add up; NO_ROLE_LOW_PRIORITY is ignored", () => {
    const roles = actorRoles('VIEWER', [
      held('baserow_enterprise.Team', 'database_table', 100, 'EDITOR', 10),
      held('baserow_enterprise.Team', 'database_table', 100, 'COMMENTER', 10),
      held('auth.User', 'application', 10, 'NO_ROLE_LOW_PRIORITY'),
      held('baserow_enterprise.Team', 'application', 10, 'BUILDER'),
      held('auth.User', 'database_table', 101, 'NO_ACCESS', 10),
      held('baserow_enterprise.Team', 'database_table', 101, 'ADMIN', 10),
    ]);
    expect(computedGrants(roles, TableOperations.createRow, scope)).toEqual(['EDITOR', 'COMMENTER']);
    expect(computedGrants(roles, TableOperations.createRow, { ...scope, tableId: 101 })).toEqual(['NO_ACCESS']);
    expect(computedGrants(roles, TableOperations.createRow, { ...scope, tableId: 102 })).toEqual(['BUILDER']);
  });

  test('NO_ROLE_LOW_PRIORITY on the workspace: the teams\' workspace role, else no access', () => {
    expect(actorRoles('NO_ROLE_LOW_PRIORITY', []).workspace).toEqual(['NO_ACCESS']);
    expect(actorRoles('NO_ROLE_LOW_PRIORITY', [held('baserow_enterprise.Team', 'workspace', 1, 'EDITOR')]).workspace).toEqual(['EDITOR']);
    expect(actorRoles('VIEWER', [held('baserow_enterprise.Team', 'workspace', 1, 'EDITOR')]).workspace).toEqual(['VIEWER']);
  });

  test('a role below the object adds VIEWER to read it; MEMBER keeps its refusal', () => {
    const roles = actorRoles('NO_ACCESS', [held('auth.User', 'database_table', 100, 'EDITOR', 10)]);
    expect(computedGrants(roles, WorkspaceOperations.read, { workspaceId: 1 })).toEqual(['NO_ACCESS', 'VIEWER']);
    expect(computedGrants(roles, ApplicationOperations.read, { workspaceId: 1, applicationId: 10 })).toEqual(['NO_ACCESS', 'VIEWER']);
    expect(computedGrants(roles, ApplicationOperations.read, { workspaceId: 1, applicationId: 11 })).toEqual(['NO_ACCESS']);
    expect(refusalOf(['BASIC_MEMBER'], WorkspaceOperations.update)?.code).toBe('ERROR_USER_INVALID_GROUP_PERMISSIONS');
    expect(refusalOf(['BASIC_MEMBER'], WorkspaceOperations.assignRole)?.code).toBe('PERMISSION_DENIED');
    expect(refusalOf(['BASIC_MEMBER'], ApplicationOperations.createSnapshot)).toBeNull();
    expect(refusalOf(['BUILDER'], ApplicationOperations.createSnapshot)?.code).toBe('PERMISSION_DENIED');
  });
});
