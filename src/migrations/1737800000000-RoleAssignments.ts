import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Role assignments (Baserow enterprise's `RoleAssignment`): a role uid given to a subject (a user,
 * `auth.User`, or a team, `baserow_enterprise.Team`) on a scope of one workspace (`workspace`,
 * `application` or `database_table`), one per subject and scope. A user's role on the workspace
 * itself is not here: it stays in `workspace_user.permissions`, as Baserow keeps it. Subjects and
 * scopes are named by type and id (no foreign key can name two tables); what deletes them deletes
 * their assignments, and the workspace's deletion cascades.
 */
export class RoleAssignments1737800000000 implements MigrationInterface {
  name = 'RoleAssignments1737800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'enterprise_roleassignment',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'workspace_id', type: 'integer' },
          { name: 'subject_type', type: 'varchar', length: '32' },
          { name: 'subject_id', type: 'integer' },
          { name: 'scope_type', type: 'varchar', length: '32' },
          { name: 'scope_id', type: 'integer' },
          { name: 'role', type: 'varchar', length: '32' },
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['workspace_id'], referencedTableName: 'workspace', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
        indices: [
          new TableIndex({ name: 'enterprise_roleassignment_unique', columnNames: ['subject_type', 'subject_id', 'scope_type', 'scope_id'], isUnique: true }),
          new TableIndex({ name: 'enterprise_roleassignment_workspace', columnNames: ['workspace_id', 'subject_type', 'subject_id'] }),
          new TableIndex({ name: 'enterprise_roleassignment_scope', columnNames: ['scope_type', 'scope_id'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('enterprise_roleassignment');
  }
}
