import type { FormulaFunction } from './function';

export const ARRAY_FUNCTIONS: FormulaFunction[] = [];
