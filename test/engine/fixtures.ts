/**
 * Hand-built scenarios and plans for engine tests (independent of the loader and planner), and a
 * small fake join operator: an inner equi-join on column 0 that can also expire rows by
 * processing time (a TTL) and hold rows until the watermark passes their time.
 */
import type { ColumnDef, EngineConfig, InputPlan, JoinFamily, Plan, Side, TableDef, TExpr } from '../../src/planner/plan.js';
import type { Scenario, ScenarioEvent } from '../../src/scenario/types.js';
import type { Row, RowKind, SqlType, Value } from '../../src/values/types.js';
import type { Collector, JoinOperator, OpTime, StateView } from '../../src/engine/types.js';
import { STEP_EXPIRE } from '../../src/engine/types.js';
import { DEFAULT_CONFIG } from '../../src/scenario/config-defaults.js';
import { stateViewOf } from '../../src/engine/describe.js';

export const STRING: SqlType = { kind: 'STRING', nullable: true };
export const INT: SqlType = { kind: 'INT', nullable: true };
export const BIGINT: SqlType = { kind: 'BIGINT', nullable: true };
export const TS: SqlType = { kind: 'TIMESTAMP', nullable: true, precision: 3 };

const span = { start: 0, end: 0 } as unknown as ColumnDef['span'];

export const col = (index: number, type: SqlType = STRING, name = `c${index}`): TExpr => ({ k: 'col', index, type, name });
export const lit = (value: Value, type: SqlType = INT): TExpr => ({ k: 'lit', value, type });
export const call = (fn: string, type: SqlType, ...args: TExpr[]): TExpr => ({ k: 'call', fn, type, args });

export interface TableSpec {
  name: string;
  /** [name, type] per physical column. */
  columns: [string, SqlType][];
  /** Column index whose value is the watermark (WATERMARK FOR c AS c). */
  watermarkOn?: number;
  primaryKey?: number[];
  nature?: TableDef['nature'];
}

export function table(s: TableSpec): TableDef {
  return {
    name: s.name,
    columns: s.columns.map(([name, type], i) => ({
      name,
      type,
      kind: 'physical',
      span,
      timeAttr: i === s.watermarkOn ? 'rowtime' : undefined,
    })),
    watermark: s.watermarkOn === undefined ? undefined : { column: s.watermarkOn, expr: col(s.watermarkOn, TS), text: s.columns[s.watermarkOn]![0] },
    primaryKey: s.primaryKey,
    options: [],
    connector: s.nature === 'upsert' ? 'upsert-kafka' : 'kafka',
    nature: s.nature ?? 'append',
    span,
  };
}

export function input(t: TableDef, extra: Partial<InputPlan> = {}): InputPlan {
  return {
    table: t.name,
    alias: t.name,
    dropUpdateBefore: false,
    columns: t.columns.map((c) => ({ name: c.name, type: c.type })),
    changelogMode: ['+I'],
    upsertKeys: [],
    stateTtlMs: 0,
    stateTtlSource: 'none',
    ...extra,
  };
}

export function plan(left: TableDef, right: TableDef, extra: Partial<Plan> = {}, inputs?: [InputPlan, InputPlan]): Plan {
  const [l, r] = inputs ?? [input(left), input(right)];
  const joinedTypes = [...l.columns, ...r.columns].map((c) => c.type);
  const names = [...l.columns, ...r.columns].map((c) => c.name);
  return {
    family: 'regular' as JoinFamily,
    joinType: 'inner',
    tables: left === right ? [left] : [left, right],
    inputs: [l, r],
    keys: { left: [0], right: [0], nullSafe: [false] },
    project: joinedTypes.map((t, i) => col(i, t)),
    output: { names, types: joinedTypes, changelogMode: ['+I', '-D'], upsertKeys: [] },
    flinkVersion: '2.3',
    notes: [],
    ...extra,
  };
}

/** Flink's defaults, exactly as the loader fills them. */
export const CONFIG: EngineConfig = DEFAULT_CONFIG;

export function scenario(p: Plan, events: ScenarioEvent[], extra: Partial<Scenario> = {}): Scenario {
  return {
    file: 'test.yaml',
    name: 'test',
    date: 0,
    flinkVersion: '2.3',
    watermarks: 'auto',
    partitions: {},
    config: CONFIG,
    sql: '',
    queries: [{ name: 'q', plan: p }],
    events,
    ...extra,
  };
}

const pos = { line: 1, col: 1 };
export const ev = {
  row: (table: string, row: Row, op: RowKind = '+I', partition = 0, at?: number): ScenarioEvent => ({ kind: 'row', table, row, op, partition, at, pos }),
  wm: (table: string, to: number | 'max' | 'generated', partition?: number): ScenarioEvent => ({ kind: 'watermark', table, to, partition, pos }),
  idle: (table: string, partition?: number): ScenarioEvent => ({ kind: 'idle', table, partition, pos }),
  active: (table: string, partition?: number): ScenarioEvent => ({ kind: 'active', table, partition, pos }),
  advance: (ms: number, at?: number): ScenarioEvent => ({ kind: 'advance', ms, at, pos }),
  note: (at?: number): ScenarioEvent => ({ kind: 'note', at, pos }),
};

// ---------------------------------------------------------------------------------------------
// The fake operator

interface Stored {
  readonly row: Row;
  readonly expiresAt: number | null;
}

export interface FakeState {
  readonly rows: readonly [readonly Stored[], readonly Stored[]];
  /** Left rows waiting for the watermark to pass their column-1 time (holdUntilWatermark). */
  readonly pending: readonly { readonly kind: RowKind; readonly row: Row }[];
}

export interface FakeOptions {
  ttlMs?: number;
  /** Left rows wait until the watermark reaches their column `holdOn` value. */
  holdOn?: number;
  delay?: number;
}

export function fakeOperator(opts: FakeOptions = {}): (p: Plan) => JoinOperator<unknown> {
  return () => {
    const ttl = opts.ttlMs ?? 0;
    const setRows = (s: FakeState, side: Side, rows: readonly Stored[]): FakeState => ({
      ...s,
      rows: side === 0 ? [rows, s.rows[1]] : [s.rows[0], rows],
    });
    const join = (s: FakeState, side: Side, kind: RowKind, row: Row, time: OpTime, out: Collector): FakeState => {
      const mine = s.rows[side];
      let next: Stored[];
      if (kind === '+I' || kind === '+U') next = [...mine, { row, expiresAt: ttl > 0 ? time.procTime + ttl : null }];
      else {
        const at = mine.findIndex((r) => r.row.every((v, i) => v === row[i]));
        next = at < 0 ? [...mine] : [...mine.slice(0, at), ...mine.slice(at + 1)];
      }
      for (const o of s.rows[side === 0 ? 1 : 0]) {
        if (o.row[0] === null || o.row[0] !== row[0]) continue;
        const joined = side === 0 ? [...row, ...o.row] : [...o.row, ...row];
        out.emit(kind, joined, { rule: 'match', text: 'fake match' });
      }
      return setRows(s, side, next);
    };
    const op: JoinOperator<FakeState> = {
      init: () => ({ rows: [[], []], pending: [] }),
      processElement(s, side, kind, row, time, out) {
        if (side === 0 && opts.holdOn !== undefined && (row[opts.holdOn] as number) > time.watermark) {
          return { ...s, pending: [...s.pending, { kind, row }] };
        }
        return join(s, side, kind, row, time, out);
      },
      onWatermark(s, time, out) {
        let st: FakeState = { ...s, pending: [] };
        const keep: { kind: RowKind; row: Row }[] = [];
        for (const p of s.pending) {
          if ((p.row[opts.holdOn!] as number) <= time.watermark) st = join(st, 0, p.kind, p.row, time, out);
          else keep.push(p);
        }
        return { ...st, pending: keep };
      },
      onProcessingTime(s, time, out) {
        const live = (side: Side) =>
          s.rows[side].filter((r) => {
            const dead = r.expiresAt !== null && r.expiresAt <= time.procTime;
            if (dead) {
              out.flag(STEP_EXPIRE);
              out.trace({ t: 'state.expire', side, key: String(r.row[0]), row: String(r.row), reason: 'ttl' });
            }
            return !dead;
          });
        return { ...s, rows: [live(0), live(1)] };
      },
      nextProcessingTimer(s) {
        let min: number | undefined;
        for (const side of s.rows) for (const r of side) if (r.expiresAt !== null && (min === undefined || r.expiresAt < min)) min = r.expiresAt;
        return min;
      },
      outputWatermarkDelay: opts.delay ?? 0,
      describe(s, side): StateView {
        return stateViewOf('fake', s.rows[side].map((r) => ({ key: String(r.row[0]), row: String(r.row), tags: [] })));
      },
    };
    return op as JoinOperator<unknown>;
  };
}

/** Orders(id STRING, k STRING, ts TIMESTAMP) ⋈ rates(k STRING, v INT, ts TIMESTAMP) on k. */
export function ordersRates(opts: { watermarks?: boolean; rates?: Partial<TableSpec> } = {}) {
  const wm = opts.watermarks ?? true;
  const orders = table({ name: 'orders', columns: [['k', STRING], ['ts', TS], ['id', STRING]], watermarkOn: wm ? 1 : undefined });
  const rates = table({ name: 'rates', columns: [['k', STRING], ['ts', TS], ['v', INT]], watermarkOn: wm ? 1 : undefined, ...opts.rates });
  return { orders, rates };
}

/**
 * A deterministic mixed script over ordersRates(): rows on both sides (some orders deleted
 * again), clock moves, and with `idle` an idle rates table now and then; `keys` join keys.
 */
export function mixedScript(n: number, opts: { keys: number; idle: boolean }): ScenarioEvent[] {
  const out: ScenarioEvent[] = [];
  for (let i = 0; i < n; i++) {
    const k = `k${i % opts.keys}`;
    if (i % 11 === 5) out.push(ev.advance(40));
    else if (opts.idle && i % 13 === 3) out.push(ev.idle('rates'));
    else if (i % 3 === 0) out.push(ev.row('rates', [k, i * 10, i]));
    else if (i % 17 === 1) out.push(ev.row('orders', [k, i * 10 - 30, `o${i - 1}`], '-D'));
    else out.push(ev.row('orders', [k, i * 10, `o${i}`]));
  }
  return out;
}
