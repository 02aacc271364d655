/**
 * The value a text formula gives for a cell it cannot compute, as Baserow's `try_regexp_replace`
 * answers it: an invalid regular expression, or a result longer than the formula text limit
 * (FORMULA_MAX_TEXT_LENGTH). Plain constant: the SQLite functions (loaded by the read workers)
 * import it too.
 */
export const FORMULA_ERROR_TEXT = '#ERROR!';
