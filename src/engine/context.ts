/**
 * The run context: everything about a scenario and its plan that does not change while it runs,
 * built once per timeline (compiled expressions, table layouts, the operator). Steps read it and
 * never change it.
 */
import type { PairLayout } from './changelog.js';
import type { EngineConfig, InputPlan, Plan, Side, TableDef, TExpr } from '../planner/plan.js';
import type { Scenario } from '../scenario/types.js';
import { compileExpr } from '../values/eval.js';
import type { Row, SqlType, Value } from '../values/types.js';
import type { JoinOperator } from './types.js';

/** What compiled expressions see of the run (structurally src/values/eval.ts EvalContext). */
export interface EvalCtx {
  procTime: number;
  timeZone: string;
}

export type Compiled = (row: Row, ctx: EvalCtx) => Value;

export type OperatorFactory = (plan: Plan) => JoinOperator<unknown>;

export interface TableRuntime {
  readonly index: number;
  readonly name: string;
  readonly def: TableDef;
  readonly partitions: number;
  readonly types: readonly SqlType[];
  readonly computed: readonly { readonly index: number; readonly fn: Compiled }[];
  /** Columns defined AS PROCTIME(): not part of row equality (they are not materialized yet). */
  readonly proctimeColumns: readonly number[];
  readonly watermark?: Compiled;
  /** The join inputs this table feeds (both, for a self-join); none for a lookup table. */
  readonly sides: readonly Side[];
  /** A lookup join's lookup table: its rows are writes to the external store. */
  readonly lookup: boolean;
}

export interface SideRuntime {
  readonly side: Side;
  readonly input: InputPlan;
  readonly table: TableRuntime;
  readonly filter?: Compiled;
  /** Over a ChangelogNormalize the filter is not applied to the source row (an update must retract the old row). */
  readonly filterAfterNormalize: boolean;
  /**
   * Flink 2.1+ (FLINK-37390) pushes the filter into ChangelogNormalize (an update leaving the
   * filter becomes -D of the stored row); 2.0 runs it as a Calc on the normalized changelog.
   */
  readonly filterInNormalize: boolean;
  /** Flink 2.2+ (FLINK-38217): a +U equal in content to the stored row counts as identical. */
  readonly normalizeIgnoresKind: boolean;
  readonly normalizeKey?: readonly number[];
  readonly dedup?: { readonly key: readonly number[]; readonly orderBy: number; readonly rowtime: boolean; readonly keepLast: boolean };
  /** ChangelogNormalize / Deduplicate send -U only when the consumer wants it. */
  readonly generateUpdateBefore: boolean;
  readonly dropUpdateBefore: boolean;
  readonly project?: readonly Compiled[];
  readonly inputTypes: readonly SqlType[];
}

export interface SinkRuntime {
  readonly postFilter?: Compiled;
  readonly project: readonly Compiled[];
  readonly names: readonly string[];
  readonly types: readonly SqlType[];
  /** The joined row's types (left ++ right, or left only for semi/anti), for traces. */
  readonly joinedTypes: readonly SqlType[];
  /** Sink primary key (indexes into the output row): the result is an upsert table. */
  readonly primaryKey?: readonly number[];
  readonly materialize: boolean;
  /** The output's upsert key, used by the SinkUpsertMaterializer to replace rows in place. */
  readonly upsertKey?: readonly number[];
  /** Columns of each input row in a joined row (a missing side is padded with this many nulls). */
  readonly widths: readonly [number, number];
  /**
   * Set when a bulk run may keep an output row as its two input rows (clPushPair): the SELECT
   * list is plain columns, and no filter or materializer needs the row first.
   */
  readonly pairs?: PairLayout;
}

export interface RunContext {
  readonly plan: Plan;
  readonly config: EngineConfig;
  readonly watermarks: 'auto' | 'manual';
  readonly startTime: number;
  readonly tables: readonly TableRuntime[];
  readonly tableByName: ReadonlyMap<string, TableRuntime>;
  readonly sides: readonly [SideRuntime, SideRuntime];
  /** The inputs whose watermarks the operator combines (a lookup join has only its left input). */
  readonly joinInputs: readonly Side[];
  readonly op: JoinOperator<unknown>;
  readonly sink: SinkRuntime;
  /** When false, steps keep no trace (flags are still computed): used for bulk runs. */
  readonly tracing: boolean;
  /** Scratch evaluation context, reset by every step (avoids an allocation per step). */
  readonly evalCtx: EvalCtx;
}

const compile = (e: TExpr): Compiled => compileExpr(e) as Compiled;

/** Processing time starts at `date` 00:00, or at the first event's `at` if that is earlier. */
export function startTimeOf(scenario: Scenario): number {
  const first = scenario.events[0]?.at;
  return first !== undefined && first < scenario.date ? first : scenario.date;
}

function tableRuntime(def: TableDef, index: number, scenario: Scenario, plan: Plan): TableRuntime {
  const sides: Side[] = [];
  const lookup = plan.family === 'lookup' && plan.inputs[1].table === def.name;
  plan.inputs.forEach((inp, s) => {
    if (inp.table === def.name && !(lookup && s === 1)) sides.push(s as Side);
  });
  const computed = def.columns.flatMap((c, i) => (c.kind === 'computed' && c.expr !== undefined ? [{ index: i, fn: compile(c.expr) }] : []));
  return {
    index,
    name: def.name,
    def,
    partitions: Math.max(1, scenario.partitions[def.name] ?? 1),
    types: def.columns.map((c) => c.type),
    computed,
    proctimeColumns: def.columns.flatMap((c, i) => (c.timeAttr === 'proctime' ? [i] : [])),
    watermark: def.watermark === undefined ? undefined : compile(def.watermark.expr),
    sides,
    lookup,
  };
}

function sideRuntime(plan: Plan, side: Side, table: TableRuntime): SideRuntime {
  const input = plan.inputs[side];
  const dd = input.deduplicate;
  return {
    side,
    input,
    table,
    filter: input.filter === undefined ? undefined : compile(input.filter),
    filterAfterNormalize: input.changelogNormalize !== undefined,
    filterInNormalize: input.changelogNormalize !== undefined && plan.flinkVersion >= '2.1',
    normalizeIgnoresKind: plan.flinkVersion >= '2.2',
    normalizeKey: input.changelogNormalize?.key,
    dedup:
      dd === undefined
        ? undefined
        : { key: dd.key, orderBy: dd.orderBy, keepLast: dd.keepLast, rowtime: table.def.columns[dd.orderBy]?.timeAttr !== 'proctime' },
    // A Deduplicate / ChangelogNormalize sends -U only when its consumer asks for it: the
    // versioned side of a temporal join never does (its changelog mode has no -U).
    generateUpdateBefore: input.changelogMode.includes('-U'),
    dropUpdateBefore: input.dropUpdateBefore,
    project: input.project?.map(compile),
    inputTypes: input.columns.map((c) => c.type),
  };
}

function sinkRuntime(plan: Plan): SinkRuntime {
  const sink = plan.sink;
  const left = plan.inputs[0].columns.map((c) => c.type);
  const right = plan.inputs[1].columns.map((c) => c.type);
  const joinedTypes = plan.family === 'semi' || plan.family === 'anti' ? left : [...left, ...right];
  const names = sink !== undefined && sink.columns.length === plan.output.names.length ? sink.columns.map((c) => c.name) : plan.output.names;
  const materialize = sink?.upsertMaterialize === true;
  const plain = plan.project.every((e) => e.k === 'col');
  const pairs = plain && !materialize && plan.postFilter === undefined && plan.family !== 'semi' && plan.family !== 'anti'
    ? { left: left.length, cols: plan.project.map((e) => (e.k === 'col' ? e.index : -1)) }
    : undefined;
  return {
    postFilter: plan.postFilter === undefined ? undefined : compile(plan.postFilter),
    project: plan.project.map(compile),
    names,
    types: plan.output.types,
    joinedTypes,
    primaryKey: sink?.primaryKey !== undefined && sink.primaryKey.length > 0 ? sink.primaryKey : undefined,
    materialize,
    upsertKey: plan.output.upsertKeys[0],
    widths: [left.length, right.length],
    pairs,
  };
}

export function createRunContext(scenario: Scenario, queryIndex: number, factory: OperatorFactory, tracing = true): RunContext {
  const query = scenario.queries[queryIndex];
  if (query === undefined) throw new Error(`[engine] no query #${queryIndex} in ${scenario.file}`);
  const plan = query.plan;
  const used = new Set(plan.inputs.map((i) => i.table));
  const defs = plan.tables.filter((t) => used.has(t.name));
  const tables = defs.map((d, i) => tableRuntime(d, i, scenario, plan));
  const tableByName = new Map(tables.map((t) => [t.name, t]));
  const tableOf = (s: Side): TableRuntime => {
    const t = tableByName.get(plan.inputs[s].table);
    if (t === undefined) throw new Error(`[engine] input table ${plan.inputs[s].table} is not in the plan`);
    return t;
  };
  return {
    plan,
    config: scenario.config,
    watermarks: scenario.watermarks,
    startTime: startTimeOf(scenario),
    tables,
    tableByName,
    sides: [sideRuntime(plan, 0, tableOf(0)), sideRuntime(plan, 1, tableOf(1))],
    joinInputs: plan.family === 'lookup' ? [0] : [0, 1],
    op: factory(plan),
    sink: sinkRuntime(plan),
    tracing,
    evalCtx: { procTime: 0, timeZone: scenario.config.localTimeZone },
  };
}

/** The same context with tracing switched on or off (state stays compatible: same operator). */
export function withTracing(ctx: RunContext, tracing: boolean): RunContext {
  return ctx.tracing === tracing ? ctx : { ...ctx, tracing };
}
