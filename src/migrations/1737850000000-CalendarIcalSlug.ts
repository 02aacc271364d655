import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/**
 * Calendar views' iCal feeds (Baserow premium's `CalendarView.ical_slug`): the feed's own slug,
 * unique, looked up by `GET /api/database/views/calendar/{ical_slug}.ics`; null until the feed
 * is first made public. Its other settings (`date_field`, `ical_public`) live in the view's
 * `properties` like every view type's.
 */
export class CalendarIcalSlug1737850000000 implements MigrationInterface {
  name = 'CalendarIcalSlug1737850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('database_view', new TableColumn({ name: 'ical_slug', type: 'varchar', length: '64', isNullable: true }));
    await q.createIndex('database_view', new TableIndex({ name: 'database_view_ical_slug_uniq', columnNames: ['ical_slug'], isUnique: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('database_view', 'database_view_ical_slug_uniq');
    await q.dropColumn('database_view', 'ical_slug');
  }
}
