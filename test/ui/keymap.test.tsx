/**
 * Every keymap command, pressed in the running app (ink-testing-library under act), checked by
 * the frame's text. A final test fails when a binding is added to the table without a test here.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, type ReloadResult } from '../../src/ui/App.js';
import { type CommandId, KEYMAP } from '../../src/ui/keymap.js';
import { storySession } from './fake-timeline.js';
import { frame, KEY, press, render, type Rendered, unmount } from './helpers.js';
import { expectPanesWhereLaidOut } from './layout-check.js';
import { EUR_EXAMPLE, SIDE_BY_SIDE, tempCopy } from './whatif-helpers.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths.js';
import { act } from 'react';
import type { UiState } from '../../src/ui/state.js';
import { writeDiagram } from '../../src/ui/teach-effects.js';

const SIZE = { columns: 100, rows: 30 };
const tested = new Set<CommandId>();
const open: Rendered[] = [];

async function app(props: Partial<Parameters<typeof App>[0]> = {}): Promise<Rendered> {
  const r = await render(<App session={storySession()} {...props} />, SIZE);
  open.push(r);
  return r;
}

function statusOf(r: Rendered): string {
  return frame(r).split('\n')[0] ?? '';
}

function keyBarOf(r: Rendered): string {
  const lines = frame(r).split('\n');
  return lines[lines.length - 1] ?? '';
}

afterEach(async () => {
  for (const r of open.splice(0)) await unmount(r);
  vi.useRealTimers();
});

describe('stepping', () => {
  it.each([['n'], [KEY.space], [KEY.right]])('next with %j', async (key) => {
    tested.add('next');
    const r = await app();
    expect(statusOf(r)).toContain('step 0/7');
    await press(r, key);
    expect(statusOf(r)).toContain('step 1/7');
  });

  it('a burst of keys in one chunk (fast typing, a held key) applies every key', async () => {
    const r = await app();
    await press(r, 'nnn');
    expect(statusOf(r)).toContain('step 3/7');
    await press(r, ':12\r');
    expect(statusOf(r)).toContain('step 7/7');
  });

  it.each([['p'], [KEY.left]])('back with %j', async (key) => {
    tested.add('prev');
    const r = await app();
    await press(r, 'n', 'n', key);
    expect(statusOf(r)).toContain('step 1/7');
  });

  it('G goes to the end, g to the start', async () => {
    tested.add('first').add('last');
    const r = await app();
    await press(r, 'G');
    expect(statusOf(r)).toContain('step 7/7');
    await press(r, 'g');
    expect(statusOf(r)).toContain('step 0/7');
  });

  it(': goes to a typed step, and rejects a non-number', async () => {
    tested.add('goto');
    const r = await app();
    await press(r, ':', '5');
    expect(keyBarOf(r)).toContain('go to step: 5');
    await press(r, KEY.enter);
    expect(statusOf(r)).toContain('step 5/7');
    await press(r, ':', 'x', KEY.enter);
    expect(keyBarOf(r)).toContain('"x" is not a step number');
  });
});

describe('manual actions become steps that can be stepped back over', () => {
  it('w advances a chosen partition to a typed time', async () => {
    tested.add('watermark');
    const r = await app();
    await press(r, 'n', 'w');
    expect(keyBarOf(r)).toContain('[orders[0]]');
    await press(r, KEY.down);
    expect(keyBarOf(r)).toContain('[rates[0]]');
    await press(r, KEY.enter, '0', '9', ':', '4', '5', KEY.enter);
    expect(statusOf(r)).toContain('step 2/8');
    expect(frame(r)).toContain('✎ wm rates[0] → 09:45');
    await press(r, 'p');
    expect(statusOf(r)).toContain('step 1/8');
  });

  it('w with an empty time uses the generated value', async () => {
    const r = await app();
    await press(r, 'w', KEY.enter, KEY.enter);
    expect(frame(r)).toContain('✎ wm orders[0] → generated');
  });

  it('i toggles a partition idle', async () => {
    tested.add('idle');
    const r = await app();
    await press(r, 'i', KEY.down, KEY.down);
    expect(keyBarOf(r)).toContain('[rates[1] active]');
    await press(r, KEY.enter);
    expect(statusOf(r)).toContain('step 1/8');
    expect(frame(r)).toContain('✎ idle rates[1]');
  });

  it('t advances processing time by a typed duration', async () => {
    tested.add('clock');
    const r = await app();
    await press(r, 't', '5', KEY.space, 's', KEY.enter);
    expect(frame(r)).toContain('✎ advance +5 s');
    expect(statusOf(r)).toContain('proc 00:00:05');
    await press(r, 't', 'z', 'z', KEY.enter);
    expect(statusOf(r)).toContain('step 1/8');
    expect(keyBarOf(r)).toContain('"zz"');
  });
});

describe('play', () => {
  it('enter plays and pauses; + and - change the speed', async () => {
    tested.add('play').add('faster').add('slower');
    const r = await app();
    await press(r, KEY.enter);
    expect(statusOf(r)).toContain('▶ playing 2/s');
    await press(r, '+');
    expect(statusOf(r)).toContain('5/s');
    await press(r, '=');
    expect(statusOf(r)).toContain('10/s');
    await press(r, '-', '-', '-');
    expect(statusOf(r)).toContain('1/s');
    await press(r, KEY.enter);
    expect(statusOf(r)).toContain('paused');
  });

  it('playing steps on the timer and stops at the end', async () => {
    vi.useFakeTimers();
    const r = await app();
    await press(r, KEY.enter);
    const { act } = await import('react');
    await act(async () => void vi.advanceTimersByTime(1100));
    expect(statusOf(r)).toContain('step 2/7');
    await act(async () => void vi.advanceTimersByTime(10_000));
    expect(statusOf(r)).toContain('step 7/7');
    expect(statusOf(r)).toContain('paused');
  });
});

describe('run to the next …', () => {
  it.each([
    ['e', 'runEmit', 'step 6/7'],
    ['r', 'runRetract', 'step 7/7'],
    ['l', 'runLate', 'step 5/7'],
    ['w', 'runWatermark', 'step 2/7'],
  ] as const)('b %s', async (letter, cmd, expected) => {
    tested.add('runTo').add(cmd);
    const r = await app();
    await press(r, 'b');
    expect(keyBarOf(r)).toContain('run to the next');
    await press(r, letter);
    expect(statusOf(r)).toContain(expected);
  });

  it('b x says when there is none', async () => {
    tested.add('runExpire');
    const r = await app();
    await press(r, 'b', 'x');
    expect(keyBarOf(r)).toContain('no later state expiry after step 0');
  });
});

describe('panes and focus', () => {
  it('tab and shift-tab move the focus', async () => {
    tested.add('focusNext').add('focusPrev');
    const r = await app();
    expect(frame(r)).toContain('▸timeline');
    await press(r, KEY.tab);
    expect(frame(r)).toContain('▸left state');
    await press(r, KEY.shiftTab, KEY.shiftTab);
    expect(frame(r)).toContain('▸why');
  });

  it('up and down move the step in the timeline and the selection in the changelog', async () => {
    tested.add('up').add('down');
    const r = await app();
    await press(r, KEY.down, KEY.down);
    expect(statusOf(r)).toContain('step 2/7');
    await press(r, KEY.up);
    expect(statusOf(r)).toContain('step 1/7');
    await press(r, 'G', KEY.tab, KEY.tab, KEY.tab, KEY.tab);
    expect(frame(r)).toContain('▸changelog');
    await press(r, KEY.up);
    expect(frame(r)).toContain('why · row 3');
    await press(r, KEY.up, KEY.up);
    expect(frame(r)).toContain('why · row 1');
    expect(frame(r)).toContain('rule temporal.version');
    await press(r, KEY.down, KEY.down, KEY.down);
    expect(frame(r)).toContain('why · step 7');
  });

  it('page down and up move by a page', async () => {
    tested.add('pageUp').add('pageDown');
    const r = await app();
    await press(r, KEY.pageDown);
    expect(statusOf(r)).not.toContain('step 0/7');
    await press(r, KEY.pageUp);
    expect(statusOf(r)).toContain('step 0/7');
  });

  it('/ searches the changelog and selects the newest match', async () => {
    tested.add('search');
    const r = await app();
    await press(r, 'G', '/', '1', '1', '0', KEY.enter);
    expect(frame(r)).toContain('why · row 2');
    expect(keyBarOf(r)).toContain('found "110" at row 2');
    await press(r, '/', KEY.enter);
    expect(frame(r)).toContain('why · row 1');
    await press(r, '/', KEY.backspace, KEY.backspace, KEY.backspace, 'z', 'z', KEY.enter);
    expect(keyBarOf(r)).toContain('"zz" is not in the changelog');
  });
});

describe('app', () => {
  it('r reloads and keeps the step', async () => {
    tested.add('reload');
    const next = storySession();
    let calls = 0;
    const reload = async (): Promise<ReloadResult> => {
      calls++;
      return { ok: true, session: { ...next, info: { ...next.info, name: 'Reloaded story' } } };
    };
    const r = await app({ reload });
    await press(r, 'n', 'n', 'n', 'r');
    expect(calls).toBe(1);
    expect(statusOf(r)).toContain('Reloaded story');
    expect(statusOf(r)).toContain('step 3/7');
  });

  it('a failed reload keeps the old run and says why', async () => {
    const r = await app({ reload: async () => ({ ok: false, message: 'x.yaml:3:1: error: bad' }) });
    await press(r, 'n', 'r');
    expect(keyBarOf(r)).toContain('x.yaml:3:1: error: bad');
    expect(statusOf(r)).toContain('step 1/7');
  });

  it('--watch reloads when the file changes', async () => {
    let trigger: (() => void) | undefined;
    const watch = (onChange: () => void): (() => void) => {
      trigger = onChange;
      return () => (trigger = undefined);
    };
    const next = storySession();
    const r = await app({ watch, reload: async () => ({ ok: true, session: { ...next, info: { ...next.info, name: 'Saved' } } }) });
    await press(r, 'n', 'n');
    const { act } = await import('react');
    await act(async () => trigger?.());
    expect(statusOf(r)).toContain('Saved');
    expect(statusOf(r)).toContain('step 2/7');
  });

  it('c toggles monochrome', async () => {
    tested.add('colour');
    const r = await app();
    await press(r, 'c');
    expect(statusOf(r)).toContain('mono');
    await press(r, 'c');
    expect(statusOf(r)).not.toContain('mono');
  });

  it('? shows every binding of the keymap; any key closes it', async () => {
    tested.add('help');
    const r = await app();
    await press(r, '?');
    for (const b of KEYMAP) expect(frame(r)).toContain(b.help);
    expect(frame(r)).toContain('b x');
    await press(r, 'x');
    expect(frame(r)).not.toContain('any key closes');
    expect(frame(r)).toContain('▸timeline');
  });

  it.each([['q'], [KEY.ctrlC]])('%j quits', async (key) => {
    tested.add('quit');
    const onQuit = vi.fn();
    const r = await app({ onQuit });
    await press(r, key);
    expect(onQuit).toHaveBeenCalledTimes(1);
  });
});

describe('side by side and what-if keys (real engine, temporary copies)', () => {
  async function real(file: string): Promise<Rendered> {
    const { session } = await tempCopy(file);
    const r = await render(<App session={session} />, { columns: 200, rows: 60 });
    open.push(r);
    return r;
  }

  it('v follows the next query', async () => {
    tested.add('follow');
    const r = await real(SIDE_BY_SIDE);
    await press(r, 'v');
    expect(frame(r)).toContain('●temporal');
  });

  it('e opens the insert form; esc closes it', async () => {
    tested.add('insertEvent');
    const r = await real(EUR_EXAMPLE);
    await press(r, 'e');
    expect(keyBarOf(r)).toContain('insert after step 0: event:');
    await press(r, KEY.esc);
    expect(keyBarOf(r)).toContain('insert cancelled');
  });

  it.each([
    ['x', 'deleteEvent', 'step 2/5', 'deleted'],
    ['[', 'moveEarlier', 'step 2/6', 'moved earlier'],
    [']', 'moveLater', 'step 4/6', 'moved later'],
    ['D', 'duplicateEvent', 'step 4/7', 'duplicated'],
  ] as const)('%s edits the event of this step', async (key, command, step, what) => {
    tested.add(command);
    const r = await real(EUR_EXAMPLE);
    await press(r, 'n', 'n', 'n', key);
    expect(statusOf(r)).toContain(step);
    expect(statusOf(r)).toContain('what-if (unsaved)');
    expect(keyBarOf(r)).toContain(what);
  });

  it('P starts practice (the first emitting step is asked, not shown); P again shows the score', async () => {
    tested.add('practice');
    const r = await real(`${REPO_ROOT}/scenarios/temporal-eur-rate.yaml`);
    await press(r, 'P');
    expect(statusOf(r)).toContain('practice');
    await press(r, 'G');
    // G stops before the first question (the order's arrival, marked ask:) and asks it.
    expect(statusOf(r)).toContain('step 2/6');
    expect(keyBarOf(r)).toContain('step 3, row 1: kind:');
    expect(frame(r)).not.toContain('110.000000');
    await press(r, KEY.esc, 'P');
    expect(frame(r)).toContain('practice score: 0 / 3');
  });

  it('V shows the next flink-version beside this one; V at the last version turns it off', async () => {
    tested.add('compare');
    const r = await real(`${REPO_ROOT}/scenarios/temporal-late-probe-2.3.yaml`);
    await press(r, 'V');
    expect(statusOf(r)).toContain('vs 2.4');
    expect(keyBarOf(r)).toContain('Flink 2.3 ↔ 2.4: 2 steps differ (FLINK-39719)');
    await press(r, 'V', 'V', 'V', 'V');
    expect(keyBarOf(r)).toContain('version compare off');
  });

  it('d writes the time diagram of this step', async () => {
    tested.add('diagram');
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-diagram-'));
    const { session } = await tempCopy(`${REPO_ROOT}/scenarios/temporal-eur-rate.yaml`);
    let writing: Promise<string> | undefined;
    const diagram = (s: UiState): Promise<string> => (writing = writeDiagram(s, dir));
    const r = await render(<App session={session} diagram={diagram} />, { columns: 200, rows: 60 });
    open.push(r);
    await press(r, 'n', 'n', 'd');
    await act(async () => writing);
    expect(keyBarOf(r)).toContain('diagram of step 2 written to');
    expect(readFileSync(join(dir, 'temporal-eur-rate-step2.svg'), 'utf8')).toMatch(/^<svg /);
  });

  it('s with nothing edited says so', async () => {
    tested.add('save');
    const r = await real(EUR_EXAMPLE);
    await press(r, 's');
    expect(keyBarOf(r)).toContain('no what-if edits to save');
  });
});

describe('drawn by Ink', () => {
  it.each([
    [100, 30],
    [80, 24],
    [200, 60],
  ])('%ix%i: every pane sits where the layout puts it, with blank lines kept', async (columns, rows) => {
    const r = await render(<App session={storySession()} />, { columns, rows });
    open.push(r);
    await press(r, 'n', 'n', 'n');
    expectPanesWhereLaidOut(frame(r), columns, rows);
  });
});

describe('coverage of the keymap table', () => {
  it('every command of the table has a test above', () => {
    const commands = new Set(KEYMAP.map((b) => b.command));
    expect([...commands].filter((c) => !tested.has(c))).toEqual([]);
  });
});
