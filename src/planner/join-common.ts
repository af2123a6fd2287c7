/** Shared shapes and steps of the per-family join planners. */
import type { Expr, Select, Span } from '../sql/ast.js';
import { fail } from './errors.js';
import type { Catalog, InputSource } from './input.js';
import type { InputPlanDraft } from './input-plan.js';
import type { EngineConfig, FlinkVersion, IntervalSpec, JoinFamily, JoinType, LookupSpec, TExpr } from './plan.js';
import type { Scope } from './scope.js';
import { andAll, conjunctsOf, shift, substitute } from './texpr-util.js';

export interface PlannerOptions {
  readonly config: EngineConfig;
  readonly flinkVersion: FlinkVersion;
  readonly partitions: Record<string, number>;
}

export interface JoinCtx {
  readonly cat: Catalog;
  readonly options: PlannerOptions;
  readonly select: Select;
  readonly left: InputSource;
  readonly right: InputSource;
  readonly joinType: JoinType;
  readonly on?: Expr;
  readonly keywordSpan: Span;
}

export interface JoinDraft {
  readonly family: JoinFamily;
  readonly joinType: JoinType;
  readonly inputs: readonly [InputPlanDraft, InputPlanDraft];
  readonly keys: { readonly left: number[]; readonly right: number[]; readonly nullSafe: boolean[] };
  readonly residual?: TExpr;
  readonly interval?: IntervalSpec;
  readonly lookup?: LookupSpec;
  readonly postFilter?: TExpr;
  /** Regular INNER / LEFT / RIGHT join whose condition folds to FALSE (Plan.alwaysFalse). */
  readonly alwaysFalse?: boolean;
  readonly notes: string[];
  /** The scope the select list is typed in (joined row; semi/anti: the left row). */
  readonly outScope: Scope;
  readonly leftWidth: number;
}

/** The joined row's scope: left columns, then right columns. */
export function joinedScope(left: InputSource, right: InputSource): Scope {
  return {
    rels: [
      { alias: left.alias, tableName: left.refName, columns: left.columns, offset: 0 },
      { alias: right.alias, tableName: right.refName, columns: right.columns, offset: left.columns.length },
    ],
  };
}

/**
 * Pushes a single-side predicate (over the joined row) into an input as a source-row filter
 * (on an upsert source it runs after the ChangelogNormalize, where Flink keeps non-key predicates).
 * Not below a deduplication: a filter there would change which row is the last one.
 */
export function pushFilter(src: InputSource, e: TExpr, offset: number): InputSource | undefined {
  if (src.dedup) return undefined;
  const local = offset === 0 ? e : shift(e, -offset);
  const onSource = src.project ? substitute(local, src.project) : local;
  // RexSimplify: IS NOT NULL over a NOT NULL column is TRUE, so no filter is left of it
  const kept = conjunctsOf(onSource).filter((c) => !(c.k === 'call' && c.fn === 'IS NOT NULL' && c.args.length === 1 && c.args[0]!.type.nullable === false));
  const filter = andAll(src.filter ? [src.filter, ...kept] : kept);
  return filter ? { ...src, filter } : src;
}

/** Names of the joined row's columns as Flink prints them in conditions (right duplicates get a suffix). */
export function joinedNames(left: InputSource, right: InputSource): string[] {
  const used = new Set<string>();
  return [...left.columns, ...right.columns].map((c) => {
    let n = c.name;
    for (let i = 0; used.has(n); i++) n = `${c.name}${i}`;
    used.add(n);
    return n;
  });
}

/** Rejects what joinstep cannot run for a streaming (non-lookup) join input. */
export function checkStreamInput(src: InputSource): void {
  if (src.def.nature === 'lookup') {
    fail(`joinstep treats ${src.def.connector} tables as lookup sources, but ${src.refName} is read here as a stream`, src.span,
      `join it as a lookup table: JOIN ${src.refName} FOR SYSTEM_TIME AS OF <left>.<proctime column> AS x ON ...`);
  }
  if (src.filterAfterDedup) {
    fail(`joinstep cannot yet filter the deduplicated rows of ${src.refName}`, src.span, 'move the filter into the query\'s WHERE clause');
  }
}
