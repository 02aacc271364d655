import { SignedUp, signUp, startApp, TestApp } from './support/app';

/** Grid view aggregations (§8.3, §8.1): every raw type per field type, the view's selection, errors. */
let t: TestApp;
let owner: SignedUp;
let tableId: number;
let viewId: number;
let otherField: number;
const f: Record<string, number> = {};
const option: Record<string, number> = {};

async function api(method: string, path: string, body?: unknown, token = owner.token): Promise<any> {
  const res = await t.request(method, path, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

async function addField(key: string, body: Record<string, unknown>, table = tableId): Promise<number> {
  const field = await api('POST', `/api/database/fields/table/${table}/`, body);
  for (const o of field.select_options ?? []) option[`${key}:${o.value}`] = o.id;
  f[key] = field.id;
  return field.id;
}

function agg(field: string, type: string, query = ''): Promise<{ status: number; body: any }> {
  return t.request('GET', `/api/database/views/grid/${viewId}/aggregation/${f[field]}/?type=${type}${query}`, { token: owner.token });
}

async function value(field: string, type: string, query = ''): Promise<unknown> {
  const res = await agg(field, type, query);
  if (res.status !== 200) throw new Error(`${field} ${type}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.value;
}

beforeAll(async () => {
  t = await startApp();
  owner = await signUp(t, 'Counter');
  const apps = await api('GET', '/api/applications/');
  const databaseId = apps.find((a: { type: string }) => a.type === 'database').id;
  tableId = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Numbers' })).id;
  const linked = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Linked' })).id;
  const fields = await api('GET', `/api/database/fields/table/${tableId}/`);
  [f.name, f.notes, f.active] = fields.map((x: { id: number }) => x.id);
  otherField = (await api('GET', `/api/database/fields/table/${linked}/`))[0].id;
  await addField('amount', { name: 'Amount', type: 'number', number_decimal_places: 2, number_negative: true });
  await addField('rating', { name: 'Rating', type: 'rating', max_value: 5 });
  await addField('status', { name: 'Status', type: 'single_select', select_options: [{ value: 'Red', color: 'red' }, { value: 'Blue', color: 'blue' }] });
  await addField('tags', { name: 'Tags', type: 'multiple_select', select_options: [{ value: 'Hot', color: 'red' }, { value: 'Cold', color: 'blue' }] });
  await addField('when', { name: 'When', type: 'date' });
  await addField('link', { name: 'Link', type: 'link_row', link_row_table_id: linked });
  await addField('people', { name: 'People', type: 'multiple_collaborators' });
  await addField('creator', { name: 'Creator', type: 'created_by' });
  await addField('spent', { name: 'Spent', type: 'duration', duration_format: 'h:mm' });
  const existing = (await api('GET', `/api/database/rows/table/${tableId}/`)).results.map((r: { id: number }) => r.id);
  await api('POST', `/api/database/rows/table/${tableId}/batch-delete/`, { items: existing });
  const linkedRows = (await api('GET', `/api/database/rows/table/${linked}/`)).results.map((r: { id: number }) => r.id);
  const row = (name: string, amount: string | null, rating: number, status: string | null, tags: string[], active: boolean, when: string | null, link: number[]) => ({
    [`field_${f.name}`]: name,
    [`field_${f.amount}`]: amount,
    [`field_${f.rating}`]: rating,
    [`field_${f.status}`]: status ? option[`status:${status}`] : null,
    [`field_${f.tags}`]: tags.map((tag) => option[`tags:${tag}`]),
    [`field_${f.active}`]: active,
    [`field_${f.when}`]: when,
    [`field_${f.link}`]: link,
    [`field_${f.spent}`]: name === 'a' ? 3600 : name === 'b' ? 1800 : null,
  });
  await api('POST', `/api/database/rows/table/${tableId}/batch/`, {
    items: [
      row('a', '1.50', 3, 'Red', ['Hot'], true, '2024-01-02', [linkedRows[0]]),
      row('b', '2.25', 1, 'Blue', [], false, '2024-03-04', linkedRows.slice(0, 2)),
      row('a', null, 0, 'Red', ['Hot', 'Cold'], true, null, []),
      row('', '10.00', 5, null, [], false, '2023-12-31', []),
    ],
  });
  viewId = (await api('GET', `/api/database/views/table/${tableId}/`))[0].id;
});

afterAll(async () => {
  await t.close();
});

/** Population statistics of the amounts 1.5, 2.25 and 10 (Django's StdDev and Variance). */
const amounts = [1.5, 2.25, 10];
const mean = amounts.reduce((a, b) => a + b) / amounts.length;
const variance = amounts.reduce((a, b) => a + (b - mean) ** 2, 0) / amounts.length;

describe('one field’s aggregation', () => {
  it('computes every raw type on numbers', async () => {
    expect(await value('amount', 'empty_count')).toBe(1);
    expect(await value('amount', 'not_empty_count')).toBe(3);
    expect(await value('amount', 'unique_count')).toBe(3);
    expect(await value('amount', 'min')).toBe(1.5);
    expect(await value('amount', 'max')).toBe(10);
    expect(await value('amount', 'sum')).toBe(13.75);
    expect(await value('amount', 'average')).toBeCloseTo(mean, 12);
    expect(await value('amount', 'median')).toBe(2.25);
    expect(await value('amount', 'variance')).toBeCloseTo(variance, 12);
    expect(await value('amount', 'std_dev')).toBeCloseTo(Math.sqrt(variance), 12);
    expect(await value('amount', 'distribution')).toEqual([[1.5, 1], [2.25, 1], [10, 1], [null, 1]]);
    // An even count takes the mean of the two middle values (percentile_cont); rating 0 is a value, not empty.
    expect(await value('rating', 'median')).toBe(2);
    // Deciles of the ratings 0, 1, 3, 5: percentile_cont at 0.1 … 0.9 (positions 0.3, 0.6, …, 2.7).
    const ratings = [0, 1, 3, 5];
    const deciles = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => {
      const position = (d / 10) * (ratings.length - 1);
      const low = Math.floor(position);
      return ratings[low] + (position - low) * ((ratings[Math.ceil(position)] ?? ratings[low]) - ratings[low]);
    });
    const answered = (await value('rating', 'decile')) as number[];
    expect(answered).toHaveLength(9);
    answered.forEach((decile, i) => expect(decile).toBeCloseTo(deciles[i], 12));
    expect(await value('rating', 'empty_count')).toBe(0);
    expect(await value('rating', 'sum')).toBe(9);
  });

  it('counts text, selects, relations, booleans and dates as Baserow does', async () => {
    expect(await value('name', 'empty_count')).toBe(1);
    expect(await value('name', 'unique_count')).toBe(3);
    expect(await value('name', 'distribution')).toEqual([['a', 2], ['', 1], ['b', 1]]);
    expect(await value('status', 'empty_count')).toBe(1);
    expect(await value('status', 'unique_count')).toBe(2);
    expect(await value('status', 'distribution')).toEqual([['Red', 2], ['Blue', 1], [null, 1]]);
    expect(await value('tags', 'empty_count')).toBe(2);
    expect(await value('tags', 'not_empty_count')).toBe(2);
    expect(await value('link', 'empty_count')).toBe(2);
    expect(await value('link', 'not_empty_count')).toBe(2);
    expect(await value('active', 'empty_count')).toBe(2);
    expect(await value('active', 'distribution')).toEqual([[false, 2], [true, 2]]);
    expect(await value('when', 'min')).toBe('2023-12-31');
    expect(await value('when', 'max')).toBe('2024-03-04');
    expect(await value('when', 'empty_count')).toBe(1);
    expect(await value('when', 'unique_count')).toBe(3);
    // Collaborators count by user and group by first name; durations are seconds.
    expect(await value('creator', 'unique_count')).toBe(1);
    expect(await value('creator', 'empty_count')).toBe(0);
    expect(await value('creator', 'distribution')).toEqual([['Counter', 4]]);
    expect(await value('spent', 'sum')).toBe(9000);
    expect(await value('spent', 'max')).toBe(3600);
    expect(await value('spent', 'empty_count')).toBe(1);
  });

  it('counts the rows of the selection with count, whatever the cells hold; range is not a type Baserow registers', async () => {
    // Baserow's CountViewAggregationType: Count("id") on the fields empty_count applies to.
    expect(await value('amount', 'count')).toBe(4);
    expect(await value('name', 'count')).toBe(4);
    expect(await value('link', 'count')).toBe(4);
    expect(await value('tags', 'count')).toBe(4);
    expect(await value('creator', 'count')).toBe(4);
    expect((await agg('when', 'count', `&include=total&filter__field_${f.name}__equal=a`)).body).toEqual({ value: 2, total: 2 });
    expect((await agg('amount', 'count', '&search=b')).body).toEqual({ value: 1 });
    const people = await agg('people', 'count');
    expect([people.status, people.body]).toEqual([400, { error: 'ERROR_AGGREGATION_DOES_NOT_SUPPORTED_FIELD', detail: 'The aggregation type does not support the given field.' }]);
    // RangeViewAggregationType is defined in Baserow 1.35.3 but never registered (apps.py).
    for (const field of ['amount', 'when']) {
      const range = await agg(field, 'range');
      expect([range.status, range.body]).toEqual([400, { error: 'ERROR_AGGREGATION_TYPE_DOES_NOT_EXIST', detail: 'The specified aggregation type does not exist.' }]);
    }
  });

  it('honours search and ad-hoc filters, and adds the total', async () => {
    const res = await agg('amount', 'sum', `&include=total&filter__field_${f.name}__equal=a`);
    expect(res.body).toEqual({ value: 1.5, total: 2 });
    expect((await agg('amount', 'sum', '&include=total&search=b')).body).toEqual({ value: 2.25, total: 1 });
    const tree = encodeURIComponent(JSON.stringify({ filter_type: 'OR', filters: [{ field: f.rating, type: 'higher_than', value: '2' }], groups: [] }));
    expect((await agg('amount', 'max', `&include=total&filters=${tree}`)).body).toEqual({ value: 10, total: 2 });
    expect((await agg('amount', 'median', `&filter__field_${f.name}__equal=nobody`)).body).toEqual({ value: null });
    expect((await agg('amount', 'std_dev', `&filter__field_${f.name}__equal=nobody`)).body).toEqual({ value: null });
    expect((await agg('name', 'empty_count', `&filter__field_${f.name}__equal=nobody`)).body).toEqual({ value: 0 });
  });

  it('answers Baserow’s errors', async () => {
    const cases: [string, string, number, unknown][] = [
      ['amount', 'sparkle', 400, { error: 'ERROR_AGGREGATION_TYPE_DOES_NOT_EXIST', detail: 'The specified aggregation type does not exist.' }],
      ['amount', '', 400, { error: 'ERROR_AGGREGATION_TYPE_DOES_NOT_EXIST', detail: 'The specified aggregation type does not exist.' }],
      ['tags', 'unique_count', 400, { error: 'ERROR_AGGREGATION_DOES_NOT_SUPPORTED_FIELD', detail: 'The aggregation type does not support the given field.' }],
      ['name', 'sum', 400, { error: 'ERROR_AGGREGATION_DOES_NOT_SUPPORTED_FIELD', detail: 'The aggregation type does not support the given field.' }],
      ['people', 'empty_count', 400, { error: 'ERROR_AGGREGATION_DOES_NOT_SUPPORTED_FIELD', detail: 'The aggregation type does not support the given field.' }],
    ];
    for (const [field, type, status, body] of cases) {
      const res = await agg(field, type);
      expect({ field, type, status: res.status, body: res.body }).toEqual({ field, type, status, body });
    }
    const foreign = await t.request('GET', `/api/database/views/grid/${viewId}/aggregation/${otherField}/?type=empty_count`, { token: owner.token });
    expect(foreign.body).toEqual({ error: 'ERROR_FIELD_NOT_IN_TABLE', detail: 'The provided field does not belong in the related table.' });
    const missing = await t.request('GET', `/api/database/views/grid/${viewId}/aggregation/999999/?type=empty_count`, { token: owner.token });
    expect([missing.status, missing.body.error]).toEqual([404, 'ERROR_FIELD_DOES_NOT_EXIST']);
    const noView = await t.request('GET', `/api/database/views/grid/999999/aggregations/`, { token: owner.token });
    expect([noView.status, noView.body.error]).toEqual([404, 'ERROR_GRID_DOES_NOT_EXIST']);
    const outsider = await signUp(t, 'Outsider');
    for (const path of [`/api/database/views/grid/${viewId}/aggregations/`, `/api/database/views/grid/${viewId}/aggregation/${f.amount}/?type=sum`]) {
      const res = await t.request('GET', path, { token: outsider.token });
      expect(res.body).toEqual({ error: 'ERROR_USER_NOT_IN_GROUP', detail: '' });
    }
    const badFilter = await agg('amount', 'sum', '&filter__field_999999__equal=1');
    expect(badFilter.status).toBe(400);
  });
});

describe('the aggregations of a grid view', () => {
  it('answers each field whose options set aggregation_raw_type, and the total', async () => {
    const none = await api('GET', `/api/database/views/grid/${viewId}/aggregations/`);
    expect(none).toEqual({});
    const options = {
      [f.amount]: { aggregation_raw_type: 'sum', aggregation_type: 'sum' },
      [f.status]: { aggregation_raw_type: 'distribution', aggregation_type: 'distribution' },
      [f.tags]: { aggregation_raw_type: 'empty_count', aggregation_type: 'empty_percentage' },
      [f.name]: { aggregation_raw_type: 'unique_count', aggregation_type: 'unique_count' },
    };
    await api('PATCH', `/api/database/views/${viewId}/field-options/`, { field_options: options });
    expect(await api('GET', `/api/database/views/grid/${viewId}/aggregations/?include=total`)).toEqual({
      [`field_${f.name}`]: 3,
      [`field_${f.amount}`]: 13.75,
      [`field_${f.status}`]: [['Red', 2], ['Blue', 1], [null, 1]],
      [`field_${f.tags}`]: 2,
      total: 4,
    });
    expect(await api('GET', `/api/database/views/grid/${viewId}/aggregations/?filter__field_${f.active}__boolean=1`)).toEqual({
      [`field_${f.name}`]: 1,
      [`field_${f.amount}`]: 1.5,
      [`field_${f.status}`]: [['Red', 2]],
      [`field_${f.tags}`]: 0,
    });
  });

  it('refuses raw types that do not exist or do not apply to the field, writing nothing', async () => {
    const before = await api('GET', `/api/database/views/${viewId}/field-options/`);
    const unknown = await t.request('PATCH', `/api/database/views/${viewId}/field-options/`, { token: owner.token, body: { field_options: { [f.rating]: { aggregation_raw_type: 'foo' } } } });
    expect(unknown.body).toEqual({ error: 'ERROR_REQUEST_BODY_VALIDATION', detail: { field_options: [{ error: 'Must be valid field options.', code: 'invalid_value' }] } });
    // `count` is only for the single-field endpoint (Baserow's allowed_in_view = False); `range` is not registered.
    for (const raw of ['count', 'range']) {
      const refused = await t.request('PATCH', `/api/database/views/${viewId}/field-options/`, { token: owner.token, body: { field_options: { [f.amount]: { aggregation_raw_type: raw } } } });
      expect([raw, refused.status, refused.body]).toEqual([raw, 400, unknown.body]);
    }
    const unsupported = await t.request('PATCH', `/api/database/views/${viewId}/field-options/`, {
      token: owner.token,
      body: { field_options: { [f.rating]: { aggregation_raw_type: 'sum' }, [f.active]: { aggregation_raw_type: 'sum' } } },
    });
    expect(unsupported.body).toEqual({ error: 'ERROR_AGGREGATION_DOES_NOT_SUPPORTED_FIELD', detail: 'The aggregation type does not support the given field.' });
    expect(await api('GET', `/api/database/views/${viewId}/field-options/`)).toEqual(before);
  });

  it('clears an aggregation that no longer applies when its field changes type', async () => {
    const field = await api('POST', `/api/database/fields/table/${tableId}/`, { name: 'Score', type: 'number' });
    await api('PATCH', `/api/database/views/${viewId}/field-options/`, { field_options: { [field.id]: { aggregation_raw_type: 'sum', aggregation_type: 'sum' } } });
    await api('PATCH', `/api/database/fields/${field.id}/`, { type: 'rating' });
    expect((await api('GET', `/api/database/views/${viewId}/field-options/`)).field_options[field.id]).toMatchObject({ aggregation_raw_type: 'sum' });
    await api('PATCH', `/api/database/fields/${field.id}/`, { type: 'text' });
    let options: any;
    for (let i = 0; i < 50; i++) {
      options = (await api('GET', `/api/database/views/${viewId}/field-options/`)).field_options[field.id];
      if (options.aggregation_raw_type === '') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(options).toMatchObject({ aggregation_raw_type: '', aggregation_type: '' });
    expect(await api('GET', `/api/database/views/grid/${viewId}/aggregations/`)).not.toHaveProperty(`field_${field.id}`);
  });

  it('leaves hidden fields out, and searches only the visible ones', async () => {
    const footers = { [f.amount]: { aggregation_raw_type: 'sum' }, [f.notes]: { aggregation_raw_type: 'not_empty_count' }, [f.name]: { aggregation_raw_type: 'unique_count' } };
    await api('PATCH', `/api/database/views/${viewId}/field-options/`, { field_options: footers });
    const [first] = (await api('GET', `/api/database/views/grid/${viewId}/`)).results;
    await api('PATCH', `/api/database/rows/table/${tableId}/${first.id}/`, { [`field_${f.notes}`]: 'zebra' });
    const shown = await api('GET', `/api/database/views/grid/${viewId}/aggregations/?include=total&search=zebra`);
    expect(shown).toMatchObject({ [`field_${f.notes}`]: 1, [`field_${f.amount}`]: expect.any(Number), total: 1 });
    await api('PATCH', `/api/database/views/${viewId}/field-options/`, { field_options: { [f.notes]: { hidden: true }, [f.amount]: { hidden: true } } });
    const all = await api('GET', `/api/database/views/grid/${viewId}/aggregations/?include=total`);
    expect(all).not.toHaveProperty(`field_${f.notes}`);
    expect(all).not.toHaveProperty(`field_${f.amount}`);
    expect(all).toMatchObject({ [`field_${f.name}`]: 3, total: 4 });
    // The hidden Notes field is not searched: nothing the view shows holds "zebra".
    const searched = await api('GET', `/api/database/views/grid/${viewId}/aggregations/?include=total&search=zebra`);
    expect(searched).toMatchObject({ [`field_${f.name}`]: 0, total: 0 });
    expect(searched).not.toHaveProperty(`field_${f.notes}`);
    // The single-field endpoint still answers any field of the table.
    expect(await value('amount', 'sum')).toBe(13.75);
    await api('PATCH', `/api/database/views/${viewId}/field-options/`, { field_options: { [f.notes]: { hidden: false }, [f.amount]: { hidden: false } } });
    await api('PATCH', `/api/database/rows/table/${tableId}/${first.id}/`, { [`field_${f.notes}`]: null });
  });
});

describe('a number formula holding NaN', () => {
  it('aggregates as PostgreSQL aggregates numeric NaN, on either database', async () => {
    const apps = await api('GET', '/api/applications/');
    const databaseId = apps.find((a: { type: string }) => a.type === 'database').id;
    const table = (await api('POST', `/api/database/tables/database/${databaseId}/`, { name: 'Ratios' })).id;
    const num = (await api('POST', `/api/database/fields/table/${table}/`, { name: 'Num', type: 'number', number_decimal_places: 1 })).id;
    const existing = (await api('GET', `/api/database/rows/table/${table}/`)).results.map((r: { id: number }) => r.id);
    await api('POST', `/api/database/rows/table/${table}/batch-delete/`, { items: existing });
    await api('POST', `/api/database/rows/table/${table}/batch/`, { items: ['0', '2', '10', '5'].map((n) => ({ [`field_${num}`]: n })) });
    // 10 / 0 is NaN (as Baserow on PostgreSQL): the ratios are NaN, 5, 1 and 2.
    const ratio = (await api('POST', `/api/database/fields/table/${table}/`, { name: 'Ratio', type: 'formula', formula: "10 / field('Num')" })).id;
    const view = (await api('GET', `/api/database/views/table/${table}/`))[0].id;
    const of = async (type: string, query = '') => (await api('GET', `/api/database/views/grid/${view}/aggregation/${ratio}/?type=${type}${query}`)).value;
    // numeric's NaN is a value (not empty), equal to itself and above every number: it makes sums, means and deviations NaN.
    const answers: Record<string, unknown> = {};
    for (const type of ['sum', 'average', 'std_dev', 'variance', 'min', 'max', 'median', 'unique_count', 'empty_count', 'not_empty_count']) answers[type] = await of(type);
    expect(answers).toEqual({
      sum: 'NaN', average: 'NaN', std_dev: 'NaN', variance: 'NaN', min: 1, max: 'NaN', median: 3.5, unique_count: 4, empty_count: 0, not_empty_count: 4,
    });
    // Deciles interpolate between the numbers 1, 2, 5 and, above them, NaN.
    expect(await of('decile')).toEqual([1.3, 1.6, 1.9, 2.6, 3.5, 4.4, 'NaN', 'NaN', 'NaN']);
    expect(await of('distribution')).toEqual([[1, 1], [2, 1], [5, 1], ['NaN', 1]]);
    // Without the NaN row, the numbers alone.
    const numbers = `&filter__field_${num}__higher_than=0`;
    expect([await of('sum', numbers), await of('average', numbers), await of('max', numbers)]).toEqual([8, 2.66666666666667, 5]);
    // A grid footer answers the same.
    await api('PATCH', `/api/database/views/${view}/field-options/`, { field_options: { [ratio]: { aggregation_type: 'sum', aggregation_raw_type: 'sum' } } });
    expect(await api('GET', `/api/database/views/grid/${view}/aggregations/`)).toEqual({ [`field_${ratio}`]: 'NaN' });
  });
});
