/**
 * Practice mode in the running app (ink-testing-library, real engine): answer entry with
 * completion, the reveal beside the real rows, the score; and, for every bundled scenario at
 * 80x24 and 200x60, that no frame shows a row (or a note) of a step before that step is shown.
 */
import { lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findScenarioFiles } from '../../src/cli/scenario-files.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { App } from '../../src/ui/App.js';
import type { Session } from '../../src/ui/session.js';
import { loadSession } from '../../src/ui/session-load.js';
import { formatRow } from '../../src/values/format.js';
import { REPO_ROOT } from '../paths.js';
import { frame, KEY, press, render, type Rendered, unmount } from './helpers.js';

const EUR = `${REPO_ROOT}/scenarios/temporal-eur-rate.yaml`;
const open: Rendered[] = [];

afterEach(async () => {
  for (const r of open.splice(0)) await unmount(r);
});

async function session(file: string): Promise<Session> {
  const r = await loadSession(file);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.session;
}

async function practise(file: string, size: { columns: number; rows: number }, scoreOut?: string): Promise<Rendered> {
  const r = await render(<App session={await session(file)} practice={scoreOut === undefined ? {} : { scoreOut }} />, size);
  open.push(r);
  return r;
}

const statusOf = (r: Rendered): string => frame(r).split('\n')[0] ?? '';
const keyBarOf = (r: Rendered): string => frame(r).split('\n').filter((l) => l.trim() !== '').pop() ?? '';

describe('practice on the EUR scenario', () => {
  it('--score-out through a symbolic link writes the file it points to, and the link stays a link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-practice-'));
    const real = join(dir, 'real-score.json');
    writeFileSync(real, '{}\n');
    const link = join(dir, 'score.json');
    symlinkSync(real, link);
    const r = await practise(EUR, { columns: 80, rows: 24 }, link);
    // One answer, then quit: the score is written on quit.
    await press(r, 'n', 'n', 'n', ...'nothing', KEY.enter, 'q');
    await vi.waitFor(() => expect(JSON.parse(readFileSync(real, 'utf8'))).toMatchObject({ answered: 1, points: 1 }));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it.each([
    [80, 24],
    [200, 60],
  ])('%ix%i: asks, takes typed rows with completion, reveals beside the real rows, scores', async (columns, rows) => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-practice-'));
    const scoreFile = join(dir, 'score.json');
    const r = await practise(EUR, { columns, rows }, scoreFile);
    expect(statusOf(r)).toContain('practice');
    // Steps 1 and 2 (rates rows) emit nothing and are not marked: n moves on. Step 3 is marked ask:.
    await press(r, 'n', 'n', 'n');
    expect(statusOf(r)).toContain('step 2/6');
    expect(keyBarOf(r)).toContain('step 3, row 1: kind:');
    expect(frame(r)).toContain('The order arrives.');
    expect(frame(r)).toContain('hint: An event-time');
    // Enter on an empty kind with no rows is refused; "nothing" is an answer.
    await press(r, KEY.enter);
    expect(frame(r)).toContain('type a row kind');
    await press(r, ...'nothing', KEY.enter);
    expect(statusOf(r)).toContain('step 3/6');
    expect(frame(r)).toContain('✓ right');
    // Step 4 is marked `ask: true`; answer a wrong row, typed whole.
    await press(r, 'n');
    expect(keyBarOf(r)).toContain('step 4, row 1: kind:');
    await press(r, ...'+I[o1, 09:30, 120]', KEY.enter, KEY.enter);
    expect(statusOf(r)).toContain('step 4/6');
    expect(frame(r)).toContain('✗ not this');
    // Step 5 is a note (never asked); step 6 emits: typed field by field, with tab completion.
    await press(r, 'n', 'n');
    expect(statusOf(r)).toContain('step 5/6');
    expect(keyBarOf(r)).toContain('step 6, row 1: kind:');
    await press(r, KEY.tab);
    expect(keyBarOf(r)).toContain('kind: +I█');
    await press(r, KEY.enter, KEY.tab);
    expect(keyBarOf(r)).toContain('order_id: o1█');
    await press(r, KEY.enter, KEY.tab);
    expect(keyBarOf(r)).toContain('order_time: 09:30█');
    await press(r, KEY.enter, '1', '1', '0', KEY.enter);
    expect(frame(r)).toContain('+I[o1, 09:30, 110]');
    await press(r, KEY.enter);
    expect(statusOf(r)).toContain('step 6/6');
    expect(frame(r)).toContain('✓ right');
    // The why text of the real row, beside the answer.
    expect(frame(r)).toContain('matched r version');
    await press(r, 'n');
    expect(frame(r)).toContain('practice score: 2 / 3 (67%)');
    await vi.waitFor(() => expect(frame(r)).toContain(`score written to ${scoreFile}`));
    const score = JSON.parse(readFileSync(scoreFile, 'utf8'));
    expect(score).toMatchObject({ asked: 3, answered: 3, points: 2, percent: 67 });
    expect(score.questions.map((q: { step: number; verdict: string }) => [q.step, q.verdict])).toEqual([
      [3, 'right'],
      [4, 'wrong'],
      [6, 'right'],
    ]);
    expect(score.questions[2].expected).toEqual(['+I[o1, 2026-10-01T09:30, 110.000000]']);
    // Any key but q ends practice: every step is shown again.
    await press(r, 'x');
    expect(statusOf(r)).not.toContain('practice');
  });

  it('backspace on an empty kind takes the last row back to fix it; esc leaves the question for later', async () => {
    const r = await practise(EUR, { columns: 100, rows: 30 });
    await press(r, 'n', 'n', 'n', ...'+D', KEY.enter);
    expect(frame(r)).toContain('a row kind is +I, -U, +U, -D');
    await press(r, KEY.backspace, KEY.backspace, ...'-D[o1, 09:30, 1]', KEY.enter);
    expect(frame(r)).toContain('-D[o1, 09:30, 1]');
    await press(r, KEY.backspace);
    expect(keyBarOf(r)).toContain('amount_usd: 1█');
    await press(r, KEY.esc);
    expect(keyBarOf(r)).toContain('step 3 not answered yet');
    // Stepping on asks again; nothing was revealed meanwhile.
    expect(statusOf(r)).toContain('step 2/6');
    await press(r, 'G');
    expect(statusOf(r)).toContain('step 2/6');
    expect(keyBarOf(r)).toContain('step 3, row 1');
  });

  it('keeps what-if edits and manual steps off while practising', async () => {
    const r = await practise(EUR, { columns: 100, rows: 30 });
    for (const key of ['w', 'e', 'x', 'b']) {
      await press(r, key);
      expect(keyBarOf(r)).toContain('not while practising');
    }
  });
});

/** Everything a step could leak, by step: its emitted rows' text and its note. */
function secretsByStep(s: Session): Map<number, string[]> {
  const tl = s.timeline;
  const out = new Map<number, string[]>();
  for (const e of tl.changelogRange(tl.length, 0, tl.changelogSize(tl.length))) {
    const list = out.get(e.step) ?? [];
    list.push(formatRow(e.kind, e.row, s.info.outputTypes));
    out.set(e.step, list);
  }
  tl.events.forEach((ev, i) => {
    if (ev.note === undefined) return;
    const list = out.get(i + 1) ?? [];
    // The note's first words are enough to recognise it, even in a line cut to the pane's width.
    list.push(ev.note.slice(0, 24));
    out.set(i + 1, list);
  });
  return out;
}

/** Rows anyone may see before: the input rows of the events, printed as the panes print rows. */
function inputTexts(s: Session): Set<string> {
  const out = new Set<string>();
  for (const ev of s.timeline.events) {
    if (ev.kind !== 'row') continue;
    const t = s.info.tables.find((x) => x.name === ev.table);
    if (t !== undefined) out.add(formatRow(ev.op, ev.row, t.columns.map((c) => c.type)));
  }
  return out;
}

const files = findScenarioFiles([`${REPO_ROOT}/scenarios`]).files;

describe('no answer shows before it is asked for, on every bundled scenario', () => {
  it('has scenarios to practise', () => expect(files.length).toBeGreaterThan(20));
  for (const file of files) {
    it.each([
      [80, 24],
      [200, 60],
    ])(`${file.split('/').pop()} at %ix%i`, async (columns, rows) => {
      const loaded = await loadScenarioFile(file);
      if (!loaded.ok) return; // a scenario that expects a planning error has no run to practise
      const s = await session(file);
      const secrets = secretsByStep(s);
      const visible = inputTexts(s);
      const r = await practise(file, { columns, rows });
      let seen = 0;
      let revealed = 0;
      let asked = 0;
      // Walk the whole run answering "nothing": before every reveal, no frame so far may hold a
      // secret of a later step (unless the same text was already out, or is an input row).
      for (let guard = 0; guard < 4 * (s.timeline.length + 2); guard++) {
        const frames = r.frames.slice(seen);
        seen = r.frames.length;
        const shown = new Set<string>();
        for (let i = 1; i <= revealed; i++) for (const t of secrets.get(i) ?? []) shown.add(t);
        for (let i = revealed + 1; i <= s.timeline.length; i++) {
          for (const t of secrets.get(i) ?? []) {
            if (shown.has(t) || visible.has(t) || t.length < 8) continue;
            for (const f of frames) expect(f.includes(t), `step ${i} "${t}" visible while at step ${revealed}`).toBe(false);
          }
        }
        const status = statusOf(r);
        if (status.includes('practice score')) break;
        if (keyBarOf(r).includes(', row 1: kind:')) {
          asked++;
          // One chunk, as a paste arrives: the keys apply one by one, in one frame.
          await press(r, `nothing${KEY.enter}`);
        } else await press(r, 'n');
        revealed = Number(/step (\d+)\//.exec(statusOf(r))?.[1] ?? revealed);
        if (frame(r).includes('practice score')) break;
      }
      expect(frame(r)).toContain('practice score');
      expect(frame(r)).toContain(`/ ${asked} (`);
    });
  }
});
