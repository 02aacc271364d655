import { Sql } from '../src/core/database/sql';
import { dialectFor } from '../src/core/database/dialect';
import type { CompileScope, Expr } from '../src/database/formula/expr';
import { formulaDialect } from '../src/database/formula/formula-dialect';
import { formulaTypes } from '../src/database/formula/formula-type';
import { once } from '../src/database/formula/functions/args';
import { TEXT_FUNCTIONS } from '../src/database/formula/functions/text';
import { FormulaEval, type TableOneRow } from './support/formula-eval';

// The text and logic functions of the formula language (Baserow's values and error texts),
// evaluated on the test database (SQLite, or PostgreSQL with ROWSPACE_TEST_DB=postgres).
let ev: FormulaEval;

beforeAll(async () => {
  ev = await FormulaEval.open();
});

afterAll(async () => {
  await ev.close();
});

/** The value of a formula that must type. */
async function value(formula: string, row: TableOneRow = {}): Promise<unknown> {
  const result = await ev.eval(formula, row);
  if (result.type.name === 'invalid') throw new Error(`${formula}: ${result.type.error}`);
  return result.value;
}

const num = async (formula: string, row?: TableOneRow) => {
  const v = await value(formula, row);
  return v === null ? null : Number(v);
};
const bool = async (formula: string, row?: TableOneRow) => {
  const v = await value(formula, row);
  return v === null ? null : !!v;
};
/** A JSON value (PostgreSQL answers jsonb parsed, SQLite JSON text). */
const json = async (formula: string, row?: TableOneRow) => {
  const v = await value(formula, row);
  return typeof v === 'string' ? JSON.parse(v) : v;
};
const error = async (formula: string) => (await ev.eval(formula)).type.error;
const typeOf = async (formula: string) => (await ev.eval(formula)).type;

/** Runs raw SQL on the harness's database (for values no field of the test table holds). */
const run = (sql: string, params: unknown[] = []) => (ev as unknown as { run(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> }).run(sql, params);

describe('text functions', () => {
  it.each([
    ["upper('test')", 'TEST'],
    ["lower('TEST')", 'test'],
    ["lower(upper('test'))", 'test'],
    ["upper('https://उदाहरण.परीक्षा')", 'HTTPS://उदाहरण.परीक्षा'],
    ["upper('señor')", 'SEÑOR'],
    ["lower('ÀÉÎ')", 'àéî'],
    ["concat('test', ' ', 'works')", 'test works'],
    ["concat('test', ' ', upper('works'))", 'test WORKS'],
    ["concat('\ntest', '\n')", '\ntest\n'],
    ['concat(1, 2)', '12'],
    ["concat('a', 2)", 'a2'],
    ["concat('a', true)", 'atrue'],
    ["concat(length('abc'), '-', length('ab'))", '3-2'],
    ["concat(contains('a', 'a'), '-', search('abc', 'c'))", 'true-3'],
    ["t('aaaa')", 'aaaa'],
    ['t(10)', ''],
    ["replace('test test', 'test', 'a')", 'a a'],
    ["replace('abc', '', 'x')", 'abc'],
    ["reverse('abc')", 'cba'],
    ["reverse('añ😀')", '😀ña'],
    ["left('a', 2)", 'a'],
    ["left('abc', 2)", 'ab'],
    ["left('abcde', 2.9)", 'ab'],
    ["left('abcde', -2)", 'abc'],
    ["right('abcde', -2)", 'cde'],
    ["split_part('John, Jane, Matthew', ', ', -1.5)", ''],
    ["split_part('John, Jane, Matthew', ', ', -1)", ''],
    ["right('a', 2)", 'a'],
    ["right('abc', 2)", 'bc'],
    ["right('añb', 2)", 'ñb'],
    ["trim('  a b  ')", 'a b'],
    ["trim('\t a \n')", 'a'],
    ["regex_replace('abc123def45', '[0-9]+', '#')", 'abc#def#'],
    ["regex_replace('a.b,c', '[[:punct:]]', '')", 'abc'],
    ["regex_replace('abc', 'x', 'y')", 'abc'],
    ["regex_replace('line1\nline2', 'line.', 'L')", 'L\nL'],
    ["regex_replace('John Smith', '(\\w+) (\\w+)', '\\2 \\1')", 'Smith John'],
    ["regex_replace('cat concat', '\\mcat', 'dog')", 'dog concat'],
    ["regex_replace('a1b22', '\\d', '<\\&>')", 'a<1>b<2><2>'],
    ["regex_replace('abc', '(', 'x')", '#ERROR!'],
    ["regex_replace('abc', 'b[', 'x')", '#ERROR!'],
    // Evaluated in linear time (RE2 on SQLite): a pattern that backtracks exponentially in
    // JavaScript's engine answers at once.
    [`regex_replace('${'a'.repeat(28)}b', '(a+)+$', 'x')`, `${'a'.repeat(28)}b`],
    ["regex_replace('baaa', '(a+)+$', 'x')", 'bx'],
    ["regex_replace('cats cat', 'cat\\M', 'dog')", 'cats dog'],
    ["regex_replace('a cat, cats', '\\ycat\\y', 'dog')", 'a dog, cats'],
    ["regex_replace('ab\nab', 'b\\Z', 'X')", 'ab\naX'],
    ["regex_replace('x*y', '\\x2a', '+')", 'x+y'],
    ["regex_replace('a-b', '[[:alpha:]]', '\\&\\&')", 'aa-bb'],
    ["regex_replace('Abc abc', '(?i)a', '_')", '_bc _bc'],
    // Back-references and lookahead have no linear-time evaluation: invalid patterns on both databases.
    ["regex_replace('abab', '(a)\\1', 'x')", '#ERROR!'],
    ["regex_replace('ab', 'a(?=b)', 'x')", '#ERROR!'],
    ["encode_uri('http://example.com/wiki/Señor')", 'http://example.com/wiki/Se%c3%b1or'],
    ["encode_uri('a b?c=d&e#f')", 'a%20b?c=d&e#f'],
    ["encode_uri_component('Hello World')", 'Hello%20World'],
    ["encode_uri_component('a/b?c=ñ')", 'a%2fb%3fc%3d%c3%b1'],
    ["split_part('John, Jane, Matthew', ', ', 2)", 'Jane'],
    ["split_part('John, Jane, Matthew', 'xxx', 2)", ''],
    ["split_part('John, Jane, Matthew', ', ', 0)", ''],
    ["split_part('John, Jane, Matthew', ', ', 1.5)", 'John'],
    ["split_part('John, Jane, Matthew', ', ', 3.5)", 'Matthew'],
    ["split_part('John, Jane, Matthew', ', ', 4.5)", ''],
    ["split_part('John, Jane, Matthew', ', ', 9999)", ''],
    ["tourl('baserow.io')", 'baserow.io'],
    ["tourl('baserow.io/subpage')", 'baserow.io/subpage'],
    ["tourl('baserow.io/subpage/?query=true')", 'baserow.io/subpage/?query=true'],
    ["tourl(concat('baserow.io', '/subpage/?query=true'))", 'baserow.io/subpage/?query=true'],
    ["tourl(lower('BASEROW.io'))", 'baserow.io'],
    ["tourl(replace('base-ow.io', '-', 'r'))", 'baserow.io'],
    ["tourl('localhost')", 'localhost'],
    ["tourl('skype://call-me')", 'skype://call-me'],
    ["tourl('https://baserow.io:3000')", 'https://baserow.io:3000'],
    ["tourl('ftp://baserow.io/some/path')", 'ftp://baserow.io/some/path'],
    ["tourl('https://baserow.io:3000invalid')", ''],
    ["tourl('https://baserow.iohttps://baserow.io')", ''],
    [
      "tourl('https://user:password@www.baserow.io:8080/path/to/resource?search=query&filter=active#section2')",
      'https://user:password@www.baserow.io:8080/path/to/resource?search=query&filter=active#section2',
    ],
    ["lower(tovarchar('AB'))", 'ab'],
    ["get_link_url(link('https://www.google.com'))", 'https://www.google.com'],
    ["get_link_label(button('1', 'l'))", 'l'],
    ["get_link_url(button('ab', 'la'))", 'ab'],
  ])('%s is %j', async (formula, expected) => {
    expect(await value(formula)).toBe(expected);
  });

  it.each([
    ["search('test test', 'test')", 1],
    ["search('a', 'test')", 0],
    ["search('añb', 'b')", 3],
    ["search('abc', '')", 1],
    ["length('aaa')", 3],
    ["length('')", 0],
    ["length('ñ😀')", 2],
  ])('%s is %d', async (formula, expected) => {
    expect(await num(formula)).toBe(expected);
  });

  it.each([
    ["contains('a', '')", true],
    ["contains('a', 'a')", true],
    ["contains('a', 'x')", false],
    ["contains('Señor', 'ñ')", true],
  ])('%s is %s', async (formula, expected) => {
    expect(await bool(formula)).toBe(expected);
  });

  // FORMULA_MAX_TEXT_LENGTH, here 10: a text result that would be longer is the error value.
  it.each([
    ["concat('abcde', 'fghij')", 'abcdefghij'],
    ["concat('abcde', 'fghijk')", '#ERROR!'],
    ["concat(field('Text'), field('Text'))", 'abcabc'],
    ["concat(concat(field('Text'), field('Text')), field('Text'), field('Text'))", '#ERROR!'],
    ["'abcde' + 'fghijk'", '#ERROR!'],
    ["'abcde' + 'fghij'", 'abcdefghij'],
    ["concat(field('Text'), 123456789)", '#ERROR!'],
    ["replace('aaaaa', 'a', 'bb')", 'bbbbbbbbbb'],
    ["replace('aaaaaa', 'a', 'bb')", '#ERROR!'],
    ["replace('aaaaaaaaaaaa', 'aa', '')", ''],
    ["replace('aaaaaaaaaaaa', 'aa', 'b')", 'bbbbbb'],
    ["regex_replace('aaaaaa', 'a', 'b')", 'bbbbbb'],
    ["regex_replace('aaaaaa', 'a', 'bb')", '#ERROR!'],
    ["regex_replace('abc', '', 'xyz')", '#ERROR!'],
    ["regex_replace('aaaaaaaaaaaa', 'a', '')", '#ERROR!'],
    ["regex_replace('abcd', '(b)', '\\1\\1')", 'abbcd'],
    ["regex_replace('abcdefgh', '(bcd)', '\\&\\&')", '#ERROR!'],
    ["regex_replace('ab cd ef g', '(\\w+) (\\w+)', '\\2 \\1')", 'cd ab g ef'],
    ["join(lookup('Link', 'Name'), '----')", 'abc----def'],
    ["join(lookup('Link', 'Name'), '-----')", '#ERROR!'],
    ["upper(field('Text'))", 'ABC'],
    ["left(concat(field('Text'), field('Text'), field('Text'), field('Text')), 2)", '#E'],
  ])('%s is %j with texts of at most 10 characters', async (formula, expected) => {
    const row: TableOneRow = { Text: 'abc', Link: [{ Name: 'abc', Amount: 1 }, { Name: 'def', Amount: 2 }] };
    const result = await ev.eval(formula, row, 10);
    expect(result.type.name).not.toBe('invalid');
    expect(result.value).toBe(expected);
  });

  it('a field longer than the formula text limit is the error value', async () => {
    expect((await ev.eval("field('Text')", { Text: 'a'.repeat(11) }, 10)).value).toBe('#ERROR!');
    expect((await ev.eval("field('Text')", { Text: 'a'.repeat(10) }, 10)).value).toBe('a'.repeat(10));
    expect((await ev.eval("regex_replace(field('Text'), 'b', 'c')", { Text: 'a'.repeat(11) }, 100)).value).toBe('a'.repeat(11));
    expect((await ev.eval("regex_replace(field('Text'), 'b', 'c')", { Text: 'a'.repeat(11) }, 10)).value).toBe('#ERROR!');
  });

  it('reads templates of up to 200 characters and dates and durations of up to 1000, on both databases alike', async () => {
    const date = "todate('20240102', 'YYYYMMDD')";
    expect(await value(`datetime_format(${date}, 'YYYY${'-'.repeat(196)}')`)).toBe(`2024${'-'.repeat(196)}`);
    expect(await value(`datetime_format(${date}, 'YYYY${'-'.repeat(197)}')`)).toBe('#ERROR!');
    expect(await value(`datetime_format_tz(${date}, 'YYYY${'-'.repeat(197)}', 'UTC')`)).toBe('#ERROR!');
    expect(await value(`totext(todate('2024${' '.repeat(996)}', 'YYYY'))`)).toBe('2024-01-01');
    expect(await value(`todate('2024${' '.repeat(997)}', 'YYYY')`)).toBeNull();
    expect(await value(`todate('2024', 'YYYY${' '.repeat(197)}')`)).toBeNull();
    expect(await num("toseconds(date_interval('1 day'))")).toBe(86400);
    // A text a backtracking engine takes seconds on: no duration, at once.
    expect(await value(`date_interval('${'1:1'.repeat(30)}x')`)).toBeNull();
    expect(await value(`date_interval('${'1 '.repeat(500)}x')`)).toBeNull();
  });

  it('counts negative lengths and parts as Baserow (PostgreSQL) does', async () => {
    expect(await value("left('abcde', field('Num'))", { Num: -2 })).toBe('abc');
    expect(await value("right('abcde', field('Num'))", { Num: -2 })).toBe('cde');
    expect(await value("left('abcde', field('Num'))", { Num: -9 })).toBe('');
    expect(await value("split_part('John, Jane, Matthew', ', ', field('Num'))", { Num: -1.5 })).toBe('');
    expect(await value("split_part('John, Jane, Matthew', ', ', field('Num'))", { Num: -1 })).toBe('');
  });

  it('gives nullable text arguments as empty texts (Baserow coerces them), numbers as 0', async () => {
    const empty = { Text: null, Num: null };
    expect(await value("upper(field('Text'))", empty)).toBe('');
    expect(await value("upper(field('Text'))", { Text: 'test@test.com' })).toBe('TEST@TEST.COM');
    expect(await num("length(field('Text'))", empty)).toBe(0);
    expect(await value("concat('a', field('Text'), 'b')", empty)).toBe('ab');
    expect(await value("concat(field('Text'), field('Text'))", { Text: 'x' })).toBe('xx');
    expect(await value("left('abc', field('Num'))", empty)).toBe('');
    expect(await value("left(field('Text'), 2)", { Text: 'abcd' })).toBe('ab');
    expect(await value("reverse(field('Text'))", empty)).toBe('');
    expect(await value("replace(field('Text'), 'a', 'b')", empty)).toBe('');
    expect(await bool("contains(field('Text'), '')", empty)).toBe(true);
    expect(await value("split_part(field('Text'), ',', 1)", { Text: 'x,y' })).toBe('x');
    expect(await value("t(field('Text'))", empty)).toBe('');
    // tourl and tovarchar keep NULL as it is (Baserow turns the coercion off for them).
    expect(await value("tourl(field('Text'))", empty)).toBe('');
    expect(await value("tovarchar(field('Text'))", empty)).toBeNull();
    expect(await value("encode_uri('')")).toBe('');
  });

  it('types results as Baserow does', async () => {
    expect(await typeOf("upper('a')")).toMatchObject({ name: 'text', nullable: false });
    expect(await typeOf("tovarchar('a')")).toMatchObject({ name: 'char' });
    expect(await typeOf("upper(tovarchar('a'))")).toMatchObject({ name: 'text' });
    expect(await typeOf("reverse(tovarchar('a'))")).toMatchObject({ name: 'char' });
    expect(await typeOf("left('abc', 1)")).toMatchObject({ name: 'text', nullable: true });
    expect(await typeOf("search('a', 'b')")).toMatchObject({ name: 'number', props: { number_decimal_places: 0 } });
    expect(await typeOf("tourl('a')")).toMatchObject({ name: 'url' });
    expect(await typeOf("link('a')")).toMatchObject({ name: 'link' });
    expect(await typeOf("button('a', 'b')")).toMatchObject({ name: 'button' });
    expect(await typeOf("concat('a', 1)")).toMatchObject({ name: 'text', nullable: false });
  });

  it('builds links and buttons as {url, label} objects, compared as objects', async () => {
    expect(await json("link('1')")).toEqual({ url: '1', label: null });
    expect(await json("link('https://www.google.com', 'Google')")).toEqual({ url: 'https://www.google.com', label: 'Google' });
    expect(await json("button('1', 'l')")).toEqual({ url: '1', label: 'l' });
    expect(await json("link(field('Text'))", { Text: null })).toEqual({ url: null, label: null });
    expect(await value("get_link_label(link('1'))")).toBeNull();
    expect(await bool("link('https://www.google.com', 'Google') = link('https://www.google.com')")).toBe(false);
    expect(await bool("button('https://www.google.com', 'Google') = button('https://www.google.com', 'Google')")).toBe(true);
    expect(await bool("button('https://www.google2.com', 'Google') = button('https://www.google.com', 'Google')")).toBe(false);
    expect(await bool("button('https://www.google.com', 'Google') = button('https://www.google.com', 'Google2')")).toBe(false);
    expect(await bool("link('https://www.google.com') = link('https://www.google.com')")).toBe(true);
    expect(await bool("link('https://www.google2.com') = link('https://www.google.com')")).toBe(false);
  });

  it('applies itself to each value of a lookup', async () => {
    const row: TableOneRow = { Link: [{ Name: 'a', Amount: 1 }, { Name: null, Amount: 2 }] };
    expect(await value("upper(lookup('Link', 'Name'))", row)).toEqual([
      { id: 1, value: 'A' },
      { id: 2, value: '' },
    ]);
    expect(await value("concat(field('Link'), '!')", row)).toEqual([
      { id: 1, value: 'a!' },
      { id: 2, value: '!' },
    ]);
  });

  it('has_option finds a value among a lookup or a link field', async () => {
    const row: TableOneRow = { Link: [{ Name: 'a', Amount: 1 }, { Name: 'b', Amount: 2 }] };
    expect(await bool("has_option(lookup('Link', 'Name'), 'b')", row)).toBe(true);
    expect(await bool("has_option(lookup('Link', 'Name'), 'c')", row)).toBe(false);
    expect(await bool("has_option(field('Link'), 'a')", row)).toBe(true);
    expect(await bool("has_option(field('Link'), 'a')", { Link: [] })).toBe(false);
    expect(await typeOf("has_option(field('Link'), 'a')")).toMatchObject({ name: 'boolean' });
  });

  it('keeps bound values in order when a function binds while reading its arguments twice', async () => {
    // On SQLite bound values are positional: `once` moves what its body binds before its values.
    const dialect = dialectFor(ev.kind);
    const sql = new Sql(dialect, { numbered: true });
    const db = formulaDialect(dialect);
    let n = 0;
    const scope: CompileScope = { sql, db, alias: 't', nextAlias: (prefix) => `${prefix}${++n}`, text: (v) => (ev.kind === 'postgres' ? `CAST(${sql.param(v)} AS text)` : sql.param(v)), maxTextLength: 100_000 };
    const first = scope.text('first');
    const a = scope.text('a');
    const b = scope.text('b');
    const body = once(scope, [a, b], ([x, y]) => `${x} || ${scope.text('-')} || ${y} || ${x}`);
    const [row] = await run(`SELECT ${first} || ${body} || ${scope.text('last')} AS "v"`, sql.bindings());
    expect(row.v).toBe('firsta-balast');
  });

  describe('select options', () => {
    const optionsField = 7;

    beforeAll(async () => {
      await run(`DELETE FROM "database_select_option"`);
      for (const [id, text] of [
        [1, 'a'],
        [2, 'b'],
        [3, ''],
      ] as const) {
        const values = ev.kind === 'sqlite' ? '?, ?, ?' : '$1, $2, $3';
        await run(`INSERT INTO "database_select_option" ("id", "field_id", "value", "color", "order") VALUES (${values}, 'blue', 1)`, [id, optionsField, text]);
      }
    });

    /** Applies a text function to given arguments and evaluates it. */
    async function apply(name: string, build: (scope: CompileScope) => Expr[]): Promise<unknown> {
      const dialect = dialectFor(ev.kind);
      const sql = new Sql(dialect, { numbered: true });
      const db = formulaDialect(dialect);
      let n = 0;
      const scope: CompileScope = { sql, db, alias: 't', nextAlias: (prefix) => `${prefix}${++n}`, text: (v) => (ev.kind === 'postgres' ? `CAST(${sql.param(v)} AS text)` : sql.param(v)), maxTextLength: 100_000 };
      const fn = TEXT_FUNCTIONS.find((f) => f.type === name)!;
      const result = fn.apply(build(scope), scope, { name });
      if (typeof result === 'string') throw new Error(result);
      const [row] = await run(`SELECT ${result.sql} AS "v"`, sql.bindings());
      return row.v;
    }

    const option = (scope: CompileScope, id: number | null): Expr => ({ type: formulaTypes.singleSelect(optionsField), sql: id === null ? 'NULL' : scope.db.toNumber(String(id)) });
    const options: (scope: CompileScope) => Expr = () => ({
      type: formulaTypes.array(formulaTypes.singleSelect(optionsField)),
      sql: 'o9."id"',
      relation: { from: '"database_select_option" o9', where: [`o9."id" IN (1, 3)`], order: 'o9."id"', id: 'o9."id"' },
    });

    it('get_single_select_value gives the option text', async () => {
      expect(await apply('get_single_select_value', (s) => [option(s, 2)])).toBe('b');
      expect(await apply('get_single_select_value', (s) => [option(s, null)])).toBeNull();
    });

    it('has_option finds an option among several', async () => {
      expect(!!(await apply('has_option', (s) => [options(s), { type: formulaTypes.text(), sql: s.text('a') }]))).toBe(true);
      expect(!!(await apply('has_option', (s) => [options(s), { type: formulaTypes.text(), sql: s.text('b') }]))).toBe(false);
    });
  });

  it.each([
    ['upper(1)', 'argument number 1 given to function upper was of type number but the only usable type for this argument is text'],
    ['lower(true)', 'argument number 1 given to function lower was of type boolean but the only usable type for this argument is text'],
    [
      'concat(upper(1), lower(2))',
      'argument number 1 given to function upper was of type number but the only usable type for this argument is text, argument number 1 given to function lower was of type number but the only usable type for this argument is text',
    ],
    [
      'replace(1, 2, 3)',
      'argument number 1 given to function replace was of type number but the only usable type for this argument is text, argument number 2 given to function replace was of type number but the only usable type for this argument is text, argument number 3 given to function replace was of type number but the only usable type for this argument is text',
    ],
    ["left('a', 'b')", 'argument number 2 given to function left was of type text but the only usable type for this argument is number'],
    ["split_part('a', 'b', 'c')", 'argument number 3 given to function split_part was of type text but the only usable type for this argument is number'],
    ["get_link_url('a')", 'argument number 1 given to function get_link_url was of type text but the only usable type for this argument is link'],
    ["get_single_select_value('a')", 'argument number 1 given to function get_single_select_value was of type text but the only usable type for this argument is single_select'],
    [
      "has_option('a', 'b')",
      'argument number 1 given to function has_option was of type text but the only usable types for this argument are multiple_select,array,a list of single_select values obtained from a lookup',
    ],
    ["has_option(field('Link'), 1)", 'argument number 2 given to function has_option was of type number but the only usable type for this argument is text'],
    ['link(1)', 'argument number 1 given to function link was of type number but the only usable type for this argument is text'],
    ["button('a', 1)", 'argument number 2 given to function button was of type number but the only usable type for this argument is text'],
    ['tourl(1)', 'argument number 1 given to function tourl was of type number but the only usable type for this argument is text'],
  ])('%s is an error', async (formula, message) => {
    expect(await error(formula)).toBe(message);
  });
});

describe('logic functions', () => {
  it.each([
    ["'a' = 'a'", true],
    ["1 = '1'", true],
    ["'1' = 1", true],
    ['1 = 1.0', true],
    ["'a' != 'b'", true],
    ["'a' != 'a'", false],
    ["1 != '1'", false],
    ['true != false', true],
    ['true = true', true],
    ["true = 'true'", true],
    ['1 > 1', false],
    ['1 >= 1', true],
    ['1 < 1', false],
    ['1 <= 1', true],
    ['2.5 > 2', true],
    ["'a' < 'b'", true],
    ["'b' <= 'a'", false],
    ["tovarchar('b') > 'a'", true],
    ['and(true, false)', false],
    ['and(true, true)', true],
    ['true && false', false],
    ['true && true', true],
    ['or(true, false)', true],
    ['or(false, false)', false],
    ['false || true', true],
    ['false || false', false],
    ['not(false)', true],
    ['not(true)', false],
    ["not(isblank('')) != false", false],
    ['isblank(0)', true],
    ['isblank(1)', false],
    ["isblank('')", true],
    ["isblank(' ')", false],
    ['isblank(false)', true],
    ['isblank(true)', false],
    ["isblank(link('x'))", false],
    ["isblank(button('x', ''))", true],
    ['is_null(0)', false],
    ['is_null(1)', false],
    ["is_null('')", false],
    ["is_null(' ')", false],
    // As Baserow's grammar reads it, && binds tighter than comparisons.
    ["contains('abc', 'b') && (1 < 2)", true],
  ])('%s is %s', async (formula, expected) => {
    expect(await bool(formula)).toBe(expected);
  });

  it.each([
    ["if('a' = 'a', 'a', 'b')", 'a'],
    ["if('a' = 'b', 'a', 'b')", 'b'],
    ["if('a' = 'b', 1, 'b')", 'b'],
    ["if('a' = 'a', 1, 'b')", '1'],
    ["if(true, 'x', tovarchar('y'))", 'x'],
    ["when_empty('', 'x')", 'x'],
    ["when_empty('a', 'x')", 'a'],
    ["when_empty(tovarchar(''), 'x')", 'x'],
  ])('%s is %j', async (formula, expected) => {
    expect(await value(formula)).toBe(expected);
  });

  it('compares field values, NULL equal only to NULL', async () => {
    const formula = "if(field('Text') = 'a', field('Text'), 'no')";
    expect(await value(formula, { Text: 'a' })).toBe('a');
    expect(await value(formula, { Text: 'b' })).toBe('no');
    expect(await value(formula, { Text: null })).toBe('no');
    expect(await bool("field('Text') = field('Text')", { Text: null })).toBe(true);
    expect(await bool("field('Text') != 'a'", { Text: 'b' })).toBe(true);
    expect(await bool("field('Num') > 1", { Num: 1.5 })).toBe(true);
    expect(await bool("field('Num') > 1", { Num: null })).toBe(false);
    expect(await bool("field('Num') = 1.5", { Num: 1.5 })).toBe(true);
    expect(await bool("field('Num') = '1.50'", { Num: 1.5 })).toBe(true);
    expect(await bool("field('Bool') = true", { Bool: true })).toBe(true);
    expect(await bool("field('Bool') = 'false'", { Bool: false })).toBe(true);
    expect(await bool("field('Dur') >= field('Dur')", { Dur: 90 })).toBe(true);
    expect(await bool("field('Dur') > field('Dur')", { Dur: 90 })).toBe(false);
  });

  it('compares dates with dates and datetimes (a date is its midnight UTC)', async () => {
    const row = { Date: '2024-01-02', DateTime: '2024-01-02T00:00:00.000Z' };
    expect(await bool("field('Date') = field('DateTime')", row)).toBe(true);
    expect(await bool("field('Date') < field('DateTime')", { ...row, DateTime: '2024-01-02T10:00:00.000Z' })).toBe(true);
    expect(await bool("field('DateTime') <= field('Date')", { ...row, DateTime: '2024-01-01T23:59:00.000Z' })).toBe(true);
    expect(await bool("field('Date') >= field('Date')", row)).toBe(true);
    expect(await bool("field('Date') = '2024-01-02'", row)).toBe(true);
    expect(await bool("field('Date') > field('Date')", { Date: null })).toBeNull();
  });

  it('if gives the common type of its branches', async () => {
    expect(await typeOf('if(true, 1.5, 2)')).toMatchObject({ name: 'number', props: { number_decimal_places: 1 } });
    expect(await num('if(false, 1.5, 2)')).toBe(2);
    expect(await typeOf("if(true, 1, 'b')")).toMatchObject({ name: 'text' });
    expect(await typeOf("if(true, 'a', tovarchar('b'))")).toMatchObject({ name: 'text' });
    expect(await typeOf('if(true, true, false)')).toMatchObject({ name: 'boolean' });
    expect(await typeOf("if(true, field('Text'), 'b')")).toMatchObject({ name: 'text', nullable: true });
    expect(await value("if(field('Bool'), 'true', 'false')", { Bool: true })).toBe('true');
    expect(await value("if(field('Bool'), 'true', 'false')", { Bool: false })).toBe('false');
    expect(await value("if(true, field('Num'), 'x')", { Num: 1.5 })).toBe('1.50');
    const dates = { Date: '2024-01-02', DateTime: '2024-01-03T10:00:00.000Z' };
    expect(await typeOf("if(true, field('Date'), field('DateTime'))")).toMatchObject({ name: 'date', props: { date_include_time: false } });
    expect(await value("if(true, field('Date'), field('DateTime'))", dates)).toBe('2024-01-02');
    expect(await value("if(false, field('Date'), field('DateTime'))", dates)).toBe('2024-01-03');
  });

  it('isblank, is_null and when_empty of field values', async () => {
    expect(await bool("isblank(field('Text'))", { Text: null })).toBe(true);
    expect(await bool("isblank(field('Text'))", { Text: '' })).toBe(true);
    expect(await bool("isblank(field('Text'))", { Text: 'a' })).toBe(false);
    expect(await bool("isblank(field('Num'))", { Num: null })).toBe(true);
    expect(await bool("isblank(field('Num'))", { Num: 0 })).toBe(true);
    expect(await bool("isblank(field('Date'))", { Date: null })).toBe(true);
    expect(await bool("isblank(field('Date'))", { Date: '2024-01-02' })).toBe(false);
    expect(await bool("isblank(field('Dur'))", { Dur: 0 })).toBe(true);
    expect(await bool("isblank(field('Bool'))", { Bool: false })).toBe(true);
    expect(await bool("is_null(field('Text'))", { Text: null })).toBe(true);
    expect(await bool("is_null(field('Text'))", { Text: '' })).toBe(false);
    expect(await bool("is_null(field('Num'))", { Num: null })).toBe(true);
    expect(await bool("is_null(field('DateTime'))", { DateTime: null })).toBe(true);
    expect(await value("when_empty(field('Text'), 'x')", { Text: null })).toBe('x');
    expect(await value("when_empty(field('Text'), 'x')", { Text: '' })).toBe('x');
    expect(await value("when_empty(field('Text'), 'x')", { Text: 'a' })).toBe('a');
    expect(await num("when_empty(field('Num'), 5)", { Num: null })).toBe(5);
    expect(await num("when_empty(field('Num'), 5)", { Num: 0 })).toBe(0);
    expect(await num('when_empty(1, 2)')).toBe(1);
    expect(await typeOf("when_empty(field('Text'), 'x')")).toMatchObject({ name: 'text', nullable: false });
    expect(await value("when_empty(field('Date'), field('Date'))", { Date: '2024-01-02' })).toBe('2024-01-02');
  });

  it('maps over lookups', async () => {
    const row: TableOneRow = { Link: [{ Name: 'a', Amount: 1 }, { Name: null, Amount: 2 }] };
    const result = (await value("isblank(lookup('Link', 'Name'))", row)) as { id: number; value: unknown }[];
    expect(result.map((item) => [item.id, !!item.value])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('row_id, error_to_null and error_to_nan', async () => {
    expect(await num('row_id()')).toBe(1);
    expect(await typeOf('row_id()')).toMatchObject({ name: 'number', props: { number_decimal_places: 0 } });
    expect(await value("error_to_null('a')")).toBe('a');
    expect(await num('error_to_nan(1.5)')).toBe(1.5);
  });

  it.each([
    ["if(1, 'a', 'b')", 'argument number 1 given to function if was of type number but the only usable type for this argument is boolean'],
    ['1 = true', 'argument number 2 given to operator = was of type boolean but the only usable types for this argument are number,text'],
    ["field('Date') = 1", 'argument number 2 given to operator = was of type number but the only usable types for this argument are date,text'],
    ["field('Dur') != 'a'", 'argument number 2 given to operator != was of type text but the only usable type for this argument is duration'],
    ["link('a') = 'a'", 'argument number 2 given to operator = was of type text but the only usable type for this argument is link'],
    ['true > true', 'argument number 2 given to operator > was of type boolean but there are no possible types usable here'],
    ['true < 1', 'argument number 2 given to operator < was of type number but there are no possible types usable here'],
    ["'a' > 1", 'argument number 2 given to operator > was of type number but the only usable types for this argument are text,char,link'],
    ["1 <= 'a'", 'argument number 2 given to operator <= was of type text but the only usable type for this argument is number'],
    ["field('Date') >= field('Dur')", 'argument number 2 given to operator >= was of type duration but the only usable type for this argument is date'],
    ['and(1, true)', 'argument number 1 given to operator && was of type number but the only usable type for this argument is boolean'],
    ["or(true, 'a')", 'argument number 2 given to function or was of type text but the only usable type for this argument is boolean'],
    ['not(1)', 'argument number 1 given to function not was of type number but the only usable type for this argument is boolean'],
    ["when_empty(1, 'a')", 'both inputs for when_empty must be the same type'],
    ["when_empty('a', tovarchar('b'))", 'both inputs for when_empty must be the same type'],
    ["error_to_nan('a')", 'argument number 1 given to function error_to_nan was of type text but the only usable type for this argument is number'],
  ])('%s is an error', async (formula, message) => {
    expect(await error(formula)).toBe(message);
  });
});
