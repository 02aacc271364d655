import { cellWords, exactRowId, MAX_POSITION, searchWords } from '../src/database/search/full-text';

/** How full-text search reads cells and search terms (src/database/search/full-text.ts). */
describe('searchWords', () => {
  test.each([
    ['Peter Evans', ['peter', 'evans']],
    ['peTeR   EV', ['peter', 'ev']],
    ['-50', ['-50']],
    ['x -50', ['x', '-50']],
    ['a-50', ['a', '50']],
    ['(-5)', ['5']],
    ['-5a', ['-5', 'a']],
    ['10-20-2023', ['10', '20', '2023']],
    ['5.234', ['5', '234']],
    ['+5.23', ['5', '23']],
    ['.5', ['5']],
    ['a/b', ['a', 'b']],
    ['a.b', ['a', 'b']],
    ['hello+world', ['hello', 'world']],
    ['hello-world', ['hello', 'world']],
    ['hello_world', ['hello', 'world']],
    ['https://baserow.io', ['https', 'baserow', 'io']],
    ['peter@baserow.io', ['peter', 'baserow', 'io']],
    ['Base<&(|)!>row', ['base', 'row']],
    ['#$%', []],
    ['--++999999', ['999999']],
    ["don't", ['don', 't']],
    ['1,000.50', ['1', '000', '50']],
    ['СИР', ['сир']],
    ['ΟΔΟΣ', ['οδοσ']],
    ['e\u0301', ['é']],
    ['中文字 テスト', ['中文字', 'テスト']],
    ['नमस्ते', ['नमस्ते']],
    ['😀 ∑', []],
    ['NEAR "a" AND b* OR (c) ^d :e &f |g !h', ['near', 'a', 'and', 'b', 'or', 'c', 'd', 'e', 'f', 'g', 'h']],
  ])('%j → %j', (text, words) => {
    expect(searchWords(text)).toEqual(words);
  });

  test('words beyond 2047 bytes are left out', () => {
    expect(searchWords(`${'a'.repeat(2047)} b`)).toEqual(['a'.repeat(2047), 'b']);
    expect(searchWords(`${'a'.repeat(2048)} b`)).toEqual(['b']);
    expect(searchWords(`${'é'.repeat(1024)} b`)).toEqual(['b']);
  });
});

describe('cellWords', () => {
  test('the first 16383 words keep their positions, later distinct ones are kept without', () => {
    const words = cellWords(`${'x '.repeat(MAX_POSITION)}x y z y`);
    expect(words.positioned.length).toBe(MAX_POSITION);
    expect(words.rest).toEqual(['y', 'z']);
    expect(cellWords('a b a').positioned).toEqual(['a', 'b', 'a']);
  });

  test('a cell stops at 1 MB of distinct words', () => {
    const words = cellWords(Array.from({ length: 120_000 }, (_, i) => `word${i}`).join(' '));
    expect(words.positioned.length + words.rest.length).toBeLessThan(120_000);
    expect(words.positioned.join(' ').length).toBeLessThan(1_100_000);
  });
});

describe('exactRowId', () => {
  test.each([
    ['5', 5],
    [' 5 ', 5],
    ['+5', 5],
    ['1_0', 10],
    ['٥', 5],
    ['-5', null],
    ['05', null],
    ['0', null],
    ['5x', null],
    ['5 6', null],
    ['1__0', null],
    ['2147483647', 2147483647],
    ['2147483648', null],
    ['', null],
  ])('%j → %j', (term, id) => {
    expect(exactRowId(term)).toBe(id);
  });
});
