/**
 * The run context: everything about a scenario and its plan that does not change while it runs,
 * built once per timeline (compiled expressions, table layouts, the operator). Steps read it and
 * never change it.
 */
import type { EngineConfig, Plan, Side } from '../planner/plan.js';
import type { Scenario } from '../scenario/types.js';
import type { EvalCtx } from './context-compile.js';
import { sideRuntime, tableRuntime, type SideRuntime, type TableRuntime } from './context-inputs.js';
import { sinkRuntime, type SinkRuntime } from './context-sink.js';
import type { JoinOperator } from './types.js';

export type { Compiled, EvalCtx } from './context-compile.js';
export type { SideRuntime, TableRuntime } from './context-inputs.js';
export type { SinkRuntime } from './context-sink.js';

export type OperatorFactory = (plan: Plan) => JoinOperator<unknown>;

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
  /**
   * An event-time interval join with an empty window is no join in Flink but a union of the two
   * padded / filtered inputs: the output watermark comes from the StatusWatermarkValve of the
   * operator after the union, whose two channels (index = side) carry what each input's exchange
   * valve emitted (a side's partitions are combined first, by its table's valve), not from
   * combining the two inputs. True only for such a plan (and not when the condition is FALSE).
   */
  readonly union?: true;
  /** CombinedWatermarkStatus flushes the largest watermark once every input is idle (2.2+, FLINK-38454). */
  readonly idleInputsFlush: boolean;
  readonly op: JoinOperator<unknown>;
  readonly sink: SinkRuntime;
  /** When false, steps keep no trace (flags are still computed): used for bulk runs. */
  readonly tracing: boolean;
  /** Scratch evaluation context, reset by every step (avoids an allocation per step). */
  readonly evalCtx: EvalCtx;
}

/** Processing time starts at `date` 00:00, or at the first event's `at` if that is earlier. */
export function startTimeOf(scenario: Scenario): number {
  const first = scenario.events[0]?.at;
  return first !== undefined && first < scenario.date ? first : scenario.date;
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
    // A condition Calcite folds to FALSE wins over the empty window: no union is planned then (a
    // Calc, or a regular join on FALSE for FULL), see interval-join.ts.
    ...(plan.interval?.negativeWindow === true && plan.interval.alwaysFalse !== true && plan.interval.timeKind === 'rowtime' ? { union: true as const } : {}),
    idleInputsFlush: plan.flinkVersion >= '2.2',
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
