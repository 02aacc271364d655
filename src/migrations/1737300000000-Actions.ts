import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Actions (Baserow's `core_action`): what a user or a token did, written in the acting
 * transaction, read by undo and redo (and later the audit log). `session` is the client's
 * `ClientSessionId` (null: never undoable), `action_group` its `ClientUndoRedoActionGroupId`.
 * No foreign keys: an action outlives what it names (an undo of a deleted object is skipped),
 * and a key would cost a check per insert. Timestamps are fixed-width ISO text, so they sort
 * and compare as text on both databases.
 */
export class Actions1737300000000 implements MigrationInterface {
  name = 'Actions1737300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'core_action',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer', isNullable: true },
          { name: 'workspace_id', type: 'integer', isNullable: true },
          { name: 'session', type: 'varchar', length: '256', isNullable: true },
          { name: 'action_group', type: 'varchar', length: '36', isNullable: true },
          { name: 'type', type: 'varchar', length: '255' },
          { name: 'params', type: 'text' },
          { name: 'scope', type: 'varchar', length: '255' },
          { name: 'created_on', type: 'varchar', length: '32' },
          { name: 'updated_on', type: 'varchar', length: '32' },
          { name: 'undone_at', type: 'varchar', length: '32', isNullable: true },
          { name: 'error', type: 'text', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'core_action_user_session', columnNames: ['user_id', 'session', 'id'] }),
          new TableIndex({ name: 'core_action_updated_on', columnNames: ['updated_on'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('core_action');
  }
}
