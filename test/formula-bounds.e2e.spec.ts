import { signUp, SignedUp, startApp, TestApp } from './support/app';
import { databaseOf, emptyTable } from './support/fixtures';

// Formulas given on purpose to stall the server or grow cells without bound (issue 21): a
// regular expression that backtracks exponentially in JavaScript, formulas that multiply text.
// Each answers at once with its value or the formula error value #ERROR!, never a 500.

let t: TestApp;
let ada: SignedUp;
let database: number;

beforeAll(async () => {
  // FORMULA_MAX_TEXT_LENGTH at its default, said here so the figures below read plainly.
  t = await startApp({ FORMULA_MAX_TEXT_LENGTH: '100000' });
  ada = await signUp(t, 'Ada');
  database = await databaseOf(t, ada);
});
afterAll(async () => t?.close());

const req = (method: string, path: string, body?: unknown) => t.request(method, path, { token: ada.token, body });
const createField = (table: number, body: Record<string, unknown>) => req('POST', `/api/database/fields/table/${table}/`, body);
const rowsOf = async (table: number) => {
  const res = await req('GET', `/api/database/rows/table/${table}/?user_field_names=true`);
  expect(res.status).toBe(200);
  return res.body.results as Record<string, unknown>[];
};

describe('a hostile regular expression', () => {
  test('regex_replace with (a+)+$ on 28 a and a b answers at once, on create, write and read', async () => {
    const table = await emptyTable(t, ada, database, 'Regex');
    const hostile = `${'a'.repeat(28)}b`;
    const row = (await req('POST', `/api/database/rows/table/${table}/?user_field_names=true`, { Name: hostile })).body;
    await req('POST', `/api/database/rows/table/${table}/?user_field_names=true`, { Name: 'baaa' });
    const field = await createField(table, { name: 'Replaced', type: 'formula', formula: "regex_replace(field('Name'), '(a+)+$', 'x')" });
    expect(field.status).toBe(200);
    expect(field.body.formula_type).toBe('text');
    expect((await rowsOf(table)).map((r) => r.Replaced)).toEqual([hostile, 'bx']);
    const updated = await req('PATCH', `/api/database/rows/table/${table}/${row.id}/?user_field_names=true`, { Name: `${'a'.repeat(40)}c` });
    expect(updated.status).toBe(200);
    expect(updated.body.Replaced).toBe(`${'a'.repeat(40)}c`);
  });

  test('a pattern read from a cell runs by the same engine', async () => {
    const table = await emptyTable(t, ada, database, 'Patterns');
    await createField(table, { name: 'Pattern', type: 'text' });
    await req('POST', `/api/database/rows/table/${table}/?user_field_names=true`, { Name: `${'a'.repeat(30)}b`, Pattern: '(a+)+$' });
    await req('POST', `/api/database/rows/table/${table}/?user_field_names=true`, { Name: 'caaa', Pattern: '(a|aa)+$' });
    const field = await createField(table, { name: 'Replaced', type: 'formula', formula: "regex_replace(field('Name'), field('Pattern'), '<\\&>')" });
    expect(field.status).toBe(200);
    expect((await rowsOf(table)).map((r) => r.Replaced)).toEqual([`${'a'.repeat(30)}b`, 'c<aaa>']);
    // A pattern the database refuses, or that has no linear-time evaluation (back-references,
    // lookahead), is #ERROR! for its cell, as Baserow's try_regexp_replace answers: not a 500.
    for (const pattern of ['(', 'b[', '(a)\\1', 'a(?=b)']) {
      const res = await req('POST', `/api/database/rows/table/${table}/?user_field_names=true`, { Name: 'abab', Pattern: pattern });
      expect(res.status).toBe(200);
      expect(res.body.Replaced).toBe('#ERROR!');
    }
  });
});

describe('formulas that multiply text', () => {
  test('chained concat x10 from a 1 KB cell: normal values up to the limit, #ERROR! past it, the table stays small', async () => {
    const table = await emptyTable(t, ada, database, 'Chain');
    const row = (await req('POST', `/api/database/rows/table/${table}/?user_field_names=true`, { Name: 'x'.repeat(1000) })).body;
    let previous = 'Name';
    for (const name of ['F1', 'F2', 'F3', 'F4', 'F5', 'F6']) {
      const formula = `concat(${Array(10).fill(`field('${previous}')`).join(', ')})`;
      const res = await createField(table, { name, type: 'formula', formula });
      expect(res.status).toBe(200);
      expect(res.body.formula_type).toBe('text');
      previous = name;
    }
    const [cells] = await rowsOf(table);
    expect((cells.F1 as string).length).toBe(10_000);
    expect((cells.F2 as string).length).toBe(100_000);
    expect(cells.F3).toBe('#ERROR!');
    // The error value is a text: concatenated again it is ten of them.
    expect(cells.F4).toBe('#ERROR!'.repeat(10));
    expect((cells.F6 as string).length).toBe(7_000);
    const listing = await req('GET', `/api/database/rows/table/${table}/`);
    expect(JSON.stringify(listing.body).length).toBeLessThan(200_000);

    // A longer cell puts F2 past the limit; a shorter one brings every formula back.
    let res = await req('PATCH', `/api/database/rows/table/${table}/${row.id}/?user_field_names=true`, { Name: 'x'.repeat(1001) });
    expect(res.status).toBe(200);
    expect([res.body.F1.length, res.body.F2, res.body.F3]).toEqual([10_010, '#ERROR!', '#ERROR!'.repeat(10)]);
    res = await req('PATCH', `/api/database/rows/table/${table}/${row.id}/?user_field_names=true`, { Name: 'ab' });
    expect(res.status).toBe(200);
    expect([res.body.F1, res.body.F2.length, res.body.F3.length, res.body.F4.length, res.body.F5, res.body.F6]).toEqual(['ab'.repeat(10), 200, 2000, 20_000, '#ERROR!', '#ERROR!'.repeat(10)]);
  });

  test('one formula nesting concat x10 three deep (1000 x 1 KB) answers #ERROR!, two deep its value', async () => {
    const table = await emptyTable(t, ada, database, 'Nested');
    await req('POST', `/api/database/rows/table/${table}/?user_field_names=true`, { Name: 'x'.repeat(1000) });
    let formula = "field('Name')";
    for (let depth = 1; depth <= 3; depth++) {
      formula = `concat(${Array(10).fill(formula).join(', ')})`;
      const res = await createField(table, { name: `Depth${depth}`, type: 'formula', formula });
      expect(res.status).toBe(200);
    }
    const [cells] = await rowsOf(table);
    expect([(cells.Depth1 as string).length, (cells.Depth2 as string).length, cells.Depth3]).toEqual([10_000, 100_000, '#ERROR!']);
  });

  test('replace, regex_replace, + and join past the limit are #ERROR!', async () => {
    const table = await emptyTable(t, ada, database, 'Grow');
    await req('POST', `/api/database/rows/table/${table}/?user_field_names=true`, { Name: 'a'.repeat(50_000) });
    const formulas: Record<string, string> = {
      Replace: "replace(field('Name'), 'a', 'bbb')",
      Shrink: "replace(field('Name'), 'aa', 'b')",
      Regex: "regex_replace(field('Name'), 'a', 'bbb')",
      EveryWhere: "regex_replace(field('Name'), '', 'xyz')",
      Plus: "field('Name') + field('Name') + field('Name')",
    };
    for (const [name, formula] of Object.entries(formulas)) expect((await createField(table, { name, type: 'formula', formula })).status).toBe(200);
    const [cells] = await rowsOf(table);
    expect([cells.Replace, (cells.Shrink as string).length, cells.Regex, cells.EveryWhere, cells.Plus]).toEqual(['#ERROR!', 25_000, '#ERROR!', '#ERROR!', '#ERROR!']);

    await req('POST', `/api/database/rows/table/${table}/?user_field_names=true`, { Name: 'a'.repeat(50_000) });

    const items = await emptyTable(t, ada, database, 'Items');
    const link = (await createField(items, { name: 'Grow', type: 'link_row', link_row_table_id: table })).body;
    const grown = (await rowsOf(table)).map((r) => r.id);
    await req('POST', `/api/database/rows/table/${items}/?user_field_names=true`, { Name: 'one', Grow: grown });
    // Two texts of 50,000 and a separator: past the limit; two of 25,000: within it.
    const joined = await createField(items, { name: 'Joined', type: 'formula', formula: `join(lookup('${link.name}', 'Name'), ',')` });
    expect(joined.status).toBe(200);
    expect((await rowsOf(items))[0].Joined).toBe('#ERROR!');
    const shrunk = await createField(items, { name: 'Shrunk', type: 'formula', formula: `join(lookup('${link.name}', 'Shrink'), ',')` });
    expect(shrunk.status).toBe(200);
    expect((await rowsOf(items))[0].Shrunk).toBe(`${'b'.repeat(25_000)},${'b'.repeat(25_000)}`);
  });
});
