export const DIALECT = Symbol('DIALECT');
