/**
 * The changelog pane while comparing versions (`V`): the shown run's rows and the other
 * release's, side by side per step up to the cursor; a step whose rows differ is marked ≠ and
 * its rows that are only in one run are highlighted, and the rules that differ are named on top.
 */
import { stepCells } from '../../teach/diff-text.js';
import { type Line, seg } from '../lines.js';
import type { UiState } from '../state.js';
import { printable } from '../../values/printable.js';
import { pad, titleLine, wrap } from './common.js';

export function compareBox(s: UiState, width: number, height: number): Line[] {
  const c = s.compare!;
  const [va, vb] = c.diff.versions;
  const title = titleLine(`Flink ${va} ↔ ${vb}`, s.focus === 'changelog', `${c.diff.differing} step${c.diff.differing === 1 ? ' differs' : 's differ'}`);
  const inner = Math.max(0, height - 1);
  const w = Math.max(10, width - 1);
  if (c.base !== s.session.timeline) return [title, [seg(' the run changed since: V recompares', { tone: 'warn' })]];
  const head: Line[] = [];
  for (const r of c.diff.rules) head.push(...wrap(`${r.id}: ${r.title}`, w - 1).map((t) => [seg(` ${t}`, { tone: 'key' })]));
  if (c.diff.rules.length === 0) head.push([seg(' no version rule of this join differs', { tone: 'muted' })]);
  const half = Math.max(6, Math.floor((w - 5) / 2));
  head.push([seg(` ${pad(`  ${va}`, half + 2)}│ ${vb}`, { bold: true })]);
  const body: Line[] = [];
  let lastHeader = 0;
  for (const st of c.diff.steps) {
    if (st.step > s.step) break;
    const cells = stepCells(st);
    if (cells.length === 0) continue;
    lastHeader = body.length;
    body.push([seg(` step ${st.step}`, { bold: true }), seg(st.same ? '' : '  ≠ differs', { tone: 'warn', bold: true })]);
    for (const cell of cells) {
      const differs = cell.mark !== ' ';
      const style = differs ? { tone: 'changed' as const, inverse: true } : {};
      const a = printable(cell.a);
      const b = printable(cell.b);
      body.push([seg(` ${cell.mark} `, differs ? { tone: 'warn' as const, bold: true } : {}), seg(pad(a.length > half ? `${a.slice(0, half - 1)}…` : a, half), cell.a === '' ? {} : style), seg('│ ', { tone: 'muted' }), seg(b, cell.b === '' ? {} : style)]);
    }
  }
  if (body.length === 0) body.push([seg(' no rows yet under either version', { dim: true })]);
  // The newest step stays in view from its heading on, as far as the pane allows.
  const room = Math.max(0, inner - head.length);
  const start = Math.max(0, Math.min(lastHeader, body.length - room + 1));
  const shown = body.length > room ? [[seg(' ↑ earlier steps', { tone: 'muted' })], ...body.slice(start)] : body;
  return [title, ...head.slice(0, inner), ...shown].slice(0, height);
}
