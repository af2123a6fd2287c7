/**
 * A tiny expression evaluator for engine tests (columns, literals, a few calls), so that the
 * engine's tests do not depend on the full evaluator in src/values/eval.ts.
 */
import type { TExpr } from '../../src/planner/plan.js';
import type { Row, Value } from '../../src/values/types.js';

export function miniCompile(e: TExpr): (row: Row, ctx: { procTime: number }) => Value {
  switch (e.k) {
    case 'col':
      return (row) => row[e.index] ?? null;
    case 'lit':
      return () => e.value;
    case 'cast':
      return miniCompile(e.arg);
    case 'case':
      throw new Error('case not supported in the mini evaluator');
    case 'call': {
      const args = e.args.map(miniCompile);
      const num = (f: (a: number, b: number) => Value) => (row: Row, ctx: { procTime: number }) => {
        const a = args[0]!(row, ctx);
        const b = args[1]!(row, ctx);
        return a === null || b === null ? null : f(a as number, b as number);
      };
      switch (e.fn) {
        case '+':
          return num((a, b) => a + b);
        case '-':
          return num((a, b) => a - b);
        case '=':
          return num((a, b) => a === b);
        case '>':
          return num((a, b) => a > b);
        case 'PROCTIME':
          return (_row, ctx) => ctx.procTime;
        default:
          throw new Error(`${e.fn} not supported in the mini evaluator`);
      }
    }
  }
}
