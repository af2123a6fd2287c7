/**
 * The changelog held by snapshots: every row that reached the sink, oldest first, as one flat
 * persistent vector of slots. Row i takes `width + 2` slots: its values, then a code for its kind
 * and rule, then its step. A million-row changelog is then a few hundred thousand 32-slot leaves
 * instead of three objects per row (an Emitted, a row array and its backing store), which is
 * most of what a long run retains and what the garbage collector keeps copying.
 *
 * Reads rebuild `Emitted` rows (with the rule-only Why of a bulk run: the full reason comes from a
 * traced replay of the row's step, see Timeline.whyOf).
 */
import type { Row, RowKind } from '../values/types.js';
import { ROW_KINDS } from '../values/types.js';
import { PVEC_EMPTY, pvPushAll, pvSlice, type PVec } from './collections/pvec.js';
import type { Emitted } from './types.js';
import { bulkWhy } from './why.js';

export interface Changelog {
  /** Rows so far. */
  readonly n: number;
  /** Output columns per row. */
  readonly width: number;
  readonly slots: PVec<unknown>;
}

export function emptyChangelog(width: number): Changelog {
  return { n: 0, width, slots: PVEC_EMPTY };
}

/** Rules get small numbers in the order first seen (process-wide; codes never leave the process). */
const RULES: string[] = [];
const RULE_CODES = new Map<string, number>();

function ruleCode(rule: string): number {
  let c = RULE_CODES.get(rule);
  if (c === undefined) {
    c = RULES.length;
    RULES.push(rule);
    RULE_CODES.set(rule, c);
  }
  return c;
}

/** The changelog with one more row (its values are copied: `row` is not kept). */
export function clPush(c: Changelog, kind: RowKind, row: Row, step: number, rule: string): Changelog {
  const w = c.width;
  const add = new Array<unknown>(w + 2);
  for (let i = 0; i < w; i++) add[i] = row[i] ?? null;
  add[w] = ROW_KINDS.indexOf(kind) + 4 * ruleCode(rule);
  add[w + 1] = step;
  return { n: c.n + 1, width: w, slots: pvPushAll(c.slots, add) };
}

function decode(width: number, s: readonly unknown[], at: number): Emitted {
  const code = s[at + width] as number;
  return {
    kind: ROW_KINDS[code & 3] as RowKind,
    row: s.slice(at, at + width) as Row,
    step: s[at + width + 1] as number,
    why: bulkWhy(RULES[code >> 2] as string),
  };
}

/** Row i (0 <= i < n). */
export function clGet(c: Changelog, i: number): Emitted {
  if (i < 0 || i >= c.n || !Number.isInteger(i)) throw new RangeError(`clGet: row ${i} out of range 0..${c.n - 1}`);
  return clSlice(c, i, i + 1)[0]!;
}

/** Rows [from, to), clamped to 0..n. */
export function clSlice(c: Changelog, from: number, to: number): Emitted[] {
  const lo = Math.max(0, Math.floor(from));
  const hi = Math.min(c.n, Math.floor(to));
  if (hi <= lo) return [];
  const stride = c.width + 2;
  const s = pvSlice(c.slots, lo * stride, hi * stride);
  const out: Emitted[] = [];
  for (let at = 0; at < s.length; at += stride) out.push(decode(c.width, s, at));
  return out;
}

export function clToArray(c: Changelog): Emitted[] {
  return clSlice(c, 0, c.n);
}
