import type { FormulaFunction } from './function';

export const DATE_FUNCTIONS: FormulaFunction[] = [];
