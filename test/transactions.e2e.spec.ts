import { DataSource } from 'typeorm';
import { UnitOfWork } from '../src/core/database/unit-of-work';
import { startApp, TestApp } from './support/app';

/**
 * A unit of work is never swallowed by another transaction. On SQLite TypeORM shares one query
 * runner between every caller, and a repository save() outside a unit of work opens its own
 * transaction: a unit of work begun meanwhile must wait for it to end, or it becomes a
 * savepoint of it and that transaction's rollback undoes it although it "committed".
 */
let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t.close();
});

it("keeps a unit of work that committed while another transaction was open and then rolled back", async () => {
  const dataSource = t.app.get(DataSource);
  const uow = t.app.get(UnitOfWork);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let foreignOpen!: () => void;
  const opened = new Promise<void>((resolve) => (foreignOpen = resolve));
  // A transaction outside any unit of work (as TypeORM's save() opens one) that fails.
  const foreign = dataSource
    .transaction(async (manager) => {
      await manager.query('SELECT 1');
      foreignOpen();
      await gate;
      throw new Error('the foreign transaction fails');
    })
    .catch((error: Error) => error.message);
  await opened;
  const ours = uow.run(async () => {
    await uow.manager.query('CREATE TABLE "probe_unit_of_work" ("id" integer)');
    await uow.manager.query('INSERT INTO "probe_unit_of_work" ("id") VALUES (1)');
  });
  setTimeout(release, 100);
  await ours;
  expect(await foreign).toBe('the foreign transaction fails');
  expect(await dataSource.query('SELECT "id" FROM "probe_unit_of_work"')).toEqual([{ id: 1 }]);
});
