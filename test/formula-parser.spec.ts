// Unit tests for the Baserow formula parser (Baserow 1.35's ANTLR grammar and AST mapper).
import { FormulaNode, FormulaSyntaxError } from '../src/database/formula/ast';
import { FormulaTooDeeplyNestedError, MAX_FORMULA_DEPTH, formulaToText, parseFormula } from '../src/database/formula/parser';

/** The tree without offsets, for comparing shapes. */
function shape(node: FormulaNode): unknown {
  return JSON.parse(JSON.stringify(node, (key, value) => (key === 'start' || key === 'end' ? undefined : value)));
}
const parsed = (text: string) => shape(parseFormula(text));

const num = (text: string) => ({ kind: 'number', text });
const str = (value: string) => ({ kind: 'string', value });
const bool = (value: boolean) => ({ kind: 'boolean', value });
const field = (name: string) => ({ kind: 'field', name });
const call = (name: string, ...args: unknown[]) => ({ kind: 'call', name, args });
const op = (operator: string, name: string, left: unknown, right: unknown) => ({ kind: 'call', name, args: [left, right], operator });

function syntaxError(text: string): string {
  try {
    parseFormula(text);
  } catch (error) {
    expect(error).toBeInstanceOf(FormulaSyntaxError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(text)} parsed`);
}

/** Every `expr` alternative's first token, as ANTLR lists what may start an expression. */
const EXPR_START =
  '{BLOCK_COMMENT, LINE_COMMENT, WHITESPACE, TRUE, FALSE, FIELD, FIELDBYID, LOOKUP, \'(\', NUMERIC_LITERAL, INTEGER_LITERAL, SINGLEQ_STRING_LITERAL, DOUBLEQ_STRING_LITERAL, IDENTIFIER, IDENTIFIER_UNICODE}';

describe('literals', () => {
  it('reads single and double quoted strings, unescaping only their own quote as Baserow does', () => {
    expect(parsed(`'hello'`)).toEqual(str('hello'));
    expect(parsed(`"hello"`)).toEqual(str('hello'));
    expect(parsed(`'it\\'s'`)).toEqual(str(`it's`));
    expect(parsed(`"say \\"hi\\""`)).toEqual(str('say "hi"'));
    expect(parsed(`'a\\"b'`)).toEqual(str('a\\"b'));
    expect(parsed(`"a\\'b"`)).toEqual(str("a\\'b"));
    expect(parsed(`'a\\\\b'`)).toEqual(str('a\\\\b'));
    expect(parsed(`'a\\nb'`)).toEqual(str('a\\nb'));
    expect(parsed(`'two\nlines'`)).toEqual(str('two\nlines'));
    expect(parsed(`''`)).toEqual(str(''));
    expect(parsed(`'😀 é'`)).toEqual(str('😀 é'));
  });

  it('keeps numbers as written; a leading minus is part of the literal', () => {
    expect(parsed('1')).toEqual(num('1'));
    expect(parsed('1.50')).toEqual(num('1.50'));
    expect(parsed('007')).toEqual(num('007'));
    expect(parsed('-2')).toEqual(num('-2'));
    expect(parsed('-0.25')).toEqual(num('-0.25'));
    expect(parsed('2*-1')).toEqual(op('*', 'multiply', num('2'), num('-1')));
  });

  it('refuses numbers with an exponent (Baserow lexes them but cannot map them)', () => {
    expect(syntaxError('1e5')).toBe("Invalid syntax at line 1, col 0: the number 1e5 can't be written with an exponent");
    expect(syntaxError('2 + 1.5E3')).toBe("Invalid syntax at line 1, col 4: the number 1.5E3 can't be written with an exponent");
  });

  it('reads booleans in any case', () => {
    expect(parsed('true')).toEqual(bool(true));
    expect(parsed('FALSE')).toEqual(bool(false));
    expect(parsed('True')).toEqual(bool(true));
  });

  it('refuses an embedded string over 10000 characters with Baserow\'s message', () => {
    expect(parsed(`'${'t'.repeat(10000)}'`)).toEqual(str('t'.repeat(10000)));
    expect(parsed(`'${'😀'.repeat(10000)}'`)).toEqual(str('😀'.repeat(10000)));
    expect(syntaxError(`upper('${'t'.repeat(10001)}')`)).toBe('an embedded string in the formula over the maximum length of 10000 ');
    // A syntax error anywhere comes first: Baserow maps the tree only once it parsed.
    expect(syntaxError(`upper('${'t'.repeat(10001)}') +`)).toMatch(/^Invalid syntax at line 1, col 10012: mismatched input 'the end of the formula'/);
  });
});

describe('references and function calls', () => {
  it('reads field, field_by_id and lookup references in any case', () => {
    expect(parsed(`field('Name')`)).toEqual(field('Name'));
    expect(parsed(`FIELD("Name")`)).toEqual(field('Name'));
    expect(parsed(`field('it\\'s')`)).toEqual(field(`it's`));
    expect(parsed(`field('')`)).toEqual(field(''));
    expect(parsed('field_by_id(12)')).toEqual({ kind: 'field_by_id', id: 12 });
    expect(parsed('Field_By_Id(12)')).toEqual({ kind: 'field_by_id', id: 12 });
    expect(parsed(`lookup('link', 'target')`)).toEqual({ kind: 'lookup', through: 'link', target: 'target' });
    expect(parsed(`LOOKUP("link","target")`)).toEqual({ kind: 'lookup', through: 'link', target: 'target' });
    expect(parsed(`lookup('link',\n\t'target')`)).toEqual({ kind: 'lookup', through: 'link', target: 'target' });
  });

  it('unescapes a lookup target with the through field\'s quote, as Baserow\'s mapper does', () => {
    expect(parsed(`lookup('a', "b\\"c")`)).toEqual({ kind: 'lookup', through: 'a', target: 'b\\"c' });
    expect(parsed(`lookup("a", 'b\\'c')`)).toEqual({ kind: 'lookup', through: 'a', target: "b\\'c" });
    expect(parsed(`lookup('a', 'b\\'c')`)).toEqual({ kind: 'lookup', through: 'a', target: "b'c" });
  });

  it('lower-cases function names and reads arguments', () => {
    expect(parsed(`UPPER('a')`)).toEqual(call('upper', str('a')));
    expect(parsed(`Concat('a', field('b'), 1)`)).toEqual(call('concat', str('a'), field('b'), num('1')));
    expect(parsed('now()')).toEqual(call('now'));
    // ANTLR commits to an argument on whitespace: Baserow refuses `now( )`.
    expect(syntaxError('NOW( )')).toBe(`Invalid syntax at line 1, col 5: mismatched input ')' expecting ${EXPR_START}`);
    expect(parsed(`if(field('x') > 1, upper('a'), lower("B"))`)).toEqual(
      call('if', op('>', 'greater_than', field('x'), num('1')), call('upper', str('a')), call('lower', str('B'))),
    );
    expect(parsed('Über_2(1)')).toEqual(call('über_2', num('1')));
    // Keywords only win when the whole identifier is the keyword.
    expect(parsed('fields(1)')).toEqual(call('fields', num('1')));
    expect(parsed('true_or(1)')).toEqual(call('true_or', num('1')));
  });
});

describe('operators', () => {
  it.each([
    ['+', 'add'],
    ['-', 'minus'],
    ['*', 'multiply'],
    ['/', 'divide'],
    ['=', 'equal'],
    ['!=', 'not_equal'],
    ['>', 'greater_than'],
    ['>=', 'greater_than_or_equal'],
    ['<', 'less_than'],
    ['<=', 'less_than_or_equal'],
    ['&&', 'and'],
    ['||', 'or'],
  ])('maps %s to %s and keeps the symbol', (symbol, name) => {
    expect(parseFormula(`1 ${symbol} 2`)).toEqual({
      kind: 'call',
      name,
      operator: symbol,
      args: [
        { kind: 'number', text: '1', start: 0, end: 1 },
        { kind: 'number', text: '2', start: 3 + symbol.length, end: 4 + symbol.length },
      ],
      start: 0,
      end: 4 + symbol.length,
    });
  });

  it('follows the grammar\'s precedence: * / then + - then && || then comparisons then = !=', () => {
    expect(parsed('1 + 2 * 3')).toEqual(op('+', 'add', num('1'), op('*', 'multiply', num('2'), num('3'))));
    expect(parsed('1 * 2 + 3')).toEqual(op('+', 'add', op('*', 'multiply', num('1'), num('2')), num('3')));
    expect(parsed('(1 + 2) * 3')).toEqual(op('*', 'multiply', op('+', 'add', num('1'), num('2')), num('3')));
    expect(parsed('1 + 2 > 3')).toEqual(op('>', 'greater_than', op('+', 'add', num('1'), num('2')), num('3')));
    expect(parsed('1 > 2 = true')).toEqual(op('=', 'equal', op('>', 'greater_than', num('1'), num('2')), bool(true)));
    expect(parsed('true = 1 < 2')).toEqual(op('=', 'equal', bool(true), op('<', 'less_than', num('1'), num('2'))));
    // Baserow's grammar binds && and || tighter than comparisons: write brackets around comparisons.
    expect(parsed('1 > 2 && 3')).toEqual(op('>', 'greater_than', num('1'), op('&&', 'and', num('2'), num('3'))));
    expect(parsed('(1 > 2) && (3 < 4)')).toEqual(
      op('&&', 'and', op('>', 'greater_than', num('1'), num('2')), op('<', 'less_than', num('3'), num('4'))),
    );
    expect(parsed('1 + 2 && 3')).toEqual(op('&&', 'and', op('+', 'add', num('1'), num('2')), num('3')));
  });

  it('associates every level to the left', () => {
    expect(parsed('1 - 2 - 3')).toEqual(op('-', 'minus', op('-', 'minus', num('1'), num('2')), num('3')));
    expect(parsed('1 / 2 * 3')).toEqual(op('*', 'multiply', op('/', 'divide', num('1'), num('2')), num('3')));
    expect(parsed('true && false || true')).toEqual(op('||', 'or', op('&&', 'and', bool(true), bool(false)), bool(true)));
    expect(parsed('1 = 2 != 3')).toEqual(op('!=', 'not_equal', op('=', 'equal', num('1'), num('2')), num('3')));
    expect(parsed('1 - (2 - 3)')).toEqual(op('-', 'minus', num('1'), op('-', 'minus', num('2'), num('3'))));
  });

  it('has no unary minus: -1 is a literal, so 1-1 is two numbers in a row', () => {
    expect(parsed('1 - -1')).toEqual(op('-', 'minus', num('1'), num('-1')));
    expect(syntaxError('1 -1')).toBe("Invalid syntax at line 1, col 2: extraneous input '-1' expecting the end of the formula");
    expect(syntaxError('1-1')).toBe("Invalid syntax at line 1, col 1: extraneous input '-1' expecting the end of the formula");
    expect(syntaxError(`-field('a')`)).toBe(`Invalid syntax at line 1, col 0: extraneous input '-' expecting ${EXPR_START}`);
  });

  it('has no %, <>, & or == operators', () => {
    expect(syntaxError('1 % 2')).toBe("Invalid syntax at line 1, col 2: mismatched input '%' expecting the end of the formula");
    expect(syntaxError('1 <> 2')).toBe("Invalid syntax at line 1, col 2: mismatched input '<>' expecting the end of the formula");
    expect(syntaxError(`'a' & 'b'`)).toBe("Invalid syntax at line 1, col 4: mismatched input '&' expecting the end of the formula");
    expect(syntaxError('1 == 2')).toBe(`Invalid syntax at line 1, col 3: extraneous input '=' expecting ${EXPR_START}`);
  });
});

describe('whitespace and comments', () => {
  it('skips whitespace, line comments and block comments around any expression', () => {
    const expected = call('concat', str('a'), op('+', 'add', num('1'), num('2')));
    expect(parsed(`concat('a',1+2)`)).toEqual(expected);
    expect(parsed(`  concat( 'a' ,\n\t1 + 2 )  `)).toEqual(expected);
    expect(parsed(`concat(/* first */ 'a', // the text\n 1 + // two\n 2) // done`)).toEqual(expected);
    expect(parsed(`concat('a', 1 /* one */ + 2)`)).toEqual(expected);
    expect(parsed(`\r\n1\r\n`)).toEqual(num('1'));
    expect(parsed(`1 // comment`)).toEqual(num('1'));
  });

  it('runs a block comment to the last */ of the formula (ANTLR\'s greedy .*)', () => {
    expect(parsed(`/* a */ 1 + /* b */ 2`)).toEqual(num('2'));
    expect(syntaxError(`/* a */ 1 /* b */`)).toBe(`Invalid syntax at line 1, col 17: mismatched input 'the end of the formula' expecting ${EXPR_START}`);
  });

  it('allows no whitespace inside field(...) and only after lookup\'s comma', () => {
    expect(syntaxError(`field( 'a')`)).toBe(
      "Invalid syntax at line 1, col 6: extraneous input ' ' expecting {SINGLEQ_STRING_LITERAL, DOUBLEQ_STRING_LITERAL}",
    );
    expect(syntaxError(`field('a'\t)`)).toBe("Invalid syntax at line 1, col 9: extraneous input '\\t' expecting ')'");
    expect(syntaxError(`field ('a')`)).toBe("Invalid syntax at line 1, col 5: extraneous input ' ' expecting '('");
    expect(syntaxError(`lookup('a' ,'b')`)).toBe("Invalid syntax at line 1, col 10: extraneous input ' ' expecting ','");
  });
});

describe('offsets', () => {
  it('gives every node its start and end in the text', () => {
    expect(parseFormula(`upper( 'ab' )`)).toEqual({ kind: 'call', name: 'upper', args: [{ kind: 'string', value: 'ab', start: 7, end: 11 }], start: 0, end: 13 });
    const sum = parseFormula(`(1 + field('a')) * lookup('l', "t")`);
    expect(sum).toMatchObject({ start: 0, end: 35, args: [{ start: 1, end: 15, args: [{ start: 1, end: 2 }, { start: 5, end: 15 }] }, { start: 19, end: 35 }] });
    expect(parseFormula(' field_by_id(3) ')).toEqual({ kind: 'field_by_id', id: 3, start: 1, end: 15 });
    expect(parseFormula('\n  TRUE')).toEqual({ kind: 'boolean', value: true, start: 3, end: 7 });
  });
});

describe('syntax errors', () => {
  it('words them as Baserow does', () => {
    // Baserow's own tests (test_formula.py, builder element tests).
    expect(syntaxError('test')).toBe("Invalid syntax at line 1, col 4: mismatched input 'the end of the formula' expecting '('");
    expect(syntaxError('not a formula')).toBe("Invalid syntax at line 1, col 3: missing '(' at ' '");
    expect(syntaxError('')).toBe(`Invalid syntax at line 1, col 0: mismatched input 'the end of the formula' expecting ${EXPR_START}`);
    expect(syntaxError('   ')).toBe(`Invalid syntax at line 1, col 3: mismatched input 'the end of the formula' expecting ${EXPR_START}`);
  });

  it('reports a missing, extraneous or mismatched token where ANTLR finds it', () => {
    expect(syntaxError('(1')).toBe("Invalid syntax at line 1, col 2: missing ')' at 'the end of the formula'");
    expect(syntaxError('(1 2)')).toBe("Invalid syntax at line 1, col 3: extraneous input '2' expecting ')'");
    expect(syntaxError('1 2')).toBe("Invalid syntax at line 1, col 2: extraneous input '2' expecting the end of the formula");
    expect(syntaxError('1 2 3')).toBe("Invalid syntax at line 1, col 2: mismatched input '2' expecting the end of the formula");
    expect(syntaxError('1)')).toBe("Invalid syntax at line 1, col 1: extraneous input ')' expecting the end of the formula");
    expect(syntaxError('1 +')).toBe(`Invalid syntax at line 1, col 3: mismatched input 'the end of the formula' expecting ${EXPR_START}`);
    expect(syntaxError(`upper('a'`)).toBe("Invalid syntax at line 1, col 9: mismatched input 'the end of the formula' expecting {',', ')'}");
    expect(syntaxError(`upper('a' 'b')`)).toBe("Invalid syntax at line 1, col 10: extraneous input ''b'' expecting {',', ')'}");
    expect(syntaxError('upper(1,2')).toBe("Invalid syntax at line 1, col 9: extraneous input 'the end of the formula' expecting {',', ')'}");
    expect(syntaxError('upper(,)')).toMatch(/^Invalid syntax at line 1, col 6: extraneous input ',' expecting \{BLOCK_COMMENT, .*'\(', '\)', NUMERIC_LITERAL/);
    expect(syntaxError(`'abc`)).toBe(`Invalid syntax at line 1, col 0: extraneous input ''' expecting ${EXPR_START}`);
  });

  it('refuses field references that are not one string literal', () => {
    expect(syntaxError('field(12)')).toBe("Invalid syntax at line 1, col 6: mismatched input '12' expecting {SINGLEQ_STRING_LITERAL, DOUBLEQ_STRING_LITERAL}");
    expect(syntaxError('field()')).toBe("Invalid syntax at line 1, col 6: missing {SINGLEQ_STRING_LITERAL, DOUBLEQ_STRING_LITERAL} at ')'");
    expect(syntaxError(`field('a', 'b')`)).toBe("Invalid syntax at line 1, col 9: mismatched input ',' expecting ')'");
    // What may follow depends on where the reference stands, as ANTLR's follow sets do.
    expect(syntaxError(`upper(field('a', 'b'))`)).toBe("Invalid syntax at line 1, col 15: missing ')' at ','");
    expect(syntaxError(`field(upper('a'))`)).toBe(
      "Invalid syntax at line 1, col 6: mismatched input 'upper' expecting {SINGLEQ_STRING_LITERAL, DOUBLEQ_STRING_LITERAL}",
    );
    expect(syntaxError('field')).toBe("Invalid syntax at line 1, col 5: mismatched input 'the end of the formula' expecting '('");
    expect(syntaxError(`field_by_id('a')`)).toBe("Invalid syntax at line 1, col 12: mismatched input ''a'' expecting INTEGER_LITERAL");
    expect(syntaxError(`lookup('a')`)).toBe("Invalid syntax at line 1, col 10: mismatched input ')' expecting ','");
  });

  it('counts lines from 1 and columns from 0 in characters', () => {
    expect(syntaxError('1 +\n  )')).toBe(`Invalid syntax at line 2, col 2: mismatched input ')' expecting ${EXPR_START}`);
    expect(syntaxError(`'😀' x`)).toBe("Invalid syntax at line 1, col 4: extraneous input 'x' expecting the end of the formula");
    expect(syntaxError(`concat('a',\r\n'b'\n'c')`)).toBe("Invalid syntax at line 3, col 0: extraneous input ''c'' expecting {',', ')'}");
  });

  it('turns unknown characters into syntax errors', () => {
    expect(syntaxError('\0')).toBe(`Invalid syntax at line 1, col 0: mismatched input '\0' expecting ${EXPR_START}`);
    expect(syntaxError('1 + 😀')).toBe(`Invalid syntax at line 1, col 4: mismatched input '😀' expecting ${EXPR_START}`);
    expect(syntaxError('{1}')).toBe(`Invalid syntax at line 1, col 0: extraneous input '{' expecting ${EXPR_START}`);
  });
});

describe('nesting', () => {
  const nested = (depth: number) => `${'UPPER('.repeat(depth)}'test'${')'.repeat(depth)}`;

  it('accepts Baserow\'s own deep formulas and refuses deeper nesting with its message', () => {
    expect(parseFormula(nested(100))).toMatchObject({ kind: 'call', name: 'upper' });
    expect(parseFormula(nested(MAX_FORMULA_DEPTH - 1))).toMatchObject({ kind: 'call', name: 'upper' });
    for (const text of [nested(MAX_FORMULA_DEPTH), nested(1000), `${'('.repeat(MAX_FORMULA_DEPTH)}1${')'.repeat(MAX_FORMULA_DEPTH)}`, `${'1 + '.repeat(MAX_FORMULA_DEPTH)}1`]) {
      expect(() => parseFormula(text)).toThrow(FormulaTooDeeplyNestedError);
    }
    expect(() => parseFormula(nested(1000))).toThrow('it exceeded the maximum formula size');
    expect(new FormulaTooDeeplyNestedError()).toBeInstanceOf(FormulaSyntaxError);
  });

  it('never overflows the stack, whatever the input', () => {
    for (const text of [
      '('.repeat(100_000),
      `${'('.repeat(100_000)}1${')'.repeat(100_000)}`,
      `${'upper('.repeat(100_000)}'a'${')'.repeat(100_000)}`,
      `${'1 + '.repeat(100_000)}1`,
      `${'1 - ('.repeat(100_000)}1`,
      ')'.repeat(100_000),
    ]) {
      expect(() => parseFormula(text)).toThrow(FormulaSyntaxError);
    }
    // Whitespace and comments nest in Baserow's parse tree, but are no nesting here.
    expect(parseFormula(`${'/*c*/ '.repeat(100_000)}1`)).toMatchObject({ kind: 'number' });
    expect(parseFormula(`concat(${'1, '.repeat(100_000)}1)`)).toMatchObject({ kind: 'call', name: 'concat' });
  });

  it('only ever throws FormulaSyntaxError on random input', () => {
    const alphabet = ['(', ')', ',', "'", '"', '\\', ' ', '\n', '1', '-', '.', 'e', '+', '*', '/', '=', '!', '<', '>', '&', '|', 'a', 'field', 'lookup', 'upper', 'true', '/*', '*/', '//', '\0', '😀'];
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 3000; i++) {
      const length = Math.floor(random() * 20);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      let node: FormulaNode;
      try {
        node = parseFormula(text);
      } catch (error) {
        expect(error).toBeInstanceOf(FormulaSyntaxError);
        continue;
      }
      expect(shape(parseFormula(formulaToText(node)))).toEqual(shape(node));
    }
  });
});

describe('formulaToText', () => {
  const roundTrip = (text: string) => formulaToText(parseFormula(text));

  it('prints canonical text', () => {
    expect(roundTrip(`FIELD("a")+1`)).toBe(`field('a') + 1`);
    expect(roundTrip(`  UPPER( 'x' ) /* c */`)).toBe(`upper('x')`);
    expect(roundTrip(`lookup("l","t")`)).toBe(`lookup('l', 't')`);
    expect(roundTrip('Field_By_Id(7)')).toBe('field_by_id(7)');
    expect(roundTrip('TRUE && False')).toBe('true && false');
    expect(roundTrip('now()')).toBe('now()');
    expect(roundTrip('1.50 * -2')).toBe('1.50 * -2');
    expect(roundTrip(`"it's"`)).toBe(`'it\\'s'`);
  });

  it('brackets only what precedence needs', () => {
    expect(roundTrip('((1 + 2)) * 3')).toBe('(1 + 2) * 3');
    expect(roundTrip('(1 * 2) + 3')).toBe('1 * 2 + 3');
    expect(roundTrip('(1 - 2) - 3')).toBe('1 - 2 - 3');
    expect(roundTrip('1 - (2 - 3)')).toBe('1 - (2 - 3)');
    expect(roundTrip('1 - (2 + 3)')).toBe('1 - (2 + 3)');
    expect(roundTrip('(1 > 2) && (3 < 4)')).toBe('(1 > 2) && (3 < 4)');
    expect(roundTrip('1 > (2 && 3)')).toBe('1 > 2 && 3');
    expect(roundTrip('(1 = 2) = (3 = 4)')).toBe('1 = 2 = (3 = 4)');
    expect(roundTrip(`upper((1 + 2))`)).toBe('upper(1 + 2)');
  });

  it('writes a renamed field so that it reads back', () => {
    const node = parseFormula(`concat(field('Old'), lookup('Old', 'x'))`);
    const renamed = JSON.parse(JSON.stringify(node).replace(/"Old"/g, JSON.stringify(`it's "new" \\o/`)));
    const text = formulaToText(renamed);
    expect(text).toBe(`concat(field('it\\'s "new" \\o/'), lookup('it\\'s "new" \\o/', 'x'))`);
    expect(shape(parseFormula(text))).toEqual(shape(renamed));
  });

  it('uses double quotes for text only they can hold, and refuses text neither can', () => {
    expect(formulaToText({ kind: 'string', value: "a\\'b", start: 0, end: 0 })).toBe(`"a\\'b"`);
    expect(formulaToText({ kind: 'field', name: 'x\\"y', start: 0, end: 0 })).toBe(`field('x\\"y')`);
    expect(formulaToText({ kind: 'lookup', through: "a\\'", target: 'b', start: 0, end: 0 })).toBe(`lookup("a\\'", "b")`);
    expect(() => formulaToText({ kind: 'field', name: 'ends with \\', start: 0, end: 0 })).toThrow(FormulaSyntaxError);
    expect(() => formulaToText({ kind: 'string', value: `'\\'"\\"`, start: 0, end: 0 })).toThrow(FormulaSyntaxError);
  });

  it('prints calls built by hand and refuses what no formula can say', () => {
    const at = { start: 0, end: 0 };
    expect(formulaToText({ kind: 'call', name: 'add', args: [{ kind: 'number', text: '1', ...at }, { kind: 'number', text: '2', ...at }], ...at })).toBe('add(1, 2)');
    expect(() => formulaToText({ kind: 'call', name: 'add', operator: '-', args: [], ...at })).toThrow(FormulaSyntaxError);
    expect(() => formulaToText({ kind: 'call', name: 'field', args: [], ...at })).toThrow(FormulaSyntaxError);
    expect(() => formulaToText({ kind: 'number', text: '1e5', ...at })).toThrow(FormulaSyntaxError);
  });

  it('reads back to the same tree (ignoring offsets)', () => {
    const formulas = [
      `if(and(field('Done'), field('Amount') >= 10.5), concat('Total: ', totext(field('Amount') * 1.21)), "n/a")`,
      `sum(lookup('Orders', 'Price')) / count(field('Orders')) - -1`,
      `/* header */ datetime_format(field("Created on"), 'YYYY-MM-DD') // trailing`,
      `((1 + 2) * (3 - 4)) / 5 = 6 != (true && false || true)`,
      `field('a\\'b') + field("c\\"d") + 'e\\\\f' + "g\\'h"`,
      `lookup("it's", 'x') = lookup('y', "z")`,
      `ÜBER(1) < 2 <= 3 > 4 >= 5`,
    ];
    for (const text of formulas) {
      const node = parseFormula(text);
      expect(shape(parseFormula(formulaToText(node)))).toEqual(shape(node));
      expect(formulaToText(parseFormula(formulaToText(node)))).toBe(formulaToText(node));
    }
  });

  it('reads back random trees', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
    const text = () => Array.from({ length: Math.floor(random() * 6) }, () => pick(['a', "'", '"', '\\', ' ', '\n', 'é', '😀', '\\\\'])).join('');
    const at = { start: 0, end: 0 };
    const symbols = ['+', '-', '*', '/', '&&', '||', '>', '<', '>=', '<=', '=', '!='];
    const names: Record<string, string> = { '+': 'add', '-': 'minus', '*': 'multiply', '/': 'divide', '&&': 'and', '||': 'or', '>': 'greater_than', '<': 'less_than', '>=': 'greater_than_or_equal', '<=': 'less_than_or_equal', '=': 'equal', '!=': 'not_equal' };
    const tree = (depth: number): FormulaNode => {
      const choice = depth > 4 ? Math.floor(random() * 5) : Math.floor(random() * 8);
      if (choice === 0) return { kind: 'string', value: text(), ...at };
      if (choice === 1) return { kind: 'number', text: pick(['0', '-1', '2.50', '-0.001', '42']), ...at };
      if (choice === 2) return { kind: 'boolean', value: random() < 0.5, ...at };
      if (choice === 3) return { kind: 'field', name: text(), ...at };
      if (choice === 4) return { kind: 'lookup', through: text(), target: text(), ...at };
      if (choice === 5) return { kind: 'call', name: pick(['concat', 'if', 'now', 'über']), args: Array.from({ length: Math.floor(random() * 3) }, () => tree(depth + 1)), ...at };
      const symbol = pick(symbols);
      return { kind: 'call', name: names[symbol], operator: symbol, args: [tree(depth + 1), tree(depth + 1)], ...at };
    };
    let printed = 0;
    for (let i = 0; i < 2000; i++) {
      const node = tree(0);
      let formula: string;
      try {
        formula = formulaToText(node);
      } catch (error) {
        expect(error).toBeInstanceOf(FormulaSyntaxError);
        continue;
      }
      printed++;
      expect(shape(parseFormula(formula))).toEqual(shape(node));
    }
    expect(printed).toBeGreaterThan(1000);
  });
});
