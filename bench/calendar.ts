/**
 * Calendar view benchmark (`npm run bench:calendar`; part of `npm run bench`).
 *
 * Through the public API only, on a fresh server (bench/rows.ts's `withRowspace()`): a table with
 * BENCH_CALENDAR_EVENTS events (default 10,000) spread over one calendar month (March 2024, a
 * datetime field, a text name and a text note), a calendar view on the datetime with its iCal feed
 * public and two visible fields, then
 *  - list the month: `GET /api/database/views/calendar/{id}/` from 2024-03-01 to 2024-04-01 in
 *    Europe/Amsterdam, with the default 40 rows per day and with 100 (the most Baserow allows),
 *    BENCH_REPEAT times each (default 5): milliseconds (median, min, max), the days answered, the
 *    rows answered, and every day's count summed (must be every event);
 *  - serve the .ics: `GET {ical_feed_url}` BENCH_REPEAT times: milliseconds, the feed's size and
 *    its events (must be every event).
 *
 * Environment: DATABASE_URL (PostgreSQL instead of SQLite), BENCH_CALENDAR_EVENTS, BENCH_REPEAT.
 * Prints one JSON document on stdout; progress goes to stderr.
 */
import { prng } from '../test/support/fuzz';
import { envInt, insertRows, log, machine, percentile, round, send, WORDS, withRowspace } from './rows';

const EVENTS = Math.floor(envInt('BENCH_CALENDAR_EVENTS', 10_000));
const REPEAT = Math.floor(envInt('BENCH_REPEAT', 5));
const MONTH_START = Date.UTC(2024, 2, 1);
const MONTH_MS = 31 * 86_400_000;

function stats(values: number[]) {
  return { median_ms: round(percentile(values, 50) ?? 0, 1), min_ms: round(Math.min(...values), 1), max_ms: round(Math.max(...values), 1) };
}

async function main(): Promise<void> {
  await withRowspace('calendar', async (api, postgres) => {
    const [database] = (await api.call('GET', '/api/applications/')).filter((app: { type: string }) => app.type === 'database');
    const table = await api.call('POST', `/api/database/tables/database/${database.id}/`, { name: 'Events' });
    const initial = (await api.call('GET', `/api/database/rows/table/${table.id}/`)).results.map((row: { id: number }) => row.id);
    await api.call('POST', `/api/database/rows/table/${table.id}/batch-delete/`, { items: initial });
    const fields = await api.call('GET', `/api/database/fields/table/${table.id}/`);
    const name = fields.find((f: { primary: boolean }) => f.primary);
    const when = await api.call('POST', `/api/database/fields/table/${table.id}/`, { name: 'When', type: 'date', date_include_time: true });
    const note = await api.call('POST', `/api/database/fields/table/${table.id}/`, { name: 'Note', type: 'text' });

    const random = prng(20261128);
    const rows = Array.from({ length: EVENTS }, (_, i) => ({
      [`field_${name.id}`]: `${WORDS[Math.floor(random() * WORDS.length)]} ${i}`,
      [`field_${when.id}`]: new Date(MONTH_START + Math.floor(random() * (MONTH_MS / 60_000)) * 60_000).toISOString(),
      [`field_${note.id}`]: WORDS[Math.floor(random() * WORDS.length)],
    }));
    const batches: Record<string, unknown>[][] = [];
    for (let i = 0; i < rows.length; i += 200) batches.push(rows.slice(i, i + 200));
    log(`inserting ${EVENTS} events`);
    await insertRows(api, table.id, batches);

    const view = await api.call('POST', `/api/database/views/table/${table.id}/`, { name: 'Month', type: 'calendar', date_field: when.id, ical_public: true });
    await api.call('PATCH', `/api/database/views/${view.id}/field-options/`, { field_options: { [note.id]: { hidden: false } } });

    const list = async (limit: number) => {
      const times: number[] = [];
      let answer: any = null;
      for (let i = 0; i < REPEAT; i++) {
        const t0 = performance.now();
        answer = await api.call('GET', `/api/database/views/calendar/${view.id}/?from_timestamp=2024-03-01T00:00:00Z&to_timestamp=2024-04-01T00:00:00Z&user_timezone=Europe/Amsterdam&limit=${limit}`);
        times.push(performance.now() - t0);
      }
      const days = Object.values(answer.rows as Record<string, { count: number; results: unknown[] }>);
      const counted = days.reduce((sum, day) => sum + day.count, 0);
      // Amsterdam's March starts an hour before UTC's: the first UTC hour's events are on the 1st too; the last hour's on April 1st.
      if (counted !== EVENTS) throw new Error(`the month counted ${counted} events of ${EVENTS}`);
      return { ...stats(times), days: days.length, rows_answered: days.reduce((sum, day) => sum + day.results.length, 0), events_counted: counted };
    };
    log('listing the month (40 rows per day)');
    const month40 = await list(40);
    log('listing the month (100 rows per day)');
    const month100 = await list(100);

    log('serving the .ics');
    const path = new URL(view.ical_feed_url).pathname;
    const times: number[] = [];
    let text = '';
    for (let i = 0; i < REPEAT; i++) {
      const t0 = performance.now();
      const reply = await send(api.agent, api.base, 'GET', path);
      times.push(performance.now() - t0);
      if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.text.slice(0, 200)}`);
      text = reply.text;
    }
    const events = text.split('BEGIN:VEVENT').length - 1;
    if (events !== EVENTS) throw new Error(`the feed holds ${events} events of ${EVENTS}`);

    console.log(
      JSON.stringify(
        {
          benchmark: 'calendar',
          database: postgres ? `postgresql ${postgres.version}` : 'sqlite',
          events: EVENTS,
          table: '1 table: a text name, a datetime (March 2024, uniform), a text note; a calendar view on the datetime, two fields visible',
          list_month_limit_40: month40,
          list_month_limit_100: month100,
          ics: { ...stats(times), bytes: Buffer.byteLength(text), events },
          machine: machine(),
        },
        null,
        2,
      ),
    );
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
