/**
 * What the time diagram draws, as plain data: each row event as a mark at (its event time, the
 * step it arrived at), the join watermark after each step, which rows were late or dropped, and
 * what each step emitted. Derived from the timeline only, so it cannot disagree with the run.
 */
import { compile } from '../engine/context-compile.js';
import { STEP_LATE_DROP, WM_MAX, WM_MIN, type Timeline } from '../engine/types.js';
import type { TableDef } from '../planner/plan.js';
import { formatRow } from '../values/format.js';
import type { Row, RowKind } from '../values/types.js';
import { procTimeAt, type SessionInfo } from '../ui/session.js';
import { eventText } from '../ui/text.js';

/** More steps than this are not readable in one picture: the diagram shows a window of them. */
export const MAX_DIAGRAM_STEPS = 200;

export interface DiagramMark {
  readonly step: number;
  readonly table: string;
  /** Index of the table among the diagram's tables (its shape and colour). */
  readonly lane: number;
  readonly kind: RowKind;
  /** Event time (epoch ms); undefined when the table has no event-time attribute. */
  readonly time?: number;
  /** The row in the timeline's compact form: `+I (o1, EUR, 100.00, 09:30)`. */
  readonly text: string;
  /** Its event time was at or below the join watermark when it arrived. */
  readonly late: boolean;
  /** The join dropped it as late (the step's trace says so). */
  readonly dropped: boolean;
}

export interface DiagramStep {
  readonly step: number;
  /** The event, as the timeline pane prints it. */
  readonly label: string;
  /** The join watermark after the step (WM_MIN: none yet). */
  readonly watermark: number;
  readonly procTime: number;
  /** What the step emitted, in Flink's print form. */
  readonly emitted: readonly string[];
}

export interface DiagramData {
  readonly title: string;
  readonly dateMs: number;
  readonly tables: readonly string[];
  readonly marks: readonly DiagramMark[];
  readonly steps: readonly DiagramStep[];
  /** The step drawn as current; steps after it are drawn faded. */
  readonly current: number;
  /** The run's step count (the diagram may show a window of it). */
  readonly total: number;
}

function eventTimeOf(def: TableDef | undefined, row: Row, procTime: number, timeZone: string): number | undefined {
  const col = def?.watermark?.column;
  if (def === undefined || col === undefined) return undefined;
  let value = row[col];
  const c = def.columns[col];
  if ((value === null || value === undefined) && c?.kind === 'computed' && c.expr !== undefined) {
    // A computed rowtime (`ts AS TO_TIMESTAMP_LTZ(ms, 3)`) is not in the event: compute it.
    const full = row.slice();
    for (const [i, other] of def.columns.entries()) {
      if (other.kind === 'computed' && other.expr !== undefined && i !== col) full[i] = compile(other.expr)(full, { procTime, timeZone });
    }
    value = compile(c.expr)(full, { procTime, timeZone });
  }
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** `upTo`: draw no step after it (practice mode: nothing not yet shown). */
export function diagramData(timeline: Timeline, info: SessionInfo, tables: readonly TableDef[], current: number, upTo?: number): DiagramData {
  const n = upTo === undefined ? timeline.length : Math.max(0, Math.min(upTo, timeline.length));
  const cur = Math.max(0, Math.min(current, n));
  const first = Math.max(1, Math.min(cur - Math.floor(MAX_DIAGRAM_STEPS / 2), n - MAX_DIAGRAM_STEPS + 1));
  const last = Math.min(n, first + MAX_DIAGRAM_STEPS - 1);
  const names = [...new Set(timeline.events.flatMap((e) => (e.kind === 'row' ? [e.table] : [])))];
  const order = tables.map((t) => t.name).filter((t) => names.includes(t));
  const marks: DiagramMark[] = [];
  const steps: DiagramStep[] = [];
  let before = first > 1 ? timeline.describeWatermarks(first - 1).join : WM_MIN;
  const emittedBy = new Map<number, string[]>();
  const size = timeline.changelogSize(last);
  const from = first > 1 ? timeline.changelogSize(first - 1) : 0;
  for (const e of timeline.changelogRange(last, from, size)) {
    const list = emittedBy.get(e.step) ?? [];
    list.push(formatRow(e.kind, e.row, info.outputTypes));
    emittedBy.set(e.step, list);
  }
  for (let i = first; i <= last; i++) {
    const ev = timeline.events[i - 1]!;
    const wm = timeline.describeWatermarks(i).join;
    const procTime = procTimeAt(timeline, info.dateMs, i);
    const label = eventText(ev, info);
    if (ev.kind === 'row') {
      const def = tables.find((t) => t.name === ev.table);
      const time = eventTimeOf(def, ev.row, procTime, info.timeZone);
      const dropped = (timeline.flagsAt(i) & STEP_LATE_DROP) !== 0 && timeline.at(i).trace.some((t) => t.t === 'drop.late');
      marks.push({
        step: i,
        table: ev.table,
        lane: Math.max(0, order.indexOf(ev.table)),
        kind: ev.op,
        ...(time !== undefined ? { time } : {}),
        // The event's text without its `table[partition] ` prefix (the shape names the table).
        text: label.slice(label.indexOf(' ') + 1),
        late: time !== undefined && before > WM_MIN && before < WM_MAX && time <= before,
        dropped,
      });
    }
    steps.push({ step: i, label, watermark: wm, procTime, emitted: emittedBy.get(i) ?? [] });
    before = wm;
  }
  return { title: info.name, dateMs: info.dateMs, tables: order, marks, steps, current: cur, total: timeline.length };
}
