/**
 * Shrinks a failing generated case to a small one that still fails the same way: fewer events
 * (greedy delta debugging over the event list: drop halves, then quarters, ... then single
 * events), fewer partitions, fewer columns. Every candidate is a valid case of the model, so every
 * shrunk file is still a scenario; the predicate decides what "still fails" means.
 */
import type { FuzzCase, FuzzEvent, TableSpec } from './model.js';

export type StillFails = (c: FuzzCase) => boolean | Promise<boolean>;

export interface ShrinkOptions {
  /** Most predicate calls (each may run real Flink). */
  readonly budget?: number;
}

export async function shrinkCase(start: FuzzCase, fails: StillFails, opts: ShrinkOptions = {}): Promise<FuzzCase> {
  let budget = opts.budget ?? 400;
  const tryIt = async (c: FuzzCase): Promise<boolean> => {
    if (budget <= 0) return false;
    budget--;
    return fails(c);
  };
  let best = start;
  for (let progress = true; progress && budget > 0;) {
    progress = false;
    const fewer = await shrinkEvents(best, tryIt);
    if (fewer !== best) [best, progress] = [fewer, true];
    for (const c of partitionCandidates(best)) {
      if (await tryIt(c)) {
        [best, progress] = [c, true];
        break;
      }
    }
    for (const c of columnCandidates(best)) {
      if (await tryIt(c)) {
        [best, progress] = [c, true];
        break;
      }
    }
  }
  return best;
}

/** ddmin's complement step, greedily: remove chunks of the event list, from halves down to single events. */
async function shrinkEvents(c: FuzzCase, tryIt: (c: FuzzCase) => Promise<boolean>): Promise<FuzzCase> {
  let events = c.events;
  let chunk = Math.max(1, Math.floor(events.length / 2));
  for (;;) {
    let removed = false;
    for (let at = 0; at < events.length;) {
      const candidate = [...events.slice(0, at), ...events.slice(at + chunk)];
      if (candidate.length < events.length && (await tryIt({ ...c, events: candidate }))) {
        events = candidate;
        removed = true;
      } else {
        at += chunk;
      }
    }
    if (chunk === 1 && !removed) break;
    if (!removed) chunk = Math.max(1, Math.floor(chunk / 2));
  }
  return events === c.events ? c : { ...c, events };
}

/** One table fewer partitions: its events move to the last remaining partition. */
export function partitionCandidates(c: FuzzCase): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const [table, n] of Object.entries(c.partitions)) {
    if (n <= 1) continue;
    for (const next of n > 2 ? [1, n - 1] : [1]) {
      const move = (p: number | undefined) => (p === undefined || p < next ? p : next === 1 ? undefined : next - 1);
      const events = c.events.map((e): FuzzEvent => {
        if (e.kind === 'advance') return e;
        const name = e.kind === 'row' ? e.to : e.table;
        if (name !== table) return e;
        const p = move(e.partition);
        const { partition: _drop, ...rest } = e;
        return (p === undefined ? rest : { ...rest, partition: p }) as FuzzEvent;
      });
      out.push({ ...c, partitions: { ...c.partitions, [table]: next }, events });
    }
  }
  return out;
}

/** One droppable column fewer: out of its table, the SELECT list (and sink) and the events' rows. */
export function columnCandidates(c: FuzzCase): FuzzCase[] {
  const out: FuzzCase[] = [];
  for (const t of c.tables) {
    for (const col of t.columns) {
      if (!col.droppable) continue;
      const ref = `${t.name}.${col.name}`;
      const select = c.select.filter((s) => !s.reads.includes(ref));
      if (select.length === 0) continue;
      if (c.sink?.primaryKey?.some((k) => !select.some((s) => s.alias === k))) continue;
      const tables: TableSpec[] = c.tables.map((x) => (x === t ? { ...x, columns: x.columns.filter((y) => y !== col) } : x));
      const events = c.events.map((e): FuzzEvent => {
        if (e.kind !== 'row' || e.to !== t.name || !(col.name in e.row)) return e;
        const { [col.name]: _drop, ...row } = e.row;
        return { ...e, row };
      });
      out.push({ ...c, tables, select, events });
    }
  }
  return out;
}
