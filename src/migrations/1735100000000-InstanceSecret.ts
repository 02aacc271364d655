import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** The generated instance secret, when SECRET_KEY is not set and instances share PostgreSQL (one row, id 1). */
export class InstanceSecret1735100000000 implements MigrationInterface {
  name = 'InstanceSecret1735100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'instance_secret',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'secret', type: 'varchar', length: '255' },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('instance_secret');
  }
}
