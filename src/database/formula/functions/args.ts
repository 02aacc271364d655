import type { CallSite, Expr } from '../expr';
import { callName } from '../expr';
import type { FormulaType, FormulaTypeName } from '../formula-type';

/**
 * The types each type name also accepts, as Baserow's type classes inherit: `char` and `url`
 * are kinds of `text`, `button` is a kind of `link` (an argument of `text` type takes them all).
 */
const SUBTYPES: Partial<Record<FormulaTypeName, readonly FormulaTypeName[]>> = {
  text: ['char', 'url'],
  link: ['button'],
};

/** Whether a value of type `got` may be given where `usable` (a type name) is asked for. */
export function accepts(usable: string, got: FormulaTypeName): boolean {
  return usable === got || (SUBTYPES[usable as FormulaTypeName]?.includes(got) ?? false);
}

/**
 * Baserow's text for an argument of a type the function cannot use. `usable` names the types
 * (or, for checks that are not a type, Baserow's words for them, like
 * `a list of single_select values obtained from a lookup`).
 */
export function argumentError(call: CallSite, index: number, got: FormulaType, usable: readonly string[]): string {
  const allowed =
    usable.length === 0
      ? 'there are no possible types usable here'
      : usable.length === 1
        ? `the only usable type for this argument is ${usable[0]}`
        : `the only usable types for this argument are ${usable.join(',')}`;
  return `argument number ${index + 1} given to ${callName(call)} was of type ${got.name} but ${allowed}`;
}

/**
 * Checks every argument against the types usable at its position (the last entry applies to
 * any further arguments of a variadic function), as Baserow does: every argument that does
 * not fit answers its error, all of them joined by ", "; null when all fit.
 */
export function checkArgs(call: CallSite, args: Expr[], usable: readonly (readonly FormulaTypeName[])[]): string | null {
  const errors: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const allowed = usable[Math.min(i, usable.length - 1)];
    if (!allowed.some((name) => accepts(name, args[i].type.name))) errors.push(argumentError(call, i, args[i].type, allowed));
  }
  return errors.length ? errors.join(', ') : null;
}
