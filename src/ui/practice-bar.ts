/**
 * The key bar while an answer is typed: the fields of the row so far, the one being typed with
 * its column type, what `tab` would offer, and the keys. Built like the what-if form's bar.
 */
import { clip, type Line, type Segment, seg } from './lines.js';
import { candidates, fieldLabel } from './practice-entry.js';
import type { Mode, UiState } from './state.js';
import { printable } from '../values/printable.js';

export function answerBar(s: UiState, mode: Extract<Mode, { k: 'answer' }>): Line {
  const parts: Segment[] = [seg(` step ${mode.step}, row ${mode.rows.length + 1}: `, { tone: 'key', bold: true })];
  for (let i = 0; i <= mode.field; i++) {
    const { name, hint } = fieldLabel(s, i);
    const value = printable(mode.values[i] ?? '');
    if (i < mode.field) parts.push(seg(`${printable(name)}=${value} `, { tone: 'muted' }));
    else {
      const offer = candidates(s, mode, i).slice(0, 4).map(printable).join(' ');
      // The kind's hint already lists what tab offers.
      const tab = i === 0 ? '' : `; tab: ${clip(offer, 30)}`;
      parts.push(seg(`${printable(name)}: `, { bold: true }), seg(value), seg('█'), seg(` (${printable(hint)}${tab}) `, { tone: 'muted' }));
    }
  }
  parts.push(seg(' enter next · ↑ back · esc later', { tone: 'muted' }));
  return parts;
}
