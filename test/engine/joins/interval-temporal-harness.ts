/**
 * A small stand-in for Flink's KeyedTwoInputStreamOperatorTestHarness, to translate Flink's own
 * operator tests: feed rows and per-input watermarks, set processing time, read the output
 * (records and forwarded watermarks, in order) and the trace. Plans are built by hand.
 */
import type { FlinkVersion, IntervalSpec, JoinFamily, JoinType, Plan, TExpr, TimeAttrKind } from '../../../src/planner/plan.js';
import type { Collector, JoinOperator, TraceEvent, Why } from '../../../src/engine/types.js';
import { WM_MIN } from '../../../src/engine/types.js';
import { formatRow } from '../../../src/values/format.js';
import type { Row, RowKind, SqlType } from '../../../src/values/types.js';

const BIGINT: SqlType = { kind: 'BIGINT', nullable: true };
const STRING: SqlType = { kind: 'STRING', nullable: true };

export interface PlanOptions {
  family: JoinFamily;
  joinType: JoinType;
  /** Column types of each input (default: Flink's test rowType (BIGINT time, STRING key) / + STRING payload). */
  types?: readonly [readonly SqlType[], readonly SqlType[]];
  keyIdx: number;
  timeIdx?: number;
  timeKind?: TimeAttrKind;
  interval?: Omit<IntervalSpec, 'timeKind' | 'negativeWindow'> & { negativeWindow?: boolean };
  stateTtlMs?: number;
  flinkVersion?: FlinkVersion;
  residual?: TExpr;
}

export function makePlan(o: PlanOptions): Plan {
  const types = o.types ?? [[BIGINT, STRING], [BIGINT, STRING]];
  const timeKind = o.timeKind ?? 'rowtime';
  const input = (side: 0 | 1) => ({
    table: side === 0 ? 'l' : 'r',
    alias: side === 0 ? 'l' : 'r',
    dropUpdateBefore: false,
    columns: types[side].map((type, i) => ({ name: `f${i}`, type, ...(i === (o.timeIdx ?? 0) ? { timeAttr: timeKind } : {}) })),
    changelogMode: ['+I', '-U', '+U', '-D'] as RowKind[],
    upsertKeys: [],
    timeAttr: { index: o.timeIdx ?? 0, kind: timeKind },
    stateTtlMs: o.stateTtlMs ?? 0,
    stateTtlSource: 'config' as const,
  });
  const interval =
    o.interval === undefined
      ? undefined
      : { ...o.interval, timeKind, negativeWindow: o.interval.negativeWindow ?? o.interval.upperMs < o.interval.lowerMs };
  const all = [...types[0], ...types[1]];
  return {
    family: o.family,
    joinType: o.joinType,
    tables: [],
    inputs: [input(0), input(1)],
    keys: { left: [o.keyIdx], right: [o.keyIdx], nullSafe: [false] },
    ...(o.residual === undefined ? {} : { residual: o.residual }),
    ...(interval === undefined ? {} : { interval }),
    project: all.map((type, index) => ({ k: 'col' as const, type, index, name: `c${index}` })),
    output: { names: all.map((_t, i) => `c${i}`), types: all, changelogMode: ['+I'], upsertKeys: [] },
    flinkVersion: o.flinkVersion ?? '2.3',
    notes: [],
  };
}

export interface Emission {
  readonly kind: RowKind;
  readonly row: Row;
  readonly why: Why;
}

export class Harness<S> {
  state: S;
  /** Printed records (`+I[1, k1, 2, k1]`) and forwarded watermarks (`WM(5)`), in order. */
  readonly output: string[] = [];
  readonly emissions: Emission[] = [];
  readonly trace: TraceEvent[] = [];
  private readonly wms: [number, number] = [WM_MIN, WM_MIN];
  private combined = WM_MIN;
  procTime = 0;

  constructor(
    readonly op: JoinOperator<S>,
    private readonly outTypes: readonly SqlType[],
  ) {
    this.state = op.init();
  }

  private collector(): Collector {
    return {
      emit: (kind, row, why) => {
        this.output.push(formatRow(kind, row, this.outTypes));
        this.emissions.push({ kind, row, why });
      },
      trace: (ev) => this.trace.push(ev),
      flag: () => undefined,
      tracing: true,
    };
  }

  private time() {
    return { procTime: this.procTime, watermark: this.combined };
  }

  el(side: 0 | 1, row: Row, kind: RowKind = '+I'): this {
    this.state = this.op.processElement(this.state, side, kind, row, this.time(), this.collector());
    return this;
  }

  el1(row: Row, kind: RowKind = '+I'): this {
    return this.el(0, row, kind);
  }

  el2(row: Row, kind: RowKind = '+I'): this {
    return this.el(1, row, kind);
  }

  /** Flink: the operator acts only when the combined (min) watermark rises; timers fire first. */
  wm(side: 0 | 1, value: number): this {
    this.wms[side] = Math.max(this.wms[side], value);
    const next = Math.min(this.wms[0], this.wms[1]);
    if (next <= this.combined) return this;
    this.combined = next;
    this.state = this.op.onWatermark(this.state, this.time(), this.collector());
    this.output.push(`WM(${next - this.op.outputWatermarkDelay})`);
    return this;
  }

  wm1(value: number): this {
    return this.wm(0, value);
  }

  wm2(value: number): this {
    return this.wm(1, value);
  }

  /** Flink's setProcessingTime: move the clock, then fire every processing-time timer due. */
  setProc(t: number): this {
    this.procTime = t;
    this.state = this.op.onProcessingTime(this.state, this.time(), this.collector());
    return this;
  }

  records(): string[] {
    return this.output.filter((s) => !s.startsWith('WM('));
  }
}
