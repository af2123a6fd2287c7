/**
 * The changelog of an edited run against the original run, as multisets of row texts over the
 * whole run: a row "appeared" when its text occurs more often than in the original (the extra
 * occurrences, in order), and "disappeared" when it occurs less often. Whole-run multisets, not a
 * step-by-step alignment, because an edit shifts the steps after it.
 */
import type { Timeline } from '../engine/types.js';
import type { QueryView, SessionInfo } from './session.js';
import { sessionViews } from './session.js';
import type { UiState } from './state.js';
import { emittedText } from './text.js';

export interface ChangelogDiff {
  /** Per row of the edited run's whole changelog: not in the original run. */
  readonly added: readonly boolean[];
  /** Rows of the original run that the edited run no longer emits, in original order. */
  readonly removed: readonly string[];
}

function allTexts(tl: Timeline, info: SessionInfo): string[] {
  const size = tl.changelogSize(tl.length);
  return tl.changelogRange(tl.length, 0, size).map((e) => emittedText(e, info));
}

const cache = new WeakMap<Timeline, { original: Timeline; diff: ChangelogDiff }>();

export function changelogDiff(now: QueryView, original: QueryView): ChangelogDiff {
  const hit = cache.get(now.timeline);
  if (hit !== undefined && hit.original === original.timeline) return hit.diff;
  const before = new Map<string, number>();
  for (const t of allTexts(original.timeline, original.info)) before.set(t, (before.get(t) ?? 0) + 1);
  const seen = new Map<string, number>();
  const added = allTexts(now.timeline, now.info).map((t) => {
    const n = (seen.get(t) ?? 0) + 1;
    seen.set(t, n);
    return n > (before.get(t) ?? 0);
  });
  const removed: string[] = [];
  const used = new Map<string, number>();
  for (const t of allTexts(original.timeline, original.info)) {
    const n = (used.get(t) ?? 0) + 1;
    used.set(t, n);
    if (n > (seen.get(t) ?? 0)) removed.push(t);
  }
  const diff = { added, removed };
  cache.set(now.timeline, { original: original.timeline, diff });
  return diff;
}

/** The diff for the view a pane shows (the followed one unless given), once an edit was made. */
export function diffOf(s: UiState, view?: QueryView): ChangelogDiff | undefined {
  if (s.edit === undefined) return undefined;
  const now = view ?? { name: '', info: s.session.info, timeline: s.session.timeline };
  const originals = sessionViews(s.edit.original);
  const name = view?.name ?? sessionViews(s.session)[s.session.follow ?? 0]?.name;
  const original = originals.find((v) => v.name === name) ?? originals[0];
  return original === undefined ? undefined : changelogDiff(now, original);
}
