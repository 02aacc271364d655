import type { FormulaFunction } from './function';

export const NUMBER_FUNCTIONS: FormulaFunction[] = [];
