import { ARRAY_FUNCTIONS } from './array';
import { DATE_FUNCTIONS } from './date';
import type { FormulaFunction } from './function';
import { LOGIC_FUNCTIONS } from './logic';
import { NUMBER_FUNCTIONS } from './number';
import { TEXT_FUNCTIONS } from './text';

/** Every function of the formula language, registered by the formula module. */
export const FORMULA_FUNCTIONS: readonly FormulaFunction[] = [...TEXT_FUNCTIONS, ...LOGIC_FUNCTIONS, ...NUMBER_FUNCTIONS, ...DATE_FUNCTIONS, ...ARRAY_FUNCTIONS];
