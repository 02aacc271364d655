import { ApiError } from '../../core/errors/api-error';

const THROUGH = 'The provided through field does not exist, is in a different table or is not a link row field.';
const TARGET = 'The provided target field does not exist or is in a different table to the table linked to by the through field.';

/** The errors of computed fields, as Baserow answers them. */
export const FormulaErrors = {
  withFormula: (error: string) => new ApiError('ERROR_WITH_FORMULA', 400, `Error with formula: ${error}.`),
  tooDeeplyNested: () => new ApiError('ERROR_TOO_DEEPLY_NESTED_FORMULA', 400, 'The formula is too deeply nested.'),
  selfReference: () => new ApiError('ERROR_FIELD_SELF_REFERENCE', 400, 'Fields cannot reference themselves.'),
  circularReference: () => new ApiError('ERROR_FIELD_CIRCULAR_REFERENCE', 400, 'Fields cannot reference each other resulting in a circular chain of references.'),
  lookupThrough: () => new ApiError('ERROR_INVALID_LOOKUP_THROUGH_FIELD', 400, THROUGH),
  lookupTarget: () => new ApiError('ERROR_INVALID_LOOKUP_TARGET_FIELD', 400, TARGET),
  rollupThrough: () => new ApiError('ERROR_INVALID_ROLLUP_THROUGH_FIELD', 400, THROUGH),
  rollupTarget: () => new ApiError('ERROR_INVALID_ROLLUP_TARGET_FIELD', 400, TARGET),
  rollupFunction: () => new ApiError('ERROR_INVALID_ROLLUP_FORMULA_FUNCTION', 400, 'The provided rollup formula function does not exist.'),
  countThrough: () => new ApiError('ERROR_INVALID_COUNT_THROUGH_FIELD', 400, THROUGH),
};
