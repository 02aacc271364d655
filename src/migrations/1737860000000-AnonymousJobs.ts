import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Jobs nobody signed in started (Baserow premium's export of a publicly shared view: its
 * ExportJob has no user): `job.user_id` may be null. Such a job is read by its signed id only.
 */
export class AnonymousJobs1737860000000 implements MigrationInterface {
  name = 'AnonymousJobs1737860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.changeColumn('job', 'user_id', new TableColumn({ name: 'user_id', type: 'integer', isNullable: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DELETE FROM job WHERE user_id IS NULL');
    await q.changeColumn('job', 'user_id', new TableColumn({ name: 'user_id', type: 'integer', isNullable: false }));
  }
}
