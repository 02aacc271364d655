import { SignedUp, signUp, startApp, TEST_DB, TestApp } from './support/app';
import { done, onTablePage, undoClient } from './support/undo';
import { connect, WsClient } from './support/ws';

/** Undo and redo of views, tables, applications and workspaces (research §2.5), with their messages. */
describe(`undo and redo: views, tables, applications, workspaces (${TEST_DB})`, () => {
  let t: TestApp;
  let owner: SignedUp;
  let workspaceId: number;
  let databaseId: number;
  let s: ReturnType<typeof undoClient>;
  const open: WsClient[] = [];

  const newTable = async (name: string) => (await s.plain('POST', `/api/database/tables/database/${databaseId}/`, { name })).body.id as number;
  const viewIds = async (tableId: number) => ((await s.plain('GET', `/api/database/views/table/${tableId}/`)).body as { id: number }[]).map((v) => v.id);
  const tableIds = async () => ((await s.plain('GET', `/api/database/tables/database/${databaseId}/`)).body as { id: number }[]).map((v) => v.id);
  const applicationIds = async () => ((await s.plain('GET', `/api/applications/workspace/${workspaceId}/`)).body as { id: number }[]).map((a) => a.id);
  const workspaces = async () => (await s.plain('GET', '/api/workspaces/')).body as { id: number; name: string }[];
  async function socket(): Promise<WsClient> {
    const client = await connect(t, owner.token);
    open.push(client);
    return client;
  }

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'Owner');
    s = undoClient(t, () => owner);
    const app = (await s.plain('GET', '/api/applications/')).body[0];
    databaseId = app.id;
    workspaceId = app.workspace.id;
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(async () => t?.close());

  describe('views', () => {
    test('create_view and delete_view go through the trash; update_view puts the old values back', async () => {
      const tableId = await newTable('Views');
      const client = await onTablePage(t, owner, tableId, open);
      const view = (await s.api('POST', `/api/database/views/table/${tableId}/`, { name: 'Mine', type: 'grid' })).body;
      await client.waitFor('view_created');
      const scope = `table${tableId}`;
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['create_view', scope]));
      expect(await client.waitFor('view_deleted')).toMatchObject({ view_id: view.id });
      expect(await viewIds(tableId)).not.toContain(view.id);
      expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['create_view', scope]));
      expect(await client.waitFor('view_created')).toMatchObject({ view: { id: view.id } });

      await s.api('PATCH', `/api/database/views/${view.id}/`, { name: 'Renamed', filter_type: 'OR' });
      await client.waitFor('view_updated');
      expect((await s.undo({ view: view.id })).body).toEqual(done('SUCCESS', ['update_view', `view${view.id}`]));
      expect(await client.waitFor('view_updated')).toMatchObject({ view: { id: view.id, name: 'Mine', filter_type: 'AND' } });
      expect((await s.redo({ view: view.id })).body).toEqual(done('SUCCESS', ['update_view', `view${view.id}`]));
      expect((await s.plain('GET', `/api/database/views/${view.id}/`)).body).toMatchObject({ name: 'Renamed', filter_type: 'OR' });

      expect((await s.api('DELETE', `/api/database/views/${view.id}/`)).status).toBe(204);
      await client.waitFor('view_deleted');
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['delete_view', scope]));
      expect(await viewIds(tableId)).toContain(view.id);
      expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['delete_view', scope]));
      expect(await viewIds(tableId)).not.toContain(view.id);
    });

    test('duplicate_view and order_views', async () => {
      const tableId = await newTable('Order views');
      const [first] = await viewIds(tableId);
      const copy = (await s.api('POST', `/api/database/views/${first}/duplicate/`)).body.id;
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['duplicate_view', `table${tableId}`]));
      expect(await viewIds(tableId)).toEqual([first]);
      expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['duplicate_view', `table${tableId}`]));
      expect(await viewIds(tableId)).toEqual([first, copy]);
      await s.api('POST', `/api/database/views/table/${tableId}/order/`, { view_ids: [copy, first] });
      expect(await viewIds(tableId)).toEqual([copy, first]);
      expect((await s.undo({ table: tableId })).body).toEqual(done('SUCCESS', ['order_views', `table${tableId}`]));
      expect(await viewIds(tableId)).toEqual([first, copy]);
      expect((await s.redo({ table: tableId })).body).toEqual(done('SUCCESS', ['order_views', `table${tableId}`]));
      expect(await viewIds(tableId)).toEqual([copy, first]);
    });
  });

  test('sorts and group-bys: create, update and delete are undone and redone (scope view<id>)', async () => {
    const tableId = await newTable('Sorts');
    const [viewId] = await viewIds(tableId);
    const field = ((await s.plain('GET', `/api/database/fields/table/${tableId}/`)).body as { id: number; primary: boolean }[]).find((f) => f.primary)!.id;
    const client = await onTablePage(t, owner, tableId, open);
    const sorts = async () => (await s.plain('GET', `/api/database/views/${viewId}/sortings/`)).body as { id: number; order: string }[];
    const scope = `view${viewId}`;
    const sort = (await s.api('POST', `/api/database/views/${viewId}/sortings/`, { field, order: 'ASC' })).body;
    await client.waitFor('view_sort_created');
    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['create_view_sort', scope]));
    expect(await client.waitFor('view_sort_deleted')).toMatchObject({ view_sort_id: sort.id });
    expect(await sorts()).toEqual([]);
    expect((await s.redo({ view: viewId })).body).toEqual(done('SUCCESS', ['create_view_sort', scope]));
    const [again] = await sorts();
    expect(again).toMatchObject({ order: 'ASC' });
    await s.api('PATCH', `/api/database/views/sort/${again.id}/`, { order: 'DESC' });
    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['update_view_sort', scope]));
    expect((await sorts())[0].order).toBe('ASC');
    await s.api('DELETE', `/api/database/views/sort/${again.id}/`);
    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['delete_view_sort', scope]));
    expect(await sorts()).toHaveLength(1);
    expect((await s.redo({ view: viewId })).body).toEqual(done('SUCCESS', ['delete_view_sort', scope]));
    expect(await sorts()).toEqual([]);

    const groupBy = (await s.api('POST', `/api/database/views/${viewId}/group_bys/`, { field, order: 'ASC' })).body;
    expect(groupBy.id).toEqual(expect.any(Number));
    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['create_view_group', scope]));
    expect((await s.plain('GET', `/api/database/views/${viewId}/group_bys/`)).body).toEqual([]);
  });

  test('filters: create, update and delete are undone and redone (scope view<id>)', async () => {
    const tableId = await newTable('Filters');
    const [viewId] = await viewIds(tableId);
    const field = ((await s.plain('GET', `/api/database/fields/table/${tableId}/`)).body as { id: number; primary: boolean }[]).find((f) => f.primary)!.id;
    const client = await onTablePage(t, owner, tableId, open);
    const filters = async () => (await s.plain('GET', `/api/database/views/${viewId}/filters/`)).body as { id: number; value: string }[];
    const scope = `view${viewId}`;
    const filter = (await s.api('POST', `/api/database/views/${viewId}/filters/`, { field, type: 'contains', value: 'a' })).body;
    await client.waitFor('view_filter_created');
    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['create_view_filter', scope]));
    expect(await client.waitFor('view_filter_deleted')).toMatchObject({ view_filter_id: filter.id });
    expect((await s.redo({ view: viewId })).body).toEqual(done('SUCCESS', ['create_view_filter', scope]));
    const [again] = await filters();
    expect(again).toMatchObject({ value: 'a' });
    await s.api('PATCH', `/api/database/views/filter/${again.id}/`, { value: 'b' });
    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['update_view_filter', scope]));
    expect((await filters())[0].value).toBe('a');
    await s.api('DELETE', `/api/database/views/filter/${again.id}/`);
    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['delete_view_filter', scope]));
    expect(await filters()).toHaveLength(1);
  });

  describe('tables', () => {
    test('create_table, update_table, order_tables, delete_table', async () => {
      const client = await socket();
      const scope = `application${databaseId}`;
      const created = (await s.api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Fresh' })).body.id;
      await client.waitFor('table_created');
      expect((await s.undo({ application: databaseId })).body).toEqual(done('SUCCESS', ['create_table', scope]));
      expect(await client.waitFor('table_deleted')).toMatchObject({ table_id: created });
      expect(await tableIds()).not.toContain(created);
      expect((await s.redo({ application: databaseId })).body).toEqual(done('SUCCESS', ['create_table', scope]));
      expect(await tableIds()).toContain(created);

      await s.api('PATCH', `/api/database/tables/${created}/`, { name: 'Renamed' });
      expect((await s.undo({ application: databaseId })).body).toEqual(done('SUCCESS', ['update_table', scope]));
      expect((await s.plain('GET', `/api/database/tables/${created}/`)).body.name).toBe('Fresh');
      expect((await s.redo({ application: databaseId })).body).toEqual(done('SUCCESS', ['update_table', scope]));
      expect((await s.plain('GET', `/api/database/tables/${created}/`)).body.name).toBe('Renamed');

      const before = await tableIds();
      await s.api('POST', `/api/database/tables/database/${databaseId}/order/`, { table_ids: [...before].reverse() });
      expect((await s.undo({ application: databaseId })).body).toEqual(done('SUCCESS', ['order_tables', scope]));
      expect(await tableIds()).toEqual(before);

      await s.api('DELETE', `/api/database/tables/${created}/`);
      expect((await s.undo({ application: databaseId })).body).toEqual(done('SUCCESS', ['delete_table', scope]));
      expect(await tableIds()).toContain(created);
      expect((await s.redo({ application: databaseId })).body).toEqual(done('SUCCESS', ['delete_table', scope]));
      expect(await tableIds()).not.toContain(created);
    });
  });

  describe('applications', () => {
    test('create_application, update_application, order_applications, delete_application', async () => {
      const scope = `workspace${workspaceId}`;
      const created = (await s.api('POST', `/api/applications/workspace/${workspaceId}/`, { name: 'Second', type: 'database' })).body.id;
      expect((await s.undo({ workspace: workspaceId })).body).toEqual(done('SUCCESS', ['create_application', scope]));
      expect(await applicationIds()).not.toContain(created);
      expect((await s.redo({ workspace: workspaceId })).body).toEqual(done('SUCCESS', ['create_application', scope]));
      expect(await applicationIds()).toContain(created);

      await s.api('PATCH', `/api/applications/${created}/`, { name: 'Renamed' });
      expect((await s.undo({ workspace: workspaceId })).body).toEqual(done('SUCCESS', ['update_application', scope]));
      expect((await s.plain('GET', `/api/applications/${created}/`)).body.name).toBe('Second');

      const before = await applicationIds();
      await s.api('POST', `/api/applications/workspace/${workspaceId}/order/`, { application_ids: [...before].reverse() });
      expect((await s.undo({ workspace: workspaceId })).body).toEqual(done('SUCCESS', ['order_applications', scope]));
      expect(await applicationIds()).toEqual(before);

      await s.api('DELETE', `/api/applications/${created}/`);
      expect((await s.undo({ workspace: workspaceId })).body).toEqual(done('SUCCESS', ['delete_application', scope]));
      expect(await applicationIds()).toContain(created);
    });
  });

  describe('workspaces', () => {
    test('create_group: undo removes it, redo brings it back (Baserow\'s pinned reply)', async () => {
      const client = await socket();
      const created = (await s.api('POST', '/api/workspaces/', { name: 'Team' })).body.id;
      await client.waitFor('group_created');
      expect((await s.undo({ root: true })).body).toEqual({ actions: [{ action_scope: 'root', action_type: 'create_group' }], result_code: 'SUCCESS' });
      expect(await client.waitFor('group_deleted')).toMatchObject({ workspace_id: created });
      expect((await workspaces()).map((w) => w.id)).not.toContain(created);
      expect((await s.redo({ root: true })).body).toEqual({ actions: [{ action_scope: 'root', action_type: 'create_group' }], result_code: 'SUCCESS' });
      expect((await workspaces()).map((w) => w.id)).toContain(created);

      await s.api('PATCH', `/api/workspaces/${created}/`, { name: 'Renamed team' });
      expect((await s.undo({ root: true })).body).toEqual(done('SUCCESS', ['update_group', 'root']));
      expect((await workspaces()).find((w) => w.id === created)?.name).toBe('Team');

      const before = (await workspaces()).map((w) => w.id);
      await s.api('POST', '/api/workspaces/order/', { workspaces: [...before].reverse() });
      expect((await s.undo({ root: true })).body).toEqual(done('SUCCESS', ['order_groups', 'root']));
      expect((await workspaces()).map((w) => w.id)).toEqual(before);

      await s.api('DELETE', `/api/workspaces/${created}/`);
      expect((await s.undo({ root: true })).body).toEqual(done('SUCCESS', ['delete_group', 'root']));
      expect((await workspaces()).map((w) => w.id)).toContain(created);
    });

    test('two creates in one action group are undone and redone together', async () => {
      const group = { ClientUndoRedoActionGroupId: '7c8e7f6d-1c2b-4a3d-9e8f-7a6b5c4d3e2f' };
      const a = (await s.api('POST', '/api/workspaces/', { name: 'A' }, group)).body.id;
      const b = (await s.api('POST', '/api/workspaces/', { name: 'B' }, group)).body.id;
      expect((await s.undo({ root: true })).body).toEqual(done('SUCCESS', ['create_group', 'root'], ['create_group', 'root']));
      expect((await workspaces()).map((w) => w.id)).not.toEqual(expect.arrayContaining([a]));
      expect((await s.redo({ root: true })).body.actions).toHaveLength(2);
      expect((await workspaces()).map((w) => w.id)).toEqual(expect.arrayContaining([a, b]));
    });

    test('a workspace deleted behind the action\'s back: SKIPPED_DUE_TO_ERROR', async () => {
      const created = (await s.api('POST', '/api/workspaces/', { name: 'Doomed' })).body.id;
      expect((await s.plain('DELETE', `/api/workspaces/${created}/`)).status).toBe(204);
      expect((await s.undo({ root: true })).body).toEqual(done('SKIPPED_DUE_TO_ERROR', ['create_group', 'root']));
    });
  });
});
