import { SignedUp, signUp, startApp, TEST_DB, TestApp } from './support/app';
import { done, onTablePage, undoClient } from './support/undo';
import { WsClient } from './support/ws';

/**
 * Undo and redo of what a view keeps besides filters and sorts (research §2.5, scope `view<id>`):
 * filter groups, decorations, field options and the shared link's slug, with the messages a
 * socket on the table's page receives (the undoing client's too).
 */
describe(`undo and redo: filter groups, decorations, field options, slugs (${TEST_DB})`, () => {
  let t: TestApp;
  let owner: SignedUp;
  let databaseId: number;
  let s: ReturnType<typeof undoClient>;
  const open: WsClient[] = [];

  /** A table, its first (grid) view and its primary field. */
  async function newTable(name: string): Promise<{ tableId: number; viewId: number; primary: number }> {
    const tableId = (await s.plain('POST', `/api/database/tables/database/${databaseId}/`, { name })).body.id as number;
    const [view] = (await s.plain('GET', `/api/database/views/table/${tableId}/`)).body as { id: number }[];
    const fields = (await s.plain('GET', `/api/database/fields/table/${tableId}/`)).body as { id: number; primary: boolean }[];
    return { tableId, viewId: view.id, primary: fields.find((f) => f.primary)!.id };
  }

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'Owner');
    s = undoClient(t, () => owner);
    databaseId = (await s.plain('GET', '/api/applications/')).body[0].id;
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(async () => t?.close());

  describe('filter groups', () => {
    const groupsOf = async (viewId: number) => (await s.plain('GET', `/api/database/views/${viewId}/?include=filters`)).body as { filter_groups: any[]; filters: any[] };

    test('create_view_filter_group and update_view_filter_group: undone and redone under the same id', async () => {
      const { tableId, viewId } = await newTable('Groups');
      const client = await onTablePage(t, owner, tableId, open);
      const scope = `view${viewId}`;
      const group = (await s.api('POST', `/api/database/views/${viewId}/filter-groups/`, { filter_type: 'OR' })).body;
      await client.waitFor('view_filter_group_created');
      expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['create_view_filter_group', scope]));
      expect(await client.waitFor('view_filter_group_deleted')).toEqual({ type: 'view_filter_group_deleted', view_id: viewId, view_filter_group_id: group.id });
      expect((await groupsOf(viewId)).filter_groups).toEqual([]);
      expect((await s.redo({ view: viewId })).body).toEqual(done('SUCCESS', ['create_view_filter_group', scope]));
      expect(await client.waitFor('view_filter_group_created')).toEqual({ type: 'view_filter_group_created', view_filter_group: { id: group.id, filter_type: 'OR', view: viewId, parent_group: null } });

      await s.api('PATCH', `/api/database/views/filter-group/${group.id}/`, { filter_type: 'AND' });
      await client.waitFor('view_filter_group_updated');
      expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['update_view_filter_group', scope]));
      expect(await client.waitFor('view_filter_group_updated')).toMatchObject({ view_filter_group_id: group.id, view_filter_group: { filter_type: 'OR' } });
      expect((await s.redo({ view: viewId })).body).toEqual(done('SUCCESS', ['update_view_filter_group', scope]));
      expect((await s.plain('GET', `/api/database/views/filter-group/${group.id}/`)).body.filter_type).toBe('AND');
    });

    test('delete_view_filter_group: undo brings back the group, its nested groups and filters with their ids; redo deletes them again', async () => {
      const { tableId, viewId, primary } = await newTable('Nested groups');
      const scope = `view${viewId}`;
      const outer = (await s.plain('POST', `/api/database/views/${viewId}/filter-groups/`, { filter_type: 'OR' })).body;
      const inner = (await s.plain('POST', `/api/database/views/${viewId}/filter-groups/`, { filter_type: 'AND', parent_group: outer.id })).body;
      const a = (await s.plain('POST', `/api/database/views/${viewId}/filters/`, { field: primary, type: 'contains', value: 'a', group: outer.id })).body;
      const b = (await s.plain('POST', `/api/database/views/${viewId}/filters/`, { field: primary, type: 'equal', value: 'b', group: inner.id })).body;
      const loose = (await s.plain('POST', `/api/database/views/${viewId}/filters/`, { field: primary, type: 'empty', value: '' })).body;
      const before = await groupsOf(viewId);
      const client = await onTablePage(t, owner, tableId, open);

      expect((await s.api('DELETE', `/api/database/views/filter-group/${outer.id}/`)).status).toBe(204);
      await client.waitFor('view_filter_group_deleted');
      expect(await groupsOf(viewId)).toMatchObject({ filter_groups: [], filters: [{ id: loose.id }] });

      expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['delete_view_filter_group', scope]));
      expect(await client.waitFor('view_filter_group_created')).toMatchObject({ view_filter_group: { id: outer.id, filter_type: 'OR', parent_group: null } });
      expect(await client.waitFor('view_filter_group_created')).toMatchObject({ view_filter_group: { id: inner.id, parent_group: outer.id } });
      expect(await client.waitFor((m) => m.type === 'view_filter_created' && m.view_filter.id === a.id)).toMatchObject({ view_filter: { group: outer.id, value: 'a' } });
      expect(await client.waitFor((m) => m.type === 'view_filter_created' && m.view_filter.id === b.id)).toMatchObject({ view_filter: { group: inner.id, value: 'b' } });
      const after = await groupsOf(viewId);
      expect(after.filter_groups).toEqual(before.filter_groups);
      expect([...after.filters].sort((x, y) => x.id - y.id)).toEqual([...before.filters].sort((x, y) => x.id - y.id));

      expect((await s.redo({ view: viewId })).body).toEqual(done('SUCCESS', ['delete_view_filter_group', scope]));
      expect(await client.waitFor('view_filter_group_deleted')).toMatchObject({ view_filter_group_id: outer.id });
      expect(await groupsOf(viewId)).toMatchObject({ filter_groups: [], filters: [{ id: loose.id }] });
      expect((await s.plain('GET', `/api/database/views/filter/${a.id}/`)).status).toBe(404);
      // New filters after the restore get fresh ids (the sequence is not disturbed).
      const fresh = (await s.plain('POST', `/api/database/views/${viewId}/filters/`, { field: primary, type: 'contains', value: 'c' })).body;
      expect(fresh.id).toBeGreaterThan(loose.id);
    });

    test('a group deleted behind the action\'s back: the undo of its update is SKIPPED_DUE_TO_ERROR', async () => {
      const { viewId } = await newTable('Gone group');
      const group = (await s.plain('POST', `/api/database/views/${viewId}/filter-groups/`, {})).body;
      await s.api('PATCH', `/api/database/views/filter-group/${group.id}/`, { filter_type: 'OR' });
      await s.plain('DELETE', `/api/database/views/filter-group/${group.id}/`);
      expect((await s.undo({ view: viewId })).body).toEqual(done('SKIPPED_DUE_TO_ERROR', ['update_view_filter_group', `view${viewId}`]));
    });
  });

  test('create_decoration, update_decoration and delete_decoration: undone and redone under the same id', async () => {
    const { tableId, viewId, primary } = await newTable('Decorations');
    const client = await onTablePage(t, owner, tableId, open);
    const scope = `view${viewId}`;
    const decorationsOf = async () => (await s.plain('GET', `/api/database/views/${viewId}/decorations/`)).body as any[];
    const conf = { colors: [{ id: 'c1', color: 'red', filters: [{ id: 'f1', field: primary, type: 'contains', value: 'x' }] }] };
    const created = (await s.api('POST', `/api/database/views/${viewId}/decorations/`, { type: 'background_color', value_provider_type: 'conditional_color', value_provider_conf: conf })).body;
    await client.waitFor('view_decoration_created');
    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['create_decoration', scope]));
    expect(await client.waitFor('view_decoration_deleted')).toEqual({ type: 'view_decoration_deleted', view_id: viewId, view_decoration_id: created.id });
    expect(await decorationsOf()).toEqual([]);
    expect((await s.redo({ view: viewId })).body).toEqual(done('SUCCESS', ['create_decoration', scope]));
    expect(await client.waitFor('view_decoration_created')).toEqual({ type: 'view_decoration_created', view_decoration: created });
    expect(await decorationsOf()).toEqual([created]);

    await s.api('PATCH', `/api/database/views/decoration/${created.id}/`, { type: 'left_border_color', value_provider_type: '', value_provider_conf: {}, order: 5 });
    await client.waitFor('view_decoration_updated');
    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['update_decoration', scope]));
    expect(await client.waitFor('view_decoration_updated')).toEqual({ type: 'view_decoration_updated', view_decoration_id: created.id, view_decoration: created });
    expect((await s.redo({ view: viewId })).body).toEqual(done('SUCCESS', ['update_decoration', scope]));
    expect(await decorationsOf()).toEqual([{ ...created, type: 'left_border_color', value_provider_type: '', value_provider_conf: {}, order: 5 }]);
    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['update_decoration', scope]));
    await client.drain();

    expect((await s.api('DELETE', `/api/database/views/decoration/${created.id}/`)).status).toBe(204);
    await client.waitFor('view_decoration_deleted');
    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['delete_decoration', scope]));
    expect(await client.waitFor('view_decoration_created')).toEqual({ type: 'view_decoration_created', view_decoration: created });
    expect(await decorationsOf()).toEqual([created]);
    expect((await s.redo({ view: viewId })).body).toEqual(done('SUCCESS', ['delete_decoration', scope]));
    expect(await client.waitFor('view_decoration_deleted')).toMatchObject({ view_decoration_id: created.id });
    expect(await decorationsOf()).toEqual([]);
  });

  test('update_view_field_options: undo puts back exactly the options the request changed', async () => {
    const { tableId, viewId, primary } = await newTable('Field options');
    const other = (await s.plain('POST', `/api/database/fields/table/${tableId}/`, { name: 'Other', type: 'text' })).body.id as number;
    const optionsOf = async () => (await s.plain('GET', `/api/database/views/${viewId}/field-options/`)).body.field_options;
    const before = await optionsOf();
    const client = await onTablePage(t, owner, tableId, open);
    const scope = `view${viewId}`;
    // `width` of the other field is set to what it was: not a change, so its undo leaves it alone.
    await s.api('PATCH', `/api/database/views/${viewId}/field-options/`, { field_options: { [primary]: { width: 321 }, [other]: { hidden: true, width: before[other].width } } });
    await client.waitFor('view_field_options_updated');
    // Changed outside the session afterwards: kept by the undo.
    await s.plain('PATCH', `/api/database/views/${viewId}/field-options/`, { field_options: { [other]: { width: 150 }, [primary]: { order: 3 } } });
    await client.waitFor('view_field_options_updated');

    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['update_view_field_options', scope]));
    const undone = await client.waitFor('view_field_options_updated');
    expect(undone.view_id).toBe(viewId);
    expect(undone.field_options[primary]).toEqual({ ...before[primary], order: 3 });
    expect(undone.field_options[other]).toEqual({ ...before[other], width: 150 });
    expect(await optionsOf()).toEqual(undone.field_options);

    expect((await s.redo({ view: viewId })).body).toEqual(done('SUCCESS', ['update_view_field_options', scope]));
    const redone = await client.waitFor('view_field_options_updated');
    expect(redone.field_options[primary]).toEqual({ ...before[primary], order: 3, width: 321 });
    expect(redone.field_options[other]).toEqual({ ...before[other], width: 150, hidden: true });
  });

  test('rotate_view_slug: undo puts the old slug back (the shared link opens again), redo the new one', async () => {
    const { tableId, viewId } = await newTable('Slugs');
    const view = (await s.plain('PATCH', `/api/database/views/${viewId}/`, { public: true })).body;
    const client = await onTablePage(t, owner, tableId, open);
    const scope = `view${viewId}`;
    const rotated = (await s.api('POST', `/api/database/views/${viewId}/rotate-slug/`)).body;
    expect(rotated.slug).not.toBe(view.slug);
    await client.waitFor('view_updated');
    expect((await t.request('GET', `/api/database/views/${view.slug}/public/info/`)).status).toBe(404);

    expect((await s.undo({ view: viewId })).body).toEqual(done('SUCCESS', ['rotate_view_slug', scope]));
    expect(await client.waitFor('view_updated')).toMatchObject({ view_id: viewId, view: { id: viewId, slug: view.slug } });
    expect((await s.plain('GET', `/api/database/views/${viewId}/`)).body.slug).toBe(view.slug);
    expect((await t.request('GET', `/api/database/views/${view.slug}/public/info/`)).status).toBe(200);
    expect((await t.request('GET', `/api/database/views/${rotated.slug}/public/info/`)).status).toBe(404);

    expect((await s.redo({ view: viewId })).body).toEqual(done('SUCCESS', ['rotate_view_slug', scope]));
    expect(await client.waitFor('view_updated')).toMatchObject({ view: { slug: rotated.slug } });
    expect((await t.request('GET', `/api/database/views/${rotated.slug}/public/info/`)).status).toBe(200);
    expect((await t.request('GET', `/api/database/views/${view.slug}/public/info/`)).status).toBe(404);
  });
});
