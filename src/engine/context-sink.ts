/**
 * The run context's sink (context.ts): the output's compiled projection and filter, its layout,
 * and how a bulk run may keep output rows.
 */
import type { PairLayout } from './changelog.js';
import type { Plan } from '../planner/plan.js';
import type { SqlType } from '../values/types.js';
import { compile, type Compiled } from './context-compile.js';

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

export function sinkRuntime(plan: Plan): SinkRuntime {
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
