/**
 * Views of a snapshot for the UI and the CLI: watermarks (with who holds them back), the
 * materialized result as printed rows, the changelog's JSON form (spec §5), and the shape of a
 * side's state view (each join family describes its own rows).
 */
import { formatValue } from '../values/format.js';
import { clToArray } from './changelog.js';
import { foldResult } from './result.js';
import type { RunContext } from './context.js';
import type { EngineSnapshot } from './snapshot.js';
import { joinHeldBy, partitionName } from './sources.js';
import type { Emitted, StateEntryView, StateView, TableWatermarkView, WatermarkView } from './types.js';
import { valveHeldBy } from './valve.js';

export function describeWatermarks(ctx: RunContext, snap: EngineSnapshot): WatermarkView {
  const tables = ctx.tables.map((t): TableWatermarkView => {
    const st = snap.tables[t.index]!;
    const held = t.partitions > 1 && !st.valve.idle ? valveHeldBy(st.valve) : undefined;
    return {
      table: t.name,
      side: t.sides[0],
      partitions: st.valve.channels.map((c, p) => ({
        partition: p,
        generated: st.generated[p]!,
        emitted: c.wm,
        idle: c.idle,
        idleAt: st.idleAt[p] ?? undefined,
      })),
      combined: st.valve.output,
      idle: st.valve.idle,
      heldBy: held,
    };
  });
  const heldBy = joinHeldBy({ ctx, inputs: snap.inputs as never, table: (i: number) => snap.tables[i]! });
  return { tables, join: snap.joinWm, heldBy, output: snap.outputWm };
}

/** The materialized result after a snapshot, one printed row per row (a multiset repeats), sorted. */
export function resultRows(ctx: RunContext, snap: EngineSnapshot): string[] {
  return foldResult(ctx.sink, clToArray(snap.changelog));
}

/** `--format json`: {"op":"+I","row":{"col":"text",...},"step":7} with values in print format. */
export function emittedJson(ctx: RunContext, e: Emitted): { op: string; row: Record<string, string | null>; step: number } {
  const row: Record<string, string | null> = {};
  ctx.sink.names.forEach((name, i) => {
    const v = e.row[i] ?? null;
    row[name] = v === null ? null : formatValue(ctx.sink.types[i]!, v);
  });
  return { op: e.kind, row, step: e.step };
}

export { partitionName };

/**
 * A state view of rows in groups (a join key's rows), the groups in the order given: group g holds
 * `count(g)` rows, its row r built by `entry(g, r)` only when the pane reads it, so a state of
 * thousands of keys costs a count per key and the rows shown, not a row object per row held.
 */
export function groupedStateView<G>(layout: string, groups: readonly G[], count: (g: G) => number, entry: (g: G, r: number) => StateEntryView): StateView {
  const starts = new Float64Array(groups.length + 1);
  for (let g = 0; g < groups.length; g++) starts[g + 1] = starts[g]! + count(groups[g]!);
  return stateViewOf(layout, starts[groups.length]!, (i) => {
    // The last group starting at or before row i (an empty group starts where the next one does).
    let lo = 0;
    let hi = groups.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return entry(groups[lo]!, i - starts[lo]!);
  });
}

/**
 * A state view of `size` rows, row i built by `entryAt(i)` when the pane reads it; `entries`
 * builds them all once, on first read. Given an array, its rows as they are.
 */
export function stateViewOf(layout: string, rows: readonly StateEntryView[]): StateView;
export function stateViewOf(layout: string, size: number, entryAt: (i: number) => StateEntryView): StateView;
export function stateViewOf(layout: string, rows: number | readonly StateEntryView[], at?: (i: number) => StateEntryView): StateView {
  if (typeof rows !== 'number') return { layout, size: rows.length, entryAt: (i) => rows[i]!, entries: rows };
  const size = rows;
  const entryAt = at!;
  let all: readonly StateEntryView[] | undefined;
  return {
    layout,
    size,
    entryAt,
    get entries(): readonly StateEntryView[] {
      return (all ??= Array.from({ length: size }, (_, i) => entryAt(i)));
    },
  };
}
