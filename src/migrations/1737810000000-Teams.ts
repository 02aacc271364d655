import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Teams (Baserow enterprise's `Team` and `TeamSubject`): named groups of a workspace's members,
 * given roles as one subject. A team's name is unique in its workspace (trashed teams included,
 * as Baserow's unique_together). A team's subjects are named by type and id, as Baserow names
 * them (`auth.User` only, so far); they go with their team, and with the membership they need
 * (the workspaces module removes them when a member leaves). A team's roles are rows of
 * `enterprise_roleassignment` with the team as subject.
 */
export class Teams1737810000000 implements MigrationInterface {
  name = 'Teams1737810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'enterprise_team',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'workspace_id', type: 'integer' },
          { name: 'name', type: 'varchar', length: '160' },
          { name: 'trashed', type: 'boolean', default: false },
          { name: 'created_on', type: 'varchar', length: '32' },
          { name: 'updated_on', type: 'varchar', length: '32' },
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['workspace_id'], referencedTableName: 'workspace', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
        indices: [new TableIndex({ name: 'enterprise_team_name_unique', columnNames: ['workspace_id', 'name'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'enterprise_teamsubject',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'team_id', type: 'integer' },
          { name: 'subject_type', type: 'varchar', length: '32' },
          { name: 'subject_id', type: 'integer' },
          { name: 'created_on', type: 'varchar', length: '32' },
          { name: 'updated_on', type: 'varchar', length: '32' },
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['team_id'], referencedTableName: 'enterprise_team', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
        indices: [
          new TableIndex({ name: 'enterprise_teamsubject_unique', columnNames: ['team_id', 'subject_type', 'subject_id'], isUnique: true }),
          new TableIndex({ name: 'enterprise_teamsubject_subject', columnNames: ['subject_type', 'subject_id'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('enterprise_teamsubject');
    await q.dropTable('enterprise_team');
  }
}
