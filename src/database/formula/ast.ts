/**
 * The syntax tree of a Baserow formula, as the parser produces it. Operators are already
 * calls of their functions (`1 + 2` is `add(1, 2)`), as Baserow's AST mapper makes them;
 * `start`/`end` are character offsets in the formula text.
 */
export type FormulaNode =
  | { kind: 'string'; value: string; start: number; end: number }
  /** A decimal literal, kept as written (`1`, `1.50`), so no precision is lost. */
  | { kind: 'number'; text: string; start: number; end: number }
  | { kind: 'boolean'; value: boolean; start: number; end: number }
  /** `field('Name')` */
  | { kind: 'field'; name: string; start: number; end: number }
  /** `field_by_id(12)` (Baserow's internal form; accepted as written). */
  | { kind: 'field_by_id'; id: number; start: number; end: number }
  /** `lookup('link field', 'target field')` */
  | { kind: 'lookup'; through: string; target: string; start: number; end: number }
  /** A function call, or an operator mapped to its function (`operator` keeps the symbol for error texts). */
  | { kind: 'call'; name: string; args: FormulaNode[]; operator?: string; start: number; end: number };

/** The formula text is not valid Baserow formula syntax (the parser's message, as Baserow words it). */
export class FormulaSyntaxError extends Error {}
