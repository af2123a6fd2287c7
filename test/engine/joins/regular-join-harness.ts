/**
 * A small stand-in for Flink's KeyedTwoInputStreamOperatorTestHarness + RowDataHarnessAssertor:
 * feed rows to either input, set the TTL clock, and assert the exact emitted sequence (kinds
 * included, in order). Plans are built by hand (the planner is not needed here).
 */
import { expect } from 'vitest';
import type { FlinkVersion, InputPlan, JoinFamily, JoinType, Plan, Side, StateLayout, TExpr } from '../../../src/planner/plan.js';
import type { Collector, JoinOperator, StateView, TraceEvent, Why } from '../../../src/engine/types.js';
import { WM_MIN } from '../../../src/engine/types.js';
import { formatRow } from '../../../src/values/format.js';
import { createRegularJoin } from '../../../src/engine/joins/regular/regular-join.js';
import type { JoinState } from '../../../src/engine/state/record-state.js';
import type { Row, RowKind, SqlType, Value } from '../../../src/values/types.js';

export const STR: SqlType = { kind: 'STRING', nullable: true };
export const INT: SqlType = { kind: 'INT', nullable: true };

export interface SideOpts {
  readonly alias: string;
  readonly columns: readonly (readonly [string, SqlType])[];
  readonly layout?: StateLayout;
  readonly ttlMs?: number;
}

export interface PlanOpts {
  readonly family?: JoinFamily;
  readonly joinType: JoinType;
  readonly left: SideOpts;
  readonly right: SideOpts;
  /** Pairs of (left column index, right column index). */
  readonly keys: readonly (readonly [number, number])[];
  readonly nullSafe?: readonly boolean[];
  readonly residual?: TExpr;
  readonly flinkVersion?: FlinkVersion;
}

function inputPlan(o: SideOpts): InputPlan {
  return {
    table: o.alias,
    alias: o.alias,
    dropUpdateBefore: false,
    columns: o.columns.map(([name, type]) => ({ name, type })),
    changelogMode: ['+I', '-U', '+U', '-D'],
    upsertKeys: o.layout !== undefined && o.layout.kind !== 'InputSideHasNoUniqueKey' ? [o.layout.uniqueKey] : [],
    ...(o.layout === undefined ? {} : { stateLayout: o.layout }),
    stateTtlMs: o.ttlMs ?? 0,
    stateTtlSource: o.ttlMs === undefined ? 'none' : 'config',
  };
}

export function planOf(o: PlanOpts): Plan {
  const family = o.family ?? 'regular';
  const semi = family === 'semi' || family === 'anti';
  const outCols = semi ? o.left.columns : [...o.left.columns, ...o.right.columns];
  return {
    family,
    joinType: o.joinType,
    tables: [],
    inputs: [inputPlan(o.left), inputPlan(o.right)],
    keys: { left: o.keys.map((k) => k[0]), right: o.keys.map((k) => k[1]), nullSafe: o.nullSafe ?? o.keys.map(() => false) },
    ...(o.residual === undefined ? {} : { residual: o.residual }),
    project: [],
    output: { names: outCols.map((c) => c[0]), types: outCols.map((c) => c[1]), changelogMode: ['+I', '-U', '+U', '-D'], upsertKeys: [] },
    flinkVersion: o.flinkVersion ?? '2.3',
    notes: [],
  };
}

/** The columns of Flink's StreamingJoinOperatorTestBase: orders(order_id, line_order_id, shipping_address) ⋈ line_orders(line_order_id0, line_order_ship_mode) on line_order_id, both JoinKeyContainsUniqueKey. */
export function flinkBasePlan(joinType: JoinType, opts: { ttl?: [number, number]; flinkVersion?: FlinkVersion } = {}): Plan {
  return planOf({
    joinType,
    left: {
      alias: 'a',
      columns: [['order_id', STR], ['line_order_id', STR], ['shipping_address', STR]],
      layout: { kind: 'JoinKeyContainsUniqueKey', uniqueKey: [1] },
      ...(opts.ttl === undefined ? {} : { ttlMs: opts.ttl[0] }),
    },
    right: {
      alias: 'b',
      columns: [['line_order_id0', STR], ['line_order_ship_mode', STR]],
      layout: { kind: 'JoinKeyContainsUniqueKey', uniqueKey: [0] },
      ...(opts.ttl === undefined ? {} : { ttlMs: opts.ttl[1] }),
    },
    keys: [[1, 0]],
    ...(opts.flinkVersion === undefined ? {} : { flinkVersion: opts.flinkVersion }),
  });
}

export interface Out {
  readonly kind: RowKind;
  readonly row: Row;
  readonly why: Why;
}

export class Harness<S> {
  state: S;
  procTime = 0;
  emitted: Out[] = [];
  traces: TraceEvent[] = [];
  private readonly types: readonly SqlType[];

  constructor(readonly op: JoinOperator<S>, readonly plan: Plan) {
    this.state = op.init();
    const semi = plan.family === 'semi' || plan.family === 'anti';
    const left = plan.inputs[0].columns.map((c) => c.type);
    this.types = semi ? left : [...left, ...plan.inputs[1].columns.map((c) => c.type)];
  }

  setStateTtlProcessingTime(t: number): void {
    this.procTime = t;
  }

  process(side: Side, kind: RowKind, ...values: Value[]): this {
    const out: Collector = {
      emit: (k, row, why) => void this.emitted.push({ kind: k, row, why }),
      trace: (ev) => void this.traces.push(ev),
      flag: () => undefined,
      tracing: true,
    };
    const before = JSON.stringify(this.state);
    const next = this.op.processElement(this.state, side, kind, values, { procTime: this.procTime, watermark: WM_MIN }, out);
    // Operators never mutate the state they are given.
    expect(JSON.stringify(this.state)).toBe(before);
    this.state = next;
    return this;
  }

  processElement1(kind: RowKind, ...values: Value[]): this {
    return this.process(0, kind, ...values);
  }

  processElement2(kind: RowKind, ...values: Value[]): this {
    return this.process(1, kind, ...values);
  }

  /** Drain the output and compare it, in order, with `+I[a, b, null]`-style strings. */
  shouldEmit(...expected: string[]): void {
    const got = this.emitted.map((o) => formatRow(o.kind, o.row, this.types));
    this.emitted = [];
    expect(got).toEqual(expected);
  }

  shouldEmitNothing(): void {
    this.shouldEmit();
  }

  /** The last drained-or-not emission reasons, for asserting `Why`. */
  describe(side: Side): StateView {
    return this.op.describe(this.state, side, { procTime: this.procTime, watermark: WM_MIN });
  }

  takeTraces(): TraceEvent[] {
    const t = this.traces;
    this.traces = [];
    return t;
  }
}

/** A column reference and a comparison, to build residual conditions by hand. */
export function col(index: number, type: SqlType, name = `c${index}`): TExpr {
  return { k: 'col', type, index, name };
}

export function call(fn: string, ...args: TExpr[]): TExpr {
  return { k: 'call', type: { kind: 'BOOLEAN', nullable: true }, fn, args };
}

/** A LEFT join of (k, id, v) rows on k; the right side's state layout as given (default: no unique key). */
export function leftJoinHarness(layout?: StateLayout): Harness<JoinState> {
  const plan = planOf({
    joinType: 'left',
    left: { alias: 'l', columns: [['k', STR], ['id', INT], ['v', STR]] },
    right: { alias: 'r', columns: [['k', STR], ['id', INT], ['v', STR]], ...(layout === undefined ? {} : { layout }) },
    keys: [[0, 0]],
  });
  return new Harness(createRegularJoin(plan), plan);
}
