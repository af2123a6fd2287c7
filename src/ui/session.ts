/**
 * A session: the loaded scenario's facts the panes need (names, types, date, zone), plus the
 * computed Timeline. Built once per load or reload; the panes never touch the Scenario again.
 */
import type { Timeline } from '../engine/types.js';
import type { JoinFamily, JoinType } from '../planner/plan.js';
import type { Scenario, ScenarioEvent } from '../scenario/types.js';
import type { SqlType } from '../values/types.js';

export interface TableInfo {
  readonly name: string;
  readonly columns: readonly { readonly name: string; readonly type: SqlType; readonly computed: boolean }[];
  /** The rowtime is a TIMESTAMP_LTZ: a typed watermark time is read in the session time zone. */
  readonly rowtimeLtz: boolean;
}

export interface SessionInfo {
  readonly file: string;
  readonly name: string;
  readonly description?: string;
  /** Epoch ms of the scenario date 00:00 UTC. */
  readonly dateMs: number;
  readonly timeZone: string;
  readonly family: JoinFamily;
  readonly joinType: JoinType;
  /** Display names of the two join inputs: "orders AS o". */
  readonly sides: readonly [string, string];
  readonly outputNames: readonly string[];
  readonly outputTypes: readonly SqlType[];
  readonly tables: readonly TableInfo[];
}

export interface Session {
  readonly info: SessionInfo;
  readonly timeline: Timeline;
  /**
   * Every named query of a multi-query scenario, in file order (absent or one = single query).
   * They share the events, so their timelines have the same steps; `info` / `timeline` above are
   * the followed one's (`follow`), which the state and why panes show.
   */
  readonly views?: readonly QueryView[];
  readonly follow?: number;
  /** The scenario file's text as loaded: what-if edits are spliced into it. */
  readonly text?: string;
  /** The loaded scenario (its version and tables: the version compare and the diagram). */
  readonly scenario?: Scenario;
  /** Some events come from data files (`replay:`): what-if edits are off. */
  readonly replayed?: boolean;
}

export interface QueryView {
  readonly name: string;
  readonly info: SessionInfo;
  readonly timeline: Timeline;
}

/** The query views of a session: its own info/timeline when it is a single-query one. */
export function sessionViews(s: Session): readonly QueryView[] {
  return s.views !== undefined && s.views.length > 1 ? s.views : [{ name: 'main', info: s.info, timeline: s.timeline }];
}

/** The session following view `k`, with every view's timeline passed through `f` (same steps). */
export function followView(s: Session, k: number, f: (t: Timeline) => Timeline = (t) => t): Session {
  if (s.views === undefined || s.views.length <= 1) return { ...s, timeline: f(s.timeline) };
  const views = s.views.map((v) => ({ ...v, timeline: f(v.timeline) }));
  const i = ((k % views.length) + views.length) % views.length;
  const v = views[i]!;
  return { ...s, views, follow: i, info: v.info, timeline: v.timeline };
}

export function sessionInfo(scenario: Scenario, queryIndex = 0): SessionInfo {
  const query = scenario.queries[queryIndex] ?? scenario.queries[0];
  if (query === undefined) throw new Error('[ui] scenario has no query');
  const plan = query.plan;
  const sideName = (i: 0 | 1): string => {
    const input = plan.inputs[i];
    return input.alias === input.table ? input.table : `${input.table} AS ${input.alias}`;
  };
  return {
    file: scenario.file,
    name: scenario.name,
    ...(scenario.description !== undefined ? { description: scenario.description } : {}),
    dateMs: scenario.date,
    timeZone: scenario.config.localTimeZone,
    family: plan.family,
    joinType: plan.joinType,
    sides: [sideName(0), sideName(1)],
    outputNames: plan.output.names,
    outputTypes: plan.output.types,
    tables: plan.tables.map((t) => ({
      name: t.name,
      columns: t.columns.map((c) => ({ name: c.name, type: c.type, computed: c.kind === 'computed' })),
      rowtimeLtz: t.watermark !== undefined && t.columns[t.watermark.column]?.type.kind === 'TIMESTAMP_LTZ',
    })),
  };
}

/** Manual actions are stamped with line 0, which no event read from a file has. */
export const MANUAL_POS = { line: 0, col: 0 } as const;

export function isManual(ev: ScenarioEvent): boolean {
  return ev.pos.line === 0;
}

/** A timeline's clocks so far: `at[i]` after step i, for steps 0..`n`. */
interface Clocks {
  at: Float64Array;
  n: number;
}

const clockCache = new WeakMap<Timeline, Clocks>();

/**
 * Processing time after each step. The spec's clock moves only by `at` and `advance`, so it is a
 * prefix fold over the events; folded once per timeline (timelines are immutable), and further
 * as its events grow (a big file read while its run is computed, load-and-run.ts).
 */
export function procTimeAt(timeline: Timeline, dateMs: number, step: number): number {
  const events = timeline.events;
  let c = clockCache.get(timeline);
  if (c === undefined) {
    const at = new Float64Array(events.length + 1);
    at[0] = events[0]?.at ?? dateMs;
    c = { at, n: 0 };
    clockCache.set(timeline, c);
  }
  // Step 0's clock is the first event's `at`: known once there is a first event.
  if (c.n < events.length && (step > c.n || c.n === 0)) {
    if (c.n === 0) c.at[0] = events[0]?.at ?? dateMs;
    if (c.at.length < events.length + 1) {
      const grown = new Float64Array(Math.max(events.length + 1, c.at.length * 2));
      grown.set(c.at.subarray(0, c.n + 1));
      c.at = grown;
    }
    let now = c.at[c.n]!;
    for (let i = c.n; i < events.length; i++) {
      const ev = events[i]!;
      if (ev.at !== undefined && ev.at > now) now = ev.at;
      if (ev.kind === 'advance') now += ev.ms;
      c.at[i + 1] = now;
    }
    c.n = events.length;
  }
  return c.at[Math.max(0, Math.min(step, c.n))] ?? dateMs;
}
