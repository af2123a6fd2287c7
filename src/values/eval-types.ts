import type { Row, Value } from './types.js';

/** What an expression may read besides its row. */
export interface EvalContext {
  /** Processing time (epoch ms) for PROCTIME(), NOW(), CURRENT_TIMESTAMP. */
  procTime: number;
  /** Session time zone (table.local-time-zone) for TIMESTAMP_LTZ conversions. */
  timeZone: string;
  /** The operator's current watermark for CURRENT_WATERMARK(); absent or WM_MIN = none yet (null). */
  watermark?: number;
}

/** A compiled expression. */
export type Fn = (row: Row, ctx: EvalContext) => Value;
