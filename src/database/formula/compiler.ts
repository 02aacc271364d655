import { DEFAULT_FORMULA_MAX_TEXT_LENGTH } from '../../core/config/config';
import { Sql } from '../../core/database/sql';
import type { FieldEntity } from '../fields/field.entity';
import type { FormulaNode } from './ast';
import type { CompileScope, Expr } from './expr';
import { callName } from './expr';
import type { FormulaDialect } from './formula-dialect';
import { formulaTypes, FormulaType } from './formula-type';
import type { FormulaFunctionRegistry } from './functions/function';
import { beyondRangeToNan } from './functions/number';
import { boundedText } from './functions/text-bounds';
import { FieldReferences } from './references';

/** A field a formula reads: directly, or through a link field (`via`, a lookup). */
export interface FormulaDependency {
  fieldId: number;
  viaFieldId: number | null;
}

/** A name a formula reads that names no field (yet): it recovers when such a field appears. */
export interface BrokenReference {
  tableId: number;
  name: string;
}

/** What the compiler knows of the tables a formula may read. */
export interface FormulaSchema {
  /** The table the formula belongs to, and its live fields. */
  tableId: number;
  fields: FieldEntity[];
  /** The live fields of another table (lookups through links). */
  fieldsOf(tableId: number): FieldEntity[];
  /** The field being typed (its own references are self references); null for the type endpoint. */
  selfId: number | null;
}

export interface CompiledFormula {
  /** The result; `invalid` with its error when the formula does not type. */
  expr: Expr;
  dependencies: FormulaDependency[];
  broken: BrokenReference[];
  /** A field referenced is the formula itself, or (circular) depends on it. */
  selfReference: boolean;
}


/**
 * Types a parsed formula and compiles it to SQL computing its value for the row aliased
 * `alias`: field references read their columns (formulas read their stored values), lookups
 * and link fields are relations, functions come from the registry. Errors do not throw:
 * they make the result `invalid` with Baserow's text, all of them joined by ", ".
 */
export class FormulaCompiler {
  private readonly references: FieldReferences;

  constructor(
    private readonly functions: FormulaFunctionRegistry,
    private readonly db: FormulaDialect,
    private readonly maxTextLength = DEFAULT_FORMULA_MAX_TEXT_LENGTH,
  ) {
    this.references = new FieldReferences(db);
  }

  /** `sql` must be `numbered`: functions may write an argument's SQL (and its placeholders) twice. */
  compile(node: FormulaNode, schema: FormulaSchema, sql: Sql, alias = 't'): CompiledFormula {
    let counter = 0;
    const scope: CompileScope = {
      sql,
      db: this.db,
      alias,
      nextAlias: (prefix) => `${prefix}${++counter}`,
      text: (value) => (this.db.name === 'postgres' ? `CAST(${sql.param(value)} AS text)` : sql.param(value)),
      maxTextLength: this.maxTextLength,
    };
    const result: CompiledFormula = { expr: formulaTypes.invalid(''), dependencies: [], broken: [], selfReference: false } as never;
    result.expr = this.node(node, schema, scope, result);
    // Baserow's wrap_at_field_level of numbers (error_to_nan): beyond its decimals is NaN.
    if (result.expr.type.name === 'number' && !result.expr.relation) result.expr = { ...result.expr, sql: beyondRangeToNan(scope, result.expr.sql) };
    // A text longer than the formula text limit (a field's, or one no function bounded) is the error value.
    if (['text', 'char', 'url'].includes(result.expr.type.name) && !result.expr.relation) result.expr = { type: result.expr.type, sql: boundedText(scope, result.expr.sql) };
    return result;
  }

  private node(node: FormulaNode, schema: FormulaSchema, scope: CompileScope, out: CompiledFormula): Expr {
    switch (node.kind) {
      case 'string':
        return { type: formulaTypes.text(), sql: scope.text(node.value), literal: node.value };
      case 'number': {
        const places = node.text.includes('.') ? node.text.length - node.text.indexOf('.') - 1 : 0;
        return { type: formulaTypes.number(places), sql: this.db.number(node.text), literal: Number(node.text) };
      }
      case 'boolean':
        return { type: formulaTypes.boolean(), sql: node.value ? 'TRUE' : 'FALSE', literal: node.value };
      case 'field_by_id':
        return invalid("It is no longer possible to reference a field by it's ID in the Baserowformula language.");
      case 'field': {
        const field = schema.fields.find((f) => f.name === node.name);
        if (!field) {
          out.broken.push({ tableId: schema.tableId, name: node.name });
          return invalid(`references the deleted or unknown field ${node.name}`);
        }
        if (field.id === schema.selfId) out.selfReference = true;
        out.dependencies.push({ fieldId: field.id, viaFieldId: null });
        // A link field reads as the linked rows' primary values: those are read through it.
        if (field.type === 'link_row') {
          const primary = schema.fieldsOf(Number(field.properties.link_row_table_id)).find((f) => f.primary);
          if (primary) out.dependencies.push({ fieldId: primary.id, viaFieldId: field.id });
        }
        return this.references.read(field, scope, scope.alias, (tableId) => schema.fieldsOf(tableId));
      }
      case 'lookup': {
        const through = schema.fields.find((f) => f.name === node.through);
        if (!through) {
          out.broken.push({ tableId: schema.tableId, name: node.through });
          return invalid(`references the deleted or unknown field ${node.through}`);
        }
        out.dependencies.push({ fieldId: through.id, viaFieldId: null });
        if (through.type !== 'link_row') return invalid(`first lookup function argument must be a link row field reference`);
        const targetTableId = Number(through.properties.link_row_table_id);
        const target = schema.fieldsOf(targetTableId).find((f) => f.name === node.target);
        if (!target) {
          out.broken.push({ tableId: targetTableId, name: node.target });
          return invalid(`references the deleted or unknown lookup field ${node.target} in table linked to by ${node.through}`);
        }
        out.dependencies.push({ fieldId: target.id, viaFieldId: through.id });
        return this.references.lookup(through, target, scope, (tableId) => schema.fieldsOf(tableId));
      }
      case 'call':
        return this.call(node, schema, scope, out);
    }
  }

  private call(node: Extract<FormulaNode, { kind: 'call' }>, schema: FormulaSchema, scope: CompileScope, out: CompiledFormula): Expr {
    // Arguments first: their references count (self references, dependencies) even in a bad call.
    const args = node.args.map((arg) => this.node(arg, schema, scope, out));
    const fn = this.functions.get(node.name);
    if (!fn) return invalid(`it used the unknown function ${node.name}`);
    const site = { name: node.name, operator: fn.operator };
    const { min, max } = fn.arity;
    if (args.length < min || args.length > max) return invalid(arityError(callName(site), args.length, min, max));
    const errors = args.filter((a) => a.type.name === 'invalid').map((a) => a.type.error!);
    if (errors.length) return invalid(errors.join(', '));
    const arrays = args.filter((a) => a.relation);
    if (!fn.aggregate && arrays.length) {
      if (arrays.length > 1) return invalid(`${callName(site)} can only be given one array argument`);
      // Applied to each element of the one array argument: the result is an array of the results.
      const array = arrays[0];
      const element = fn.apply(
        args.map((a) => (a === array ? { type: a.type.sub!, sql: a.sql } : a)),
        scope,
        site,
      );
      if (typeof element === 'string') return invalid(element);
      if (element.type.name === 'invalid' || element.relation) return element;
      return { type: formulaTypes.array(element.type), sql: element.sql, relation: array.relation };
    }
    const result = fn.apply(args, scope, site);
    return typeof result === 'string' ? invalid(result) : result;
  }
}

function invalid(error: string): Expr {
  return { type: formulaTypes.invalid(error), sql: 'NULL' };
}

/** Baserow's wording of a wrong argument count. */
function arityError(name: string, given: number, min: number, max: number): string {
  const was = given === 1 ? '1 argument was' : `${given} arguments were`;
  const plural = (n: number) => (n === 1 ? `${n} argument` : `${n} arguments`);
  const expected = min === max ? `exactly ${plural(min)}` : max === Infinity ? `more than ${min - 1} arguments` : `more than ${min} and less than ${max} (inclusive=True) arguments`;
  return `${was} given to the ${name}, it must instead be given ${expected}`;
}

export type { FormulaType };
