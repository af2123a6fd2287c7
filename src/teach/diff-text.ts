/**
 * `joinstep diff` as text: the rules that differ first, then every step that emitted or dropped
 * something under either release, the two runs side by side. A row only under A is marked `<`,
 * only under B `>`; a step whose output differs is marked `≠` with the rule(s) behind it.
 */
import type { ScenarioEvent } from '../scenario/types.js';
import { printable } from '../values/printable.js';
import type { DiffStep, VersionDiff } from './version-diff.js';

const MAX_COLUMN = 70;

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** What names the rule(s) behind a changed step. */
export function ruleLabel(diff: VersionDiff): string {
  return diff.rules.length === 0 ? 'no version rule of this join differs' : `rule ${diff.rules.map((r) => r.id).join(' / ')}`;
}

/** The cells of one step under A and B, late drops included, as display lines. */
export function stepCells(s: DiffStep): { mark: string; a: string; b: string }[] {
  const cells = s.rows.map((r) => ({ mark: r.mark as string, a: r.a ?? '', b: r.b ?? '' }));
  const late = Math.max(s.lateA.length, s.lateB.length);
  for (let i = 0; i < late; i++) {
    const a = s.lateA[i];
    const b = s.lateB[i];
    cells.push({ mark: a === b ? ' ' : a === undefined ? '>' : b === undefined ? '<' : '≠', a: a === undefined ? '' : `late, dropped: ${a}`, b: b === undefined ? '' : `late, dropped: ${b}` });
  }
  return cells;
}

export function formatVersionDiff(diff: VersionDiff, name: string, eventLabel: (ev: ScenarioEvent) => string): string {
  const [va, vb] = diff.versions;
  const shown = diff.steps.filter((s) => s.a.length + s.b.length + s.lateA.length + s.lateB.length > 0);
  const out: string[] = [printable(name), `Flink ${va} → ${vb}: ${diff.differing} of ${diff.steps.length} step${diff.steps.length === 1 ? '' : 's'} differ`];
  if (diff.rules.length === 0) out.push(`no version rule differs between ${va} and ${vb} for this join`);
  else {
    out.push(`rules that differ between ${va} and ${vb} for this join:`);
    for (const r of diff.rules) out.push(`  ${r.id}: ${r.title}`, `    ${va}: ${r.text(va)}`, `    ${vb}: ${r.text(vb)}`);
  }
  const cellsOf = new Map(shown.map((s) => [s.step, stepCells(s).map((c) => ({ ...c, a: printable(c.a), b: printable(c.b) }))]));
  const width = Math.min(MAX_COLUMN, Math.max(`Flink ${va}`.length, ...[...cellsOf.values()].flat().map((c) => c.a.length)));
  for (const s of shown) {
    out.push('');
    out.push(`step ${s.step}  ${printable(eventLabel(s.event))}${s.same ? '' : `   ≠ differs · ${ruleLabel(diff)}`}`);
    out.push(`    ${pad(`Flink ${va}`, width)}   Flink ${vb}`);
    for (const c of cellsOf.get(s.step) ?? []) out.push(`  ${c.mark} ${pad(c.a, width)} │ ${c.b}`.replace(/\s+$/, ''));
  }
  if (shown.length === 0) out.push('', 'no step emits or drops a row under either release');
  return `${out.join('\n')}\n`;
}
