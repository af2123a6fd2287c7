/** The practice score over the whole body: the total, then each question with both answers. */
import type { ScoreReport } from '../teach/practice-score.js';
import { clip, type Line, seg } from './lines.js';
import { VERDICT_TEXT } from './panes/practice-pane.js';
import { printable } from '../values/printable.js';

export function scoreLines(report: ScoreReport | undefined, width: number, height: number, scoreOut?: string): Line[] {
  if (report === undefined) return [[seg(' no practice run', { bold: true })]];
  const points = Number.isInteger(report.points) ? String(report.points) : report.points.toFixed(1);
  const out: Line[] = [
    [seg(` practice score: ${points} / ${report.asked} (${report.percent}%)`, { bold: true, inverse: true }), seg(`  ${report.answered} of ${report.asked} answered`, { tone: 'muted' })],
    [seg(` ${printable(report.scenario)}`, { tone: 'muted' })],
    [],
  ];
  const body: Line[] = [];
  for (const q of report.questions) {
    const tone = q.verdict === 'right' ? 'insert' : q.verdict === 'order' ? 'changed' : 'warn';
    body.push([seg(` step ${q.step} `, { bold: true }), seg(VERDICT_TEXT[q.verdict], { tone, bold: true }), seg(`  ${clip(printable(q.event), Math.max(10, width - 40))}`, { tone: 'muted' })]);
    body.push([seg(`     you:  ${q.answer === null ? '—' : q.answer.length === 0 ? 'nothing' : printable(q.answer.join('  '))}`)]);
    body.push([seg(`     real: ${q.expected.length === 0 ? 'nothing' : printable(q.expected.join('  '))}`)]);
  }
  const room = Math.max(0, height - out.length - 2);
  out.push(...body.slice(0, room));
  if (body.length > room) out.push([seg(` … ${Math.ceil((body.length - room) / 3)} more question(s) in the score file`, { tone: 'muted' })]);
  out.push([seg(` q quits · any other key ends practice and shows every step${scoreOut !== undefined ? ` · score file: ${printable(scoreOut)}` : ''}`, { tone: 'key' })]);
  return out;
}
