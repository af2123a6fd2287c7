/**
 * The changelog pane of a multi-query scenario: one column per query, each titled with the query
 * name, all at the same step (the queries share the events). The followed query's column (the
 * one the state and why panes show, `v` cycles it) is marked ● and keeps the row selection.
 */
import { diffOf } from '../diff.js';
import { box, type Line, seg, type Segment } from '../lines.js';
import { split } from '../layout.js';
import { type QueryView, sessionViews } from '../session.js';
import type { UiState } from '../state.js';
import { changelogLines, changelogTitle } from './changelog-pane.js';
import { titleLine } from './common.js';

const SEPARATOR = seg('│', { tone: 'muted' });

export function isSideBySide(s: UiState): boolean {
  return sessionViews(s.session).length > 1;
}

/** The pane's full box (title line included), `height` lines of exactly `width` cells. */
export function sideBySideBox(s: UiState, width: number, height: number): Line[] {
  const views = sessionViews(s.session);
  const follow = s.session.follow ?? 0;
  const widths = split(width - (views.length - 1), views.map(() => 1), 1);
  const blocks = views.map((v, k) => box(column(s, v, k === follow, height), widths[k] ?? 1, height));
  const out: Segment[][] = [];
  for (let y = 0; y < height; y++) out.push(blocks.flatMap((b, k) => (k > 0 ? [SEPARATOR, ...(b[y] ?? [])] : (b[y] ?? []))));
  return out;
}

function column(s: UiState, v: QueryView, followed: boolean, height: number): Line[] {
  const sub: UiState = { ...s, session: { ...s.session, info: v.info, timeline: v.timeline }, ...(followed ? {} : { selected: undefined }) };
  const diff = diffOf(s, v);
  const [title, extra] = changelogTitle(sub, diff, `${followed ? '●' : ' '}${v.name}`);
  const body = changelogLines(sub, Math.max(0, height - 1), diff, true);
  return [titleLine(title, followed && s.focus === 'changelog', extra), ...body.map((l) => [seg(' '), ...l])];
}
