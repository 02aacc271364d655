import { FORMULA_ERROR_TEXT } from '../error-value';
import type { CompileScope } from '../expr';
import { once } from './args';

/*
 * The bound on formula texts (FORMULA_MAX_TEXT_LENGTH, `scope.maxTextLength`): a cell whose
 * text would be longer is the error value `#ERROR!`. The functions that multiply text (concat
 * and `+`, replace, join) check the length of their result from the lengths of their inputs,
 * before building it, so no step holds more than a few times the bound (the database's own
 * limits, SQLite's "string or blob too big", are never reached); the stored value is checked
 * once more (a field read as it is). On both databases the same SQL decides, so both answer
 * the same.
 */

const ERROR = `'${FORMULA_ERROR_TEXT}'`;

/** `text`, or the error value when longer than the bound. */
export function boundedText(scope: CompileScope, text: string): string {
  return once(scope, [text], ([v]) => `CASE WHEN length(${v}) > ${scope.maxTextLength} THEN ${ERROR} ELSE ${v} END`);
}

/** The parts joined (`||`), or the error value when their lengths add up past the bound (NULL when a part is NULL). */
export function boundedConcat(scope: CompileScope, parts: string[]): string {
  return once(scope, parts, (refs) => `CASE WHEN ${refs.map((ref) => `length(${ref})`).join(' + ')} > ${scope.maxTextLength} THEN ${ERROR} ELSE ${refs.join(' || ')} END`);
}

/**
 * `replace(text, from, to)`, or the error value when the result would be longer than the
 * bound: its length is the text's plus, for each occurrence (counted by removing them all),
 * the difference between `to` and `from`.
 */
export function boundedReplace(scope: CompileScope, text: string, from: string, to: string): string {
  return once(scope, [text, from, to], ([t, f, r]) => {
    const occurrences = `((length(${t}) - length(replace(${t}, ${f}, ''))) / length(${f}))`;
    const replaced = `replace(${t}, ${f}, ${r})`;
    // CASE keeps the order: no division by an empty "from", no count when the text cannot grow.
    return `CASE WHEN length(${f}) = 0 OR length(${r}) <= length(${f}) THEN ${replaced} WHEN length(${t}) + ${occurrences} * (length(${r}) - length(${f})) > ${scope.maxTextLength} THEN ${ERROR} ELSE ${replaced} END`;
  });
}

/** `value` unless `tooLong` (a condition) holds, then the error value. */
export function errorWhen(tooLong: string, value: string): string {
  return `CASE WHEN ${tooLong} THEN ${ERROR} ELSE ${value} END`;
}
