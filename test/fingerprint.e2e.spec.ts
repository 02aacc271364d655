import { DataSource } from 'typeorm';
import { signUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable } from './support/fixtures';
import { fingerprint } from './support/fingerprint';

/**
 * The fuzz and tenant suites trust the database fingerprint to notice any change; it skips
 * reading the tables when nothing was written, so it is checked here against real writes.
 */
describe('the database fingerprint', () => {
  let t: TestApp;
  let dataSource: DataSource;
  beforeAll(async () => {
    t = await startApp();
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it('stays the same through reads and refused writes, and changes with every committed write', async () => {
    const ada = await signUp(t, 'Ada');
    const tableId = await emptyTable(t, ada, await databaseOf(t, ada), 'Fingerprinted');
    const api = (method: string, path: string, body?: unknown) => t.request(method, path, { token: ada.token, body });
    const first = await fingerprint(dataSource);
    expect(await fingerprint(dataSource)).toBe(first);
    expect((await api('GET', `/api/database/rows/table/${tableId}/`)).status).toBe(200);
    const afterRead = await fingerprint(dataSource);
    expect(afterRead).toBe(first);

    const created = await api('POST', `/api/database/rows/table/${tableId}/?user_field_names=true`, { Name: 'one' });
    expect(created.status).toBe(200);
    const afterCreate = await fingerprint(dataSource);
    expect(afterCreate).not.toBe(afterRead);

    expect((await api('PATCH', `/api/database/rows/table/${tableId}/${created.body.id}/?user_field_names=true`, { Name: 'two' })).status).toBe(200);
    const afterUpdate = await fingerprint(dataSource);
    expect(afterUpdate).not.toBe(afterCreate);

    // A refused write (a batch with one bad item) changes nothing.
    const refused = await api('POST', `/api/database/rows/table/${tableId}/batch/?user_field_names=true`, { items: [{ Name: 'ok' }, { Name: { bad: true } }] });
    expect(refused.status).toBe(400);
    expect(await fingerprint(dataSource)).toBe(afterUpdate);

    // A schema change is a change.
    expect((await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'More', type: 'text' })).status).toBe(200);
    const afterField = await fingerprint(dataSource);
    expect(afterField).not.toBe(afterUpdate);

    // A write made outside the API (straight SQL) is noticed too.
    await dataSource.query(`UPDATE "database_table_${tableId}" SET "order" = "order" + 1`);
    expect(await fingerprint(dataSource)).not.toBe(afterField);
  });
});
