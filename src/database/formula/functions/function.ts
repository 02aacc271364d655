import { Injectable } from '@nestjs/common';
import { TypeRegistry } from '../../../core/registry/type-registry';
import type { CallSite, CompileScope, Expr } from '../expr';

/**
 * One function of Baserow's formula language. `type` is its name as formulas call it
 * (`upper`, `add`, …; operators are calls of `add`, `minus`, `equal`…). One file per
 * category in this folder; a module adds functions by registering them.
 */
export interface FormulaFunction {
  readonly type: string;
  /** The operator that calls it (`+` for add), which names it in error texts (`operator +`). */
  readonly operator?: string;
  /** How many arguments it takes: `max` Infinity for variadic ones (`concat`). */
  readonly arity: { min: number; max: number };
  /**
   * Takes array arguments as arrays (`sum`, `join`, `filter`, `count`…). Other functions
   * given one array argument are applied to each element (Baserow's behaviour: `upper(lookup(…))`
   * is an array of upper-cased texts); the compiler does that mapping.
   */
  readonly aggregate?: boolean;
  /**
   * Checks the argument types and compiles the call. A wrong argument type answers Baserow's
   * error text (see `argumentError`); the compiler turns it into the formula's error.
   */
  apply(args: Expr[], scope: CompileScope, call: CallSite): Expr | string;
}

@Injectable()
export class FormulaFunctionRegistry extends TypeRegistry<FormulaFunction> {
  protected readonly kind = 'Formula function';
}
