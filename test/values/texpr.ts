/** Small builders of planner expressions for the evaluator tests. */
import type { TExpr } from '../../src/planner/plan.js';
import type { SqlType, Value } from '../../src/values/types.js';

export const T = (kind: SqlType['kind'], precision?: number, scale?: number, nullable = true): SqlType => ({ kind, nullable, precision, scale });
export const INT = T('INT');
export const BIGINT = T('BIGINT');
export const BOOL = T('BOOLEAN');
export const STR = T('STRING', 2147483647);
export const DBL = T('DOUBLE');
export const dec = (p: number, s: number): SqlType => T('DECIMAL', p, s);
export const TS = T('TIMESTAMP', 3);
export const LTZ = T('TIMESTAMP_LTZ', 3);

export const col = (index: number, type: SqlType): TExpr => ({ k: 'col', type, index, name: `c${index}` });
export const lit = (value: Value, type: SqlType): TExpr => ({ k: 'lit', type, value });
export const call = (fn: string, type: SqlType, ...args: TExpr[]): TExpr => ({ k: 'call', fn, type, args });
export const cast = (arg: TExpr, type: SqlType, tryCast = false): TExpr => ({ k: 'cast', type, arg, try: tryCast });
export const NULL_LIT: TExpr = { k: 'lit', type: T('NULL'), value: null };
