/**
 * Interval-join detection, following Flink's IntervalJoinUtil.extractWindowBoundsFromPredicate:
 * a time predicate compares a time attribute of each input (same kind, nothing else but
 * constants); the join is an interval join only with exactly one lower and one upper bound, or a
 * single equality. One bound alone leaves a regular join with the comparison as a condition.
 */
import type { Conjunct } from './conditions.js';
import type { TExpr, TimeAttrKind } from './plan.js';
import { columnAt, type Scope } from './scope.js';

interface TimeAccess {
  readonly index: number;
  readonly kind: TimeAttrKind;
  readonly left: boolean;
}

export interface TimePredicate {
  readonly conjunct: Conjunct;
  readonly kind: TimeAttrKind;
  /** The comparison's left operand reads the left input's time attribute. */
  readonly leftInputOnLeftSide: boolean;
  readonly leftTime: number;
  /** Index in the joined row. */
  readonly rightTime: number;
}

export interface IntervalBounds {
  readonly lowerMs: number;
  readonly upperMs: number;
  readonly kind: TimeAttrKind;
  readonly leftTime: number;
  readonly rightTime: number;
  readonly timePredicates: readonly Conjunct[];
}

const COMPARISONS = ['>', '>=', '<', '<=', '='];

function accesses(e: TExpr, scope: Scope, leftWidth: number): TimeAccess[] | 'non-time' {
  switch (e.k) {
    case 'col': {
      const kind = columnAt(scope, e.index)?.timeAttr;
      if (!kind) return 'non-time';
      return [{ index: e.index, kind, left: e.index < leftWidth }];
    }
    case 'lit':
      return [];
    case 'cast':
      return accesses(e.arg, scope, leftWidth);
    case 'call': {
      const out: TimeAccess[] = [];
      for (const a of e.args) {
        const r = accesses(a, scope, leftWidth);
        if (r === 'non-time') return r;
        out.push(...r);
      }
      return out;
    }
    case 'case':
      return 'non-time';
  }
}

export function identifyTimePredicate(c: Conjunct, scope: Scope, leftWidth: number): TimePredicate | undefined {
  const e = c.e;
  if (e.k !== 'call' || !COMPARISONS.includes(e.fn) || e.args.length !== 2) return undefined;
  const l = accesses(e.args[0] as TExpr, scope, leftWidth);
  const r = accesses(e.args[1] as TExpr, scope, leftWidth);
  if (l === 'non-time' || r === 'non-time' || l.length !== 1 || r.length !== 1) return undefined;
  const [a, b] = [l[0] as TimeAccess, r[0] as TimeAccess];
  if (a.kind !== b.kind || a.left === b.left) return undefined;
  return {
    conjunct: c,
    kind: a.kind,
    leftInputOnLeftSide: a.left,
    leftTime: a.left ? a.index : b.index,
    rightTime: a.left ? b.index : a.index,
  };
}

/** Reduces a side of a time predicate to a millisecond offset, with time attributes as 0. */
function reduce(e: TExpr): number | undefined {
  switch (e.k) {
    case 'col':
      return 0;
    case 'lit':
      return typeof e.value === 'number' && e.type.kind === 'INTERVAL' ? e.value : undefined;
    case 'cast':
      return reduce(e.arg);
    case 'call': {
      const vals = e.args.map(reduce);
      if (vals.some((v) => v === undefined)) return undefined;
      const [x, y] = vals as number[];
      if (e.fn === '+' && y !== undefined) return (x as number) + y;
      if (e.fn === '-' && y !== undefined) return (x as number) - y;
      if (e.fn === 'NEG') return -(x as number);
      return undefined;
    }
    case 'case':
      return undefined;
  }
}

function boundOf(p: TimePredicate): { bound: number; isLeftLower: boolean } | undefined {
  const e = p.conjunct.e;
  if (e.k !== 'call') return undefined;
  const l = reduce(e.args[0] as TExpr);
  const r = reduce(e.args[1] as TExpr);
  if (l === undefined || r === undefined) return undefined;
  const isLeftLower = e.fn === '>' || e.fn === '>=' ? p.leftInputOnLeftSide : e.fn === '<' || e.fn === '<=' ? !p.leftInputOnLeftSide : true;
  const offset = p.leftInputOnLeftSide ? r - l : l - r;
  // a strict comparison moves the inclusive bound by one millisecond
  let bound = offset;
  if (e.fn === '<') bound = p.leftInputOnLeftSide ? offset - 1 : offset + 1;
  if (e.fn === '>') bound = p.leftInputOnLeftSide ? offset + 1 : offset - 1;
  return { bound, isLeftLower };
}

/** The interval bounds, or undefined when Flink would plan a regular join. */
export function extractIntervalBounds(conjuncts: readonly Conjunct[], scope: Scope, leftWidth: number): IntervalBounds | undefined {
  const preds = conjuncts.map((c) => identifyTimePredicate(c, scope, leftWidth)).filter((p): p is TimePredicate => p !== undefined);
  const isEq = (p: TimePredicate): boolean => p.conjunct.e.k === 'call' && p.conjunct.e.fn === '=';
  if (preds.length === 0 || preds.length > 2) return undefined;
  if (preds.length === 1 && !isEq(preds[0] as TimePredicate)) return undefined;
  if (preds.length === 2 && preds.some(isEq)) return undefined;
  const bounds = preds.map(boundOf);
  if (bounds.some((b) => b === undefined)) return undefined;
  let lower: number;
  let upper: number;
  if (bounds.length === 1) {
    lower = upper = (bounds[0] as { bound: number }).bound;
  } else {
    const [x, y] = bounds as [{ bound: number; isLeftLower: boolean }, { bound: number; isLeftLower: boolean }];
    if (x.isLeftLower === y.isLeftLower) return undefined;
    lower = x.isLeftLower ? x.bound : y.bound;
    upper = x.isLeftLower ? y.bound : x.bound;
  }
  const first = preds[0] as TimePredicate;
  return { lowerMs: lower, upperMs: upper, kind: first.kind, leftTime: first.leftTime, rightTime: first.rightTime, timePredicates: preds.map((p) => p.conjunct) };
}
