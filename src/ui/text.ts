/**
 * Text for the panes: times in the short clock form, changelog rows in Flink's print form, and
 * every value and name escaped (printable) so a control character in a row can never reach the terminal raw.
 */
import type { Emitted } from '../engine/types.js';
import type { ScenarioEvent } from '../scenario/types.js';
import { formatRow, formatValue } from '../values/format.js';
import { printable } from '../values/printable.js';
import { formatClock } from '../values/time.js';
import type { SqlType, Value } from '../values/types.js';
import type { SessionInfo } from './session.js';

export function clock(ms: number, info: SessionInfo): string {
  return formatClock(ms, info.dateMs);
}

/** A value in a compact form for the panes: times on the scenario date as clock times. */
export function cellText(type: SqlType | undefined, v: Value, info: SessionInfo): string {
  if (v === null) return 'null';
  if (typeof v === 'number' && type !== undefined && (type.kind === 'TIMESTAMP' || type.kind === 'TIMESTAMP_LTZ')) {
    return clock(v, info);
  }
  return printable(type === undefined ? String(v) : formatValue(type, v));
}

/** A changelog row in Flink's print form, `+I[o1, 2026-10-01T09:30, 110.000000]`, escaped. */
export function emittedText(e: Emitted, info: SessionInfo): string {
  return printable(formatRow(e.kind, e.row, info.outputTypes));
}

/** A duration in the scenario format's words: `250 ms`, `5 s`, `30 min`, `2 h`, `1 d`. */
export function durationText(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  for (const [size, name] of units) if (ms !== 0 && ms % size === 0) return `${ms / size} ${name}`;
  return `${ms} ms`;
}

/** One event of the arrival script as a timeline line: `orders[0] +I (o1, EUR, 100.00, 09:30)`. */
export function eventText(ev: ScenarioEvent, info: SessionInfo): string {
  const where = (table: string, p?: number): string => `${printable(table)}[${p === undefined ? 'all' : p}]`;
  switch (ev.kind) {
    case 'row': {
      const table = info.tables.find((t) => t.name === ev.table);
      const cols = table?.columns ?? [];
      const shown = ev.row
        .map((v, i) => ({ v, c: cols[i] }))
        .filter(({ c }) => c === undefined || !c.computed)
        .map(({ v, c }) => cellText(c?.type, v, info));
      return `${where(ev.table, ev.partition)} ${ev.op} (${shown.join(', ')})`;
    }
    case 'watermark': {
      const to = ev.to === 'max' ? 'max' : ev.to === 'generated' ? 'generated' : clock(ev.to, info);
      return `wm ${where(ev.table, ev.partition)} → ${to}`;
    }
    case 'idle':
      return `idle ${where(ev.table, ev.partition)}`;
    case 'active':
      return `active ${where(ev.table, ev.partition)}`;
    case 'advance':
      return `advance +${durationText(ev.ms)}`;
    case 'note':
      return `note: ${printable(ev.note ?? '')}`;
  }
}

