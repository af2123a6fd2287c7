/**
 * The run context's compiled expressions (context.ts): what they see of the run, and compiling
 * the plan's expressions into them.
 */
import type { TExpr } from '../planner/plan.js';
import { compileExpr } from '../values/eval.js';
import type { Row, Value } from '../values/types.js';

/** What compiled expressions see of the run (structurally src/values/eval.ts EvalContext). */
export interface EvalCtx {
  procTime: number;
  timeZone: string;
}

export type Compiled = (row: Row, ctx: EvalCtx) => Value;

export const compile = (e: TExpr): Compiled => compileExpr(e) as Compiled;
