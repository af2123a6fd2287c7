/**
 * Watermarks: every table and partition (generated, emitted, idle), each table's combined value
 * and the partition holding it back, then the join's watermark, who holds it back, and the
 * join's output watermark. Values that moved in this step are highlighted.
 */
import type { PartitionWatermarkView, TableWatermarkView, WatermarkView } from '../../engine/types.js';
import { type Line, type Segment, seg } from '../lines.js';
import type { UiState } from '../state.js';
import { stepView } from '../step-view.js';
import { clock } from '../text.js';
import { printable } from '../../values/printable.js';
import { pad } from './common.js';

export function watermarkLines(s: UiState): Line[] {
  const tl = s.session.timeline;
  const view = stepView(tl, s.step);
  const now = view.watermarks;
  const before = view.previous.watermarks;
  const c = (ms: number): string => clock(ms, s.session.info);
  const out: Line[] = [];
  const nameWidth = Math.max(...now.tables.map((t) => t.table.length), 4);
  for (const t of now.tables) {
    const old = before.tables.find((b) => b.table === t.table);
    out.push(tableLine(t, old, nameWidth, c));
    for (const p of t.partitions) out.push(partitionLine(p, old?.partitions.find((q) => q.partition === p.partition), c));
  }
  out.push(...joinLines(now, before, c));
  return out;
}

function hi(changed: boolean): { tone?: 'changed'; bold?: boolean } {
  return changed ? { tone: 'changed', bold: true } : {};
}

function tableLine(t: TableWatermarkView, old: TableWatermarkView | undefined, width: number, c: (ms: number) => string): Line {
  const side = t.side === undefined ? 'lookup' : t.side === 0 ? 'left' : 'right';
  const parts: Segment[] = [
    seg(pad(printable(t.table), width), { bold: true }),
    seg(` ${side.padEnd(5)} wm `),
    seg(c(t.combined), { ...hi(old !== undefined && old.combined !== t.combined), tone: old?.combined !== t.combined ? 'changed' : 'wm' }),
  ];
  if (t.idle) parts.push(seg(' IDLE', { tone: 'warn', bold: true }));
  if (t.heldBy !== undefined && t.partitions.length > 1) parts.push(seg(` held by p${t.heldBy}`, { tone: 'muted' }));
  return parts;
}

function partitionLine(p: PartitionWatermarkView, old: PartitionWatermarkView | undefined, c: (ms: number) => string): Line {
  const parts: Segment[] = [
    seg(`  p${p.partition} gen `),
    seg(c(p.generated).padEnd(6), hi(old !== undefined && old.generated !== p.generated)),
    seg(' emit '),
    seg(c(p.emitted).padEnd(6), hi(old !== undefined && old.emitted !== p.emitted)),
  ];
  if (p.idle) parts.push(seg(' idle', { tone: 'warn', ...hi(old !== undefined && !old.idle) }));
  else if (old?.idle === true) parts.push(seg(' active', hi(true)));
  if (p.idleAt !== undefined && !p.idle) parts.push(seg(` idle at ${c(p.idleAt)}`, { tone: 'muted' }));
  return parts;
}

function joinLines(now: WatermarkView, before: WatermarkView, c: (ms: number) => string): Line[] {
  const join: Segment[] = [seg('join wm ', { bold: true }), seg(c(now.join), { ...hi(now.join !== before.join), tone: now.join !== before.join ? 'changed' : 'wm', bold: true })];
  if (now.heldBy !== undefined) join.push(seg(` held back by ${printable(now.heldBy)}`, { tone: 'muted' }));
  const output: Line = [seg('join output wm '), seg(c(now.output), hi(now.output !== before.output))];
  return [join, output];
}
