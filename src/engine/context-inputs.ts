/**
 * The run context's tables and join inputs (context.ts): each table's layout and compiled
 * columns, and each side's compiled input pipeline settings (pipeline.ts).
 */
import type { InputPlan, Plan, Side, TableDef } from '../planner/plan.js';
import type { Scenario } from '../scenario/types.js';
import type { SqlType } from '../values/types.js';
import { compile, type Compiled } from './context-compile.js';
import { sourceMetadata, type SourceMetadata } from './source-metadata.js';

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
  /** Kafka metadata columns the source fills when a row leaves them out (source-metadata.ts). */
  readonly metadata?: SourceMetadata;
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
  /** ChangelogNormalize over a CDC source (nature `changelog`): a DropUpdateBefore below it drops every -U. */
  readonly normalizeOverCdc: boolean;
  /**
   * A +U never counts as the stored row again: over a CDC source before Flink 2.2, whose equaliser
   * compared RowKind (FLINK-38217). Upsert sources' values all arrive as +I.
   */
  readonly normalizeUpdateDiffers: boolean;
  readonly normalizeKey?: readonly number[];
  /** The source columns ChangelogNormalize keeps and compares (the query's reads and the key); absent = all. */
  readonly normalizeColumns?: readonly number[];
  /** An upsert source without ChangelogNormalize (planner/update-kind.ts): the primary key a tombstone keeps. */
  readonly rawUpsertKey?: readonly number[];
  /**
   * insertOnly: a keep-first row-time Deduplicate over an append-only input that Flink 2.1+ plans
   * with outputInsertOnly (RowTimeDeduplicateKeepFirstRowFunction): rows wait for the watermark.
   * Modelled for a temporal join's versioned side, where the fuzzer checked it against Flink.
   */
  readonly dedup?: { readonly key: readonly number[]; readonly orderBy: number; readonly rowtime: boolean; readonly keepLast: boolean; readonly insertOnly: boolean };
  /** ChangelogNormalize / Deduplicate send -U only when the consumer wants it. */
  readonly generateUpdateBefore: boolean;
  readonly dropUpdateBefore: boolean;
  readonly project?: readonly Compiled[];
  readonly inputTypes: readonly SqlType[];
}

export function tableRuntime(def: TableDef, index: number, scenario: Scenario, plan: Plan): TableRuntime {
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
    metadata: lookup ? undefined : sourceMetadata(def),
  };
}

export function sideRuntime(plan: Plan, side: Side, table: TableRuntime): SideRuntime {
  const input = plan.inputs[side];
  const dd = input.deduplicate;
  return {
    side,
    input,
    table,
    filter: input.filter === undefined ? undefined : compile(input.filter),
    filterAfterNormalize: input.changelogNormalize !== undefined,
    filterInNormalize: input.changelogNormalize !== undefined && plan.flinkVersion >= '2.1',
    normalizeOverCdc: table.def.nature === 'changelog',
    normalizeUpdateDiffers: plan.flinkVersion < '2.2' && table.def.nature === 'changelog',
    normalizeKey: input.changelogNormalize?.key,
    normalizeColumns: input.changelogNormalize?.columns?.filter((c) => !table.proctimeColumns.includes(c)),
    rawUpsertKey: input.rawUpsert?.key,
    dedup:
      dd === undefined
        ? undefined
        : {
            key: dd.key,
            orderBy: dd.orderBy,
            keepLast: dd.keepLast,
            rowtime: table.def.columns[dd.orderBy]?.timeAttr !== 'proctime',
            insertOnly: !dd.keepLast && table.def.columns[dd.orderBy]?.timeAttr === 'rowtime' && table.def.nature === 'append'
              && plan.flinkVersion >= '2.1' && plan.family === 'temporal' && side === 1,
          },
    // A Deduplicate / ChangelogNormalize sends -U only when its consumer asks for it: the
    // versioned side of a temporal join never does (its changelog mode has no -U).
    generateUpdateBefore: input.changelogMode.includes('-U'),
    dropUpdateBefore: input.dropUpdateBefore,
    project: input.project?.map(compile),
    inputTypes: input.columns.map((c) => c.type),
  };
}
