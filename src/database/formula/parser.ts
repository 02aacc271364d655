/**
 * The Baserow formula parser: formula text → {@link FormulaNode}, and back to text.
 *
 * It accepts what Baserow 1.35's ANTLR grammar accepts (BaserowFormulaLexer.g4 and
 * BaserowFormula.g4 with its AST mapper), and reports the first syntax error with the message
 * ANTLR's default error strategy gives it, in Baserow's words:
 * `Invalid syntax at line 1, col 4: mismatched input 'the end of the formula' expecting '('`.
 *
 * It never recurses: expressions are parsed with an explicit stack and the lexer is a loop,
 * so time is linear in the text and no input can overflow the call stack. Nesting deeper than
 * {@link MAX_FORMULA_DEPTH} is refused as Baserow refuses it (its parser and mapper hit
 * Python's recursion limit): `it exceeded the maximum formula size`.
 *
 * Grammar facts worth knowing (all Baserow's, kept on purpose):
 * - Negative numbers are literals (`-1` is one token) and there is no unary minus, so `1-1`
 *   is two numbers in a row (a syntax error) while `1 - 1` is a subtraction.
 * - Precedence, tightest first: `* /`, `+ -`, `&& ||`, `> < >= <=`, `= !=`; all left
 *   associative. `&&`/`||` bind tighter than comparisons: `a > 1 && b` is `a > (1 && b)`.
 * - `field('…')` and `lookup('…', '…')` take string literals only, with no whitespace inside
 *   the parentheses (except one run after lookup's comma).
 * - Whitespace, `// line` and `/* block *\/` comments may stand around any expression. A
 *   block comment is greedy: it runs to the last `*\/` of the formula.
 */
import { FormulaNode, FormulaSyntaxError } from './ast';

/** Deepest nesting accepted (calls, operators and brackets each count one level). */
export const MAX_FORMULA_DEPTH = 200;
/** Longest string literal Baserow accepts (`settings.MAX_FORMULA_STRING_LENGTH`), in code points. */
export const MAX_FORMULA_STRING_LENGTH = 10000;

/** The formula nests deeper than Baserow can handle (Baserow's `MaximumFormulaSizeError`). */
export class FormulaTooDeeplyNestedError extends FormulaSyntaxError {
  constructor() {
    super('it exceeded the maximum formula size');
  }
}

// ---------------------------------------------------------------------------------------------
// Tokens: the types and names of Baserow's generated lexer, so expectation lists sort and read
// exactly as ANTLR prints them.

const EOF = -1;
const BLOCK_COMMENT = 1;
const LINE_COMMENT = 2;
const WHITESPACE = 3;
const TRUE = 4;
const FALSE = 5;
const FIELD = 6;
const FIELDBYID = 7;
const LOOKUP = 8;
const COMMA = 9;
const OPEN_PAREN = 15;
const CLOSE_PAREN = 16;
const BIT_STRING = 19;
const REGEX_STRING = 20;
const NUMERIC_LITERAL = 21;
const INTEGER_LITERAL = 22;
const HEX_INTEGER_LITERAL = 23;
const SINGLEQ_STRING_LITERAL = 25;
const DOUBLEQ_STRING_LITERAL = 26;
const IDENTIFIER = 27;
const IDENTIFIER_UNICODE = 28;
const ERROR_CHARACTER = 83;

const SYMBOLIC_NAMES = [
  '<INVALID>', 'BLOCK_COMMENT', 'LINE_COMMENT', 'WHITESPACE', 'TRUE', 'FALSE', 'FIELD', 'FIELDBYID', 'LOOKUP', 'COMMA',
  'COLON', 'COLON_COLON', 'DOLLAR', 'DOLLAR_DOLLAR', 'STAR', 'OPEN_PAREN', 'CLOSE_PAREN', 'OPEN_BRACKET', 'CLOSE_BRACKET',
  'BIT_STRING', 'REGEX_STRING', 'NUMERIC_LITERAL', 'INTEGER_LITERAL', 'HEX_INTEGER_LITERAL', 'DOT', 'SINGLEQ_STRING_LITERAL',
  'DOUBLEQ_STRING_LITERAL', 'IDENTIFIER', 'IDENTIFIER_UNICODE', 'AMP', 'AMP_AMP', 'AMP_LT', 'AT_AT', 'AT_GT', 'AT_SIGN',
  'BANG', 'BANG_BANG', 'BANG_EQUAL', 'CARET', 'EQUAL', 'EQUAL_GT', 'GT', 'GTE', 'GT_GT', 'HASH', 'HASH_EQ', 'HASH_GT',
  'HASH_GT_GT', 'HASH_HASH', 'HYPHEN_GT', 'HYPHEN_GT_GT', 'HYPHEN_PIPE_HYPHEN', 'LT', 'LTE', 'LT_AT', 'LT_CARET', 'LT_GT',
  'LT_HYPHEN_GT', 'LT_LT', 'LT_LT_EQ', 'LT_QMARK_GT', 'MINUS', 'PERCENT', 'PIPE', 'PIPE_PIPE', 'PIPE_PIPE_SLASH',
  'PIPE_SLASH', 'PLUS', 'QMARK', 'QMARK_AMP', 'QMARK_HASH', 'QMARK_HYPHEN', 'QMARK_PIPE', 'SLASH', 'TIL', 'TIL_EQ',
  'TIL_GTE_TIL', 'TIL_GT_TIL', 'TIL_LTE_TIL', 'TIL_LT_TIL', 'TIL_STAR', 'TIL_TIL', 'SEMI', 'ErrorCharacter',
];

/** The lexer's fixed-text tokens (ANTLR's literal names): punctuation and operators. */
const FIXED_TOKENS: [string, number][] = [
  [',', 9], [':', 10], ['::', 11], ['$', 12], ['$$', 13], ['*', 14], ['(', 15], [')', 16], ['[', 17], [']', 18], ['.', 24],
  ['&', 29], ['&&', 30], ['&<', 31], ['@@', 32], ['@>', 33], ['@', 34], ['!', 35], ['!!', 36], ['!=', 37], ['^', 38],
  ['=', 39], ['=>', 40], ['>', 41], ['>=', 42], ['>>', 43], ['#', 44], ['#=', 45], ['#>', 46], ['#>>', 47], ['##', 48],
  ['->', 49], ['->>', 50], ['-|-', 51], ['<', 52], ['<=', 53], ['<@', 54], ['<^', 55], ['<>', 56], ['<->', 57], ['<<', 58],
  ['<<=', 59], ['<?>', 60], ['-', 61], ['%', 62], ['|', 63], ['||', 64], ['||/', 65], ['|/', 66], ['+', 67], ['?', 68],
  ['?&', 69], ['?#', 70], ['?-', 71], ['?|', 72], ['/', 73], ['~', 74], ['~=', 75], ['~>=~', 76], ['~>~', 77],
  ['~<=~', 78], ['~<~', 79], ['~*', 80], ['~~', 81], [';', 82],
];
const LITERAL_NAMES = new Map(FIXED_TOKENS.map(([text, type]) => [type, `'${text}'`]));
/** Fixed tokens by their first character, longest first (the lexer takes the longest match). */
const FIXED_BY_FIRST = new Map<number, [string, number][]>();
for (const entry of [...FIXED_TOKENS].sort((a, b) => b[0].length - a[0].length)) {
  const first = entry[0].charCodeAt(0);
  FIXED_BY_FIRST.set(first, [...(FIXED_BY_FIRST.get(first) ?? []), entry]);
}
const KEYWORDS: [string, number][] = [['true', TRUE], ['false', FALSE], ['field', FIELD], ['field_by_id', FIELDBYID], ['lookup', LOOKUP]];

/** Binary operators: the function Baserow's AST mapper calls, and the precedence of the grammar. */
const OPERATORS: Record<string, { name: string; precedence: number }> = {
  '*': { name: 'multiply', precedence: 9 },
  '/': { name: 'divide', precedence: 9 },
  '+': { name: 'add', precedence: 8 },
  '-': { name: 'minus', precedence: 8 },
  '&&': { name: 'and', precedence: 7 },
  '||': { name: 'or', precedence: 7 },
  '>': { name: 'greater_than', precedence: 6 },
  '<': { name: 'less_than', precedence: 6 },
  '>=': { name: 'greater_than_or_equal', precedence: 6 },
  '<=': { name: 'less_than_or_equal', precedence: 6 },
  '=': { name: 'equal', precedence: 5 },
  '!=': { name: 'not_equal', precedence: 5 },
};
const OPERATOR_TYPES = new Set([14, 73, 67, 61, 30, 64, 41, 52, 42, 53, 39, 37]);

/** What may start an expression (ANTLR's expectation at the start of `expr`). */
const EXPR_START = [BLOCK_COMMENT, LINE_COMMENT, WHITESPACE, TRUE, FALSE, FIELD, FIELDBYID, LOOKUP, OPEN_PAREN, NUMERIC_LITERAL,
  INTEGER_LITERAL, SINGLEQ_STRING_LITERAL, DOUBLEQ_STRING_LITERAL, IDENTIFIER, IDENTIFIER_UNICODE];
/** What may follow `name(`: an argument or the closing parenthesis. */
const ARGS_START = [...EXPR_START, CLOSE_PAREN];
/** What may follow a complete expression inside `expr`: an operator or whitespace. */
const AFTER_OPERAND = [WHITESPACE, BLOCK_COMMENT, LINE_COMMENT, ...OPERATOR_TYPES];
const STRINGS = [SINGLEQ_STRING_LITERAL, DOUBLEQ_STRING_LITERAL];
const LOOKUP_SECOND = [WHITESPACE, SINGLEQ_STRING_LITERAL, DOUBLEQ_STRING_LITERAL];
const ARG_END = [COMMA, CLOSE_PAREN];

interface Token {
  type: number;
  text: string;
  /** UTF-16 offsets of the token in the formula. */
  start: number;
  end: number;
  /** ANTLR's position: line from 1, column from 0 in code points. */
  line: number;
  col: number;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isWhitespace = (c: number) => c === 32 || c === 9 || c === 13 || c === 10;
const isAsciiIdentStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isAsciiIdentPart = (c: number) => isAsciiIdentStart(c) || isDigit(c);
const isUnicodeIdentStart = (cp: number) => isAsciiIdentStart(cp) || (cp >= 0xa1 && cp <= 0xffff);
const isUnicodeIdentPart = (cp: number) => isUnicodeIdentStart(cp) || isDigit(cp);
const isTrivia = (type: number) => type === WHITESPACE || type === BLOCK_COMMENT || type === LINE_COMMENT;

/** Baserow's lexer: the longest match wins, the rule defined first on a tie; anything else is an ErrorCharacter. */
class Lexer {
  private pos = 0;
  private line = 1;
  private col = 0;
  /** A block comment's `.*` is greedy: it ends at the last `*\/` of the formula. */
  private readonly lastCommentEnd: number;

  constructor(private readonly text: string) {
    this.lastCommentEnd = text.lastIndexOf('*/');
  }

  next(): Token {
    const s = this.text;
    const i = this.pos;
    if (i >= s.length) return { type: EOF, text: '<EOF>', start: s.length, end: s.length, line: this.line, col: this.col };
    const c = s.charCodeAt(i);
    const cp = s.codePointAt(i)!;
    let type = ERROR_CHARACTER;
    let end = i + (cp > 0xffff ? 2 : 1);
    const take = (candidate: number, candidateEnd: number) => {
      if (candidateEnd > end || (candidateEnd === end && candidate < type)) {
        type = candidate;
        end = candidateEnd;
      }
    };

    if (c === 47 /* / */) {
      const c1 = s.charCodeAt(i + 1);
      if (c1 === 42 /* * */ && this.lastCommentEnd >= i + 2) take(BLOCK_COMMENT, this.lastCommentEnd + 2);
      if (c1 === 47) {
        let j = i + 2;
        while (j < s.length && s.charCodeAt(j) !== 10 && s.charCodeAt(j) !== 13) j++;
        take(LINE_COMMENT, j);
      }
    }
    if (isWhitespace(c)) {
      let j = i + 1;
      while (j < s.length && isWhitespace(s.charCodeAt(j))) j++;
      take(WHITESPACE, j);
    }
    if (isUnicodeIdentStart(cp)) this.identifierLike(i, c, take);
    if (isDigit(c) || (c === 45 /* - */ && isDigit(s.charCodeAt(i + 1)))) this.number(i, take);
    if (c === 39 || c === 34) {
      const stringEnd = this.stringEnd(i);
      if (stringEnd > 0) take(c === 39 ? SINGLEQ_STRING_LITERAL : DOUBLEQ_STRING_LITERAL, stringEnd);
    }
    for (const [literal, literalType] of FIXED_BY_FIRST.get(c) ?? []) {
      if (s.startsWith(literal, i)) {
        take(literalType, i + literal.length);
        break;
      }
    }

    const token: Token = { type, text: s.slice(i, end), start: i, end, line: this.line, col: this.col };
    for (let j = i; j < end; j++) {
      const unit = s.charCodeAt(j);
      if (unit === 10) {
        this.line++;
        this.col = 0;
      } else if (!(unit >= 0xdc00 && unit <= 0xdfff && j > 0 && s.charCodeAt(j - 1) >= 0xd800 && s.charCodeAt(j - 1) <= 0xdbff)) {
        this.col++; // a code point: the low half of a surrogate pair is not counted again
      }
    }
    this.pos = end;
    return token;
  }

  /** Identifiers, keywords (ASCII case-insensitive) and the `b'01'`, `e'…'`, `x'…'` literals. */
  private identifierLike(i: number, c: number, take: (type: number, end: number) => void) {
    const s = this.text;
    if (isAsciiIdentStart(c)) {
      let j = i + 1;
      while (j < s.length && isAsciiIdentPart(s.charCodeAt(j))) j++;
      take(IDENTIFIER, j);
    }
    let j = i + 1;
    while (j < s.length && isUnicodeIdentPart(s.codePointAt(j)!)) j++;
    take(IDENTIFIER_UNICODE, j);
    for (const [keyword, keywordType] of KEYWORDS) {
      if (matchesKeyword(s, i, keyword)) take(keywordType, i + keyword.length);
    }
    if (s.charCodeAt(i + 1) !== 39) return;
    if (c === 98 || c === 66 /* b B */) {
      let k = i + 2;
      while (s.charCodeAt(k) === 48 || s.charCodeAt(k) === 49) k++;
      if (s.charCodeAt(k) === 39) take(BIT_STRING, k + 1);
    }
    if (c === 101 || c === 69 /* e E */) {
      const stringEnd = this.stringEnd(i + 1);
      if (stringEnd > 0) take(REGEX_STRING, stringEnd);
    }
    if (c === 120 /* x */) {
      const stringEnd = this.stringEnd(i + 1);
      if (stringEnd > 0) take(HEX_INTEGER_LITERAL, stringEnd);
    }
  }

  /** `-? DIGIT+ '.' DIGIT+ (E '-'* DIGIT+)?` and `-? DIGIT+ (E DIGIT+)?`. */
  private number(i: number, take: (type: number, end: number) => void) {
    const s = this.text;
    let j = s.charCodeAt(i) === 45 ? i + 1 : i;
    while (isDigit(s.charCodeAt(j))) j++;
    const isE = (k: number) => s.charCodeAt(k) === 101 || s.charCodeAt(k) === 69;
    if (s.charCodeAt(j) === 46 && isDigit(s.charCodeAt(j + 1))) {
      let k = j + 1;
      while (isDigit(s.charCodeAt(k))) k++;
      let numericEnd = k;
      if (isE(k)) {
        let m = k + 1;
        while (s.charCodeAt(m) === 45) m++;
        if (isDigit(s.charCodeAt(m))) {
          while (isDigit(s.charCodeAt(m))) m++;
          numericEnd = m;
        }
      }
      take(NUMERIC_LITERAL, numericEnd);
    }
    let integerEnd = j;
    if (isE(j) && isDigit(s.charCodeAt(j + 1))) {
      integerEnd = j + 1;
      while (isDigit(s.charCodeAt(integerEnd))) integerEnd++;
    }
    take(INTEGER_LITERAL, integerEnd);
  }

  /** The end of the quoted string starting at `start` (`\` escapes any character), or -1 if unterminated. */
  private stringEnd(start: number): number {
    const s = this.text;
    const quote = s.charCodeAt(start);
    let j = start + 1;
    while (j < s.length) {
      const unit = s.charCodeAt(j);
      if (unit === 92) {
        if (j + 1 >= s.length) return -1;
        j += 2;
      } else if (unit === quote) {
        return j + 1;
      } else {
        j++;
      }
    }
    return -1;
  }
}

function matchesKeyword(s: string, i: number, keyword: string): boolean {
  for (let k = 0; k < keyword.length; k++) {
    const unit = s.charCodeAt(i + k);
    const expected = keyword.charCodeAt(k);
    if (expected === 95 ? unit !== 95 : (unit | 0x20) !== expected || !isAsciiIdentStart(unit)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Parser

/** Where a parsed expression goes: decides what ANTLR expects after it. */
type Return = 'root' | 'bracket' | 'firstArg' | 'nextArg' | 'rightOperand';

/** A parsed expression, with its nesting depth and its span including any brackets around it. */
interface Operand {
  node: FormulaNode;
  depth: number;
  start: number;
  end: number;
}

/** One `expr` rule invocation: an operand being built, at a precedence. */
interface ExprFrame {
  kind: 'expr';
  precedence: number;
  returnTo: Return;
  left?: Operand;
  operator?: Token;
}
interface BracketFrame {
  kind: 'bracket';
  open: Token;
}
interface CallFrame {
  kind: 'call';
  name: Token;
  args: Operand[];
}
type Frame = ExprFrame | BracketFrame | CallFrame;

/**
 * Parses a Baserow formula. Throws {@link FormulaSyntaxError} with Baserow's message when the
 * text is not a formula (and {@link FormulaTooDeeplyNestedError} when it nests too deeply).
 * Function names are lower-cased; operators become calls of their functions.
 */
export function parseFormula(text: string): FormulaNode {
  return new Parser(String(text)).parse();
}

class Parser {
  private readonly lexer: Lexer;
  private current: Token;
  private following?: Token;
  private readonly stack: Frame[] = [];
  /** Brackets and calls currently open. */
  private open = 0;
  /** The first error Baserow's AST mapper would raise, thrown once the text has parsed. */
  private mapperError?: FormulaSyntaxError;

  constructor(text: string) {
    this.lexer = new Lexer(text);
    this.current = this.lexer.next();
  }

  parse(): FormulaNode {
    const stack = this.stack;
    stack.push({ kind: 'expr', precedence: 0, returnTo: 'root' });
    for (;;) {
      const frame = stack[stack.length - 1] as ExprFrame;
      if (!frame.left) {
        const operand = this.primary();
        if (operand) frame.left = operand;
        continue;
      }
      const type = this.current.type;
      if (isTrivia(type)) {
        this.consume();
        continue;
      }
      const operator = OPERATOR_TYPES.has(type) ? OPERATORS[this.current.text] : undefined;
      if (operator && operator.precedence >= frame.precedence) {
        frame.operator = this.consume();
        stack.push({ kind: 'expr', precedence: operator.precedence + 1, returnTo: 'rightOperand' });
        continue;
      }
      // The expression is complete: hand it to whatever it is part of.
      stack.pop();
      const value = frame.left;
      if (frame.returnTo === 'root') {
        this.match(EOF, () => [EOF]);
        if (this.mapperError) throw this.mapperError;
        return value.node;
      }
      if (frame.returnTo === 'rightOperand') {
        const owner = stack[stack.length - 1] as ExprFrame;
        owner.left = this.binary(owner.left!, owner.operator!, value);
        owner.operator = undefined;
      } else if (frame.returnTo === 'bracket') {
        const bracket = stack.pop() as BracketFrame;
        const close = this.match(CLOSE_PAREN, () => this.followOfOperand(stack.length - 1));
        this.open--;
        const owner = stack[stack.length - 1] as ExprFrame;
        owner.left = this.operand(value.node, value.depth + 1, bracket.open.start, close.end);
      } else {
        const call = stack[stack.length - 1] as CallFrame;
        call.args.push(value);
        this.syncArguments(frame.returnTo === 'firstArg');
        if (this.current.type === COMMA) {
          this.consume();
          stack.push({ kind: 'expr', precedence: 0, returnTo: 'nextArg' });
        } else {
          const close = this.consume();
          stack.pop();
          this.open--;
          (stack[stack.length - 1] as ExprFrame).left = this.call(call.name, call.args, close);
        }
      }
    }
  }

  /** Parses the operand an expression starts with; undefined when it opened a bracket or call (pushed). */
  private primary(): Operand | undefined {
    // Leading whitespace and comments (`ws_or_comment expr`), each followed by a fresh `expr`.
    for (;;) {
      const type = this.current.type;
      if (!EXPR_START.includes(type)) this.failAtBlockStart(EXPR_START);
      if (!isTrivia(type)) break;
      this.consume();
    }
    const frameIndex = this.stack.length - 1;
    const token = this.consume();
    switch (token.type) {
      case SINGLEQ_STRING_LITERAL:
      case DOUBLEQ_STRING_LITERAL: {
        const value = unquote(token.text, token.text[0]);
        if (value.length > MAX_FORMULA_STRING_LENGTH && codePoints(value) > MAX_FORMULA_STRING_LENGTH) {
          this.mapperFailure(`an embedded string in the formula over the maximum length of ${MAX_FORMULA_STRING_LENGTH} `);
        }
        return this.leaf({ kind: 'string', value, start: token.start, end: token.end });
      }
      case INTEGER_LITERAL:
      case NUMERIC_LITERAL:
        if (/[eE]/.test(token.text)) this.mapperFailure(numberWithExponent(token));
        return this.leaf({ kind: 'number', text: token.text, start: token.start, end: token.end });
      case TRUE:
      case FALSE:
        return this.leaf({ kind: 'boolean', value: token.type === TRUE, start: token.start, end: token.end });
      case OPEN_PAREN:
        this.opening();
        this.stack.push({ kind: 'bracket', open: token }, { kind: 'expr', precedence: 0, returnTo: 'bracket' });
        return undefined;
      case FIELD: {
        this.match(OPEN_PAREN, () => STRINGS);
        const name = this.fieldReference([CLOSE_PAREN]);
        const close = this.match(CLOSE_PAREN, () => this.followOfOperand(frameIndex));
        return this.leaf({ kind: 'field', name: unquote(name.text, name.text[0]), start: token.start, end: close.end });
      }
      case FIELDBYID: {
        this.match(OPEN_PAREN, () => [INTEGER_LITERAL]);
        const id = this.match(INTEGER_LITERAL, () => [CLOSE_PAREN]);
        const close = this.match(CLOSE_PAREN, () => this.followOfOperand(frameIndex));
        const value = Number(id.text);
        if (/[eE]/.test(id.text)) this.mapperFailure(numberWithExponent(id));
        else if (!Number.isSafeInteger(value)) {
          this.mapperFailure(`there is no field with id ${id.text} but the formula included a direct reference to it`);
        }
        return this.leaf({ kind: 'field_by_id', id: value, start: token.start, end: close.end });
      }
      case LOOKUP: {
        this.match(OPEN_PAREN, () => STRINGS);
        const through = this.fieldReference([COMMA]);
        this.match(COMMA, () => LOOKUP_SECOND);
        if (!LOOKUP_SECOND.includes(this.current.type)) this.failAtBlockStart(LOOKUP_SECOND);
        if (this.current.type === WHITESPACE) this.consume();
        const target = this.fieldReference([CLOSE_PAREN]);
        const close = this.match(CLOSE_PAREN, () => this.followOfOperand(frameIndex));
        // Baserow unescapes the target with the through field's quote (its mapper does so).
        const quote = through.text[0];
        return this.leaf({ kind: 'lookup', through: unquote(through.text, quote), target: unquote(target.text, quote), start: token.start, end: close.end });
      }
      default: {
        // IDENTIFIER or IDENTIFIER_UNICODE: a function call.
        this.match(OPEN_PAREN, () => ARGS_START);
        if (!ARGS_START.includes(this.current.type)) this.failAtBlockStart(ARGS_START);
        if (this.current.type === CLOSE_PAREN) return this.call(token, [], this.consume());
        this.opening();
        this.stack.push({ kind: 'call', name: token, args: [] }, { kind: 'expr', precedence: 0, returnTo: 'firstArg' });
        return undefined;
      }
    }
  }

  /** After an argument: `,` or `)` (ANTLR's sync at the argument loop's entry, or at its loop back). */
  private syncArguments(first: boolean) {
    if (ARG_END.includes(this.current.type)) return;
    if (first) this.failAtBlockStart(ARG_END);
    this.fail(`extraneous input ${display(this.current)} expecting ${expectation(ARG_END)}`, this.current);
  }

  /** `field_reference`: a string literal. */
  private fieldReference(follow: number[]): Token {
    if (STRINGS.includes(this.current.type)) return this.consume();
    return this.recoverInline(STRINGS, follow);
  }

  /** Matches one token, or fails as ANTLR's recoverInline reports it. */
  private match(type: number, insertable: () => number[]): Token {
    if (this.current.type === type) return this.consume();
    return this.recoverInline([type], insertable());
  }

  /** ANTLR's single token deletion, then single token insertion, then a mismatch. */
  private recoverInline(expected: number[], insertable: number[]): never {
    if (expected.includes(this.peek().type)) {
      this.fail(`extraneous input ${display(this.current)} expecting ${expectation(expected)}`, this.current);
    }
    if (insertable.includes(this.current.type)) {
      this.fail(`missing ${expectation(expected)} at ${display(this.current)}`, this.current);
    }
    return this.fail(`mismatched input ${display(this.current)} expecting ${expectation(expected)}`, this.current);
  }

  /** ANTLR's sync at the start of a block whose alternatives don't match the next token. */
  private failAtBlockStart(expected: number[]): never {
    if (expected.includes(this.peek().type)) {
      this.fail(`extraneous input ${display(this.current)} expecting ${expectation(expected)}`, this.current);
    }
    return this.fail(`mismatched input ${display(this.current)} expecting ${expectation(expected)}`, this.current);
  }

  /**
   * What may follow an operand of the expression at `frameIndex`: an operator or whitespace,
   * or what follows that expression where it is used (ANTLR follows its rule invocations).
   */
  private followOfOperand(frameIndex: number): number[] {
    const follow = [...AFTER_OPERAND];
    for (let i = frameIndex; ; i--) {
      const frame = this.stack[i] as ExprFrame;
      if (frame.returnTo === 'root') return [...follow, EOF];
      if (frame.returnTo === 'bracket') return [...follow, CLOSE_PAREN];
      if (frame.returnTo !== 'rightOperand') return [...follow, ...ARG_END];
    }
  }

  private consume(): Token {
    const token = this.current;
    this.current = this.following ?? this.lexer.next();
    this.following = undefined;
    return token;
  }

  /** The token after the current one (LA(2)). */
  private peek(): Token {
    if (this.current.type === EOF) return this.current;
    this.following ??= this.lexer.next();
    return this.following;
  }

  private fail(message: string, at: Token): never {
    throw new FormulaSyntaxError(`Invalid syntax at line ${at.line}, col ${at.col}: ${message.split('<EOF>').join('the end of the formula')}`);
  }

  private mapperFailure(message: string) {
    this.mapperError ??= new FormulaSyntaxError(message);
  }

  private opening() {
    if (++this.open >= MAX_FORMULA_DEPTH) throw new FormulaTooDeeplyNestedError();
  }

  private operand(node: FormulaNode, depth: number, start: number, end: number): Operand {
    if (depth > MAX_FORMULA_DEPTH) throw new FormulaTooDeeplyNestedError();
    return { node, depth, start, end };
  }

  private leaf(node: FormulaNode): Operand {
    return this.operand(node, 1, node.start, node.end);
  }

  private binary(left: Operand, operator: Token, right: Operand): Operand {
    const node: FormulaNode = { kind: 'call', name: OPERATORS[operator.text].name, args: [left.node, right.node], operator: operator.text, start: left.start, end: right.end };
    return this.operand(node, 1 + Math.max(left.depth, right.depth), left.start, right.end);
  }

  private call(name: Token, args: Operand[], close: Token): Operand {
    const node: FormulaNode = { kind: 'call', name: name.text.toLowerCase(), args: args.map((arg) => arg.node), start: name.start, end: close.end };
    return this.operand(node, 1 + args.reduce((max, arg) => Math.max(max, arg.depth), 0), name.start, close.end);
  }
}

/** A string literal's value, as Baserow's mapper reads it: only the escaped quote is unescaped. */
function unquote(literal: string, quote: string): string {
  return literal.slice(1, -1).split(`\\${quote}`).join(quote);
}

function codePoints(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (!(unit >= 0xdc00 && unit <= 0xdfff && i > 0 && value.charCodeAt(i - 1) >= 0xd800 && value.charCodeAt(i - 1) <= 0xdbff)) count++;
  }
  return count;
}

/** Baserow's lexer reads `1e5` as a number its mapper then fails on; refused here as a syntax error. */
function numberWithExponent(token: Token): string {
  return `Invalid syntax at line ${token.line}, col ${token.col}: the number ${token.text} can't be written with an exponent`;
}

/** ANTLR's getTokenErrorDisplay. */
function display(token: Token): string {
  return `'${token.text.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
}

/** ANTLR's IntervalSet.toString: by token type, braces around more than one. */
function expectation(types: number[]): string {
  const names = [...new Set(types)].sort((a, b) => a - b).map((type) => (type === EOF ? '<EOF>' : (LITERAL_NAMES.get(type) ?? SYMBOLIC_NAMES[type])));
  return names.length === 1 ? names[0] : `{${names.join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------
// Printing

const IDENTIFIER_PATTERN = /^[a-zA-Z_\u00A1-\uFFFF][a-zA-Z_\u00A1-\uFFFF0-9]*$/;
const NUMBER_PATTERN = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * Prints a formula as canonical text that parses back to the same tree: single-quoted
 * strings (double quotes when only those can hold the value), `field('Name')`, operators infix
 * with spaces and only the brackets precedence needs, no comments. Throws
 * {@link FormulaSyntaxError} for what Baserow's syntax cannot write, e.g. a string ending in a
 * lone backslash.
 */
export function formulaToText(node: FormulaNode): string {
  return print(node, 1);
}

function print(node: FormulaNode, depth: number): string {
  if (depth > MAX_FORMULA_DEPTH) throw new FormulaTooDeeplyNestedError();
  switch (node.kind) {
    case 'string':
      return stringLiteral(node.value);
    case 'number':
      if (!NUMBER_PATTERN.test(node.text)) throw new FormulaSyntaxError(`${node.text} is not a number a formula can contain`);
      return node.text;
    case 'boolean':
      return node.value ? 'true' : 'false';
    case 'field':
      return `field(${stringLiteral(node.name)})`;
    case 'field_by_id':
      if (!Number.isSafeInteger(node.id)) throw new FormulaSyntaxError(`${node.id} is not a field id`);
      return `field_by_id(${node.id})`;
    case 'lookup': {
      for (const quote of ["'", '"']) {
        const through = quoted(node.through, quote);
        const target = quoted(node.target, quote);
        if (through !== undefined && target !== undefined) return `lookup(${through}, ${target})`;
      }
      throw new FormulaSyntaxError(`the names ${node.through} and ${node.target} can't be written in a formula`);
    }
    case 'call': {
      if (node.operator !== undefined) {
        const operator = OPERATORS[node.operator];
        if (!operator || operator.name !== node.name || node.args.length !== 2) {
          throw new FormulaSyntaxError(`${node.operator} is not the operator of ${node.name}`);
        }
        const [left, right] = node.args;
        const leftText = print(left, depth + 1);
        const rightText = print(right, depth + 1);
        const wrapLeft = precedenceOf(left) < operator.precedence;
        const wrapRight = precedenceOf(right) <= operator.precedence;
        return `${wrapLeft ? `(${leftText})` : leftText} ${node.operator} ${wrapRight ? `(${rightText})` : rightText}`;
      }
      if (!IDENTIFIER_PATTERN.test(node.name) || KEYWORDS.some(([keyword]) => keyword === node.name.toLowerCase())) {
        throw new FormulaSyntaxError(`${node.name} is not a function name a formula can contain`);
      }
      return `${node.name}(${node.args.map((arg) => print(arg, depth + 1)).join(', ')})`;
    }
  }
}

/**
 * The text of a `field('…')` or `lookup('…', '…')` reference written at `node`'s span of
 * `text`, with its names (one for field, two for lookup) replaced and all else kept as
 * written: the function's spelling, each name's quotes where they can hold it, the whitespace
 * after lookup's comma (Baserow's update_field_names).
 */
export function renamedReference(text: string, node: Extract<FormulaNode, { kind: 'field' | 'lookup' }>, names: readonly string[]): string {
  const span = text.slice(node.start, node.end);
  let at = span.indexOf('(') + 1;
  const parts = [span.slice(0, at)];
  names.forEach((name, k) => {
    const quote = span[at];
    let end = at + 1;
    while (end < span.length && span[end] !== quote) end += span[end] === '\\' ? 2 : 1;
    parts.push(quoted(name, quote) ?? stringLiteral(name));
    at = end + 1;
    if (k < names.length - 1) {
      // The comma and whitespace up to the next name's quote.
      let next = at;
      while (next < span.length && span[next] !== "'" && span[next] !== '"') next++;
      parts.push(span.slice(at, next));
      at = next;
    }
  });
  parts.push(span.slice(at));
  return parts.join('');
}

function precedenceOf(node: FormulaNode): number {
  return node.kind === 'call' && node.operator !== undefined ? (OPERATORS[node.operator]?.precedence ?? Infinity) : Infinity;
}

function stringLiteral(value: string): string {
  const literal = quoted(value, "'") ?? quoted(value, '"');
  if (literal === undefined) throw new FormulaSyntaxError(`the text ${value} can't be written in a formula`);
  return literal;
}

/**
 * `value` as a literal in `quote`, or undefined if it has none: inside quotes a backslash always
 * escapes the next character, and Baserow only turns an escaped quote back into the quote, so a
 * backslash must be followed by a character other than the quote.
 */
function quoted(value: string, quote: string): string | undefined {
  const parts: string[] = [quote];
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (char === quote) {
      parts.push('\\', quote);
    } else if (char === '\\') {
      const next = value[i + 1];
      if (next === undefined || next === quote) return undefined;
      parts.push('\\', next);
      i++;
    } else {
      parts.push(char);
    }
  }
  parts.push(quote);
  return parts.join('');
}
