/**
 * A big run in the app: the run is computed in pieces between frames and keys. The frame shows
 * how far it is, keys step through the steps that are ready (and say so past them), q quits at
 * once while it computes, and the loading frame (before there is a session) shows what is read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { act } from 'react';
import { createTimeline } from '../../src/engine/timeline.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import { App } from '../../src/ui/App.js';
import { compareOrder, SYNC_COMPARE_STEPS } from '../../src/ui/compare.js';
import { SLICE_MS } from '../../src/ui/compute-in-pieces.js';
import { plain } from '../../src/ui/lines.js';
import { LoadingScreen, loadingLayout, type KeyPoll } from '../../src/ui/loading-screen.js';
import type { Prepainted } from '../../src/ui/prepaint.js';
import { loadInSlices, type LoadProgress } from '../../src/ui/load-in-slices.js';
import { openSession, startSession, type SessionBuild } from '../../src/ui/session-load.js';
import { SYNC_FOLD_ROWS } from '../../src/ui/step-view.js';
import { frame, KEY, press, render, unmount, until, type Rendered } from './helpers.js';

/** A temporal join over `n` one-line events (the shape of the generated bench files). */
function bigScenario(n: number): string {
  const lines = [
    'name: big temporal',
    'sql: |',
    "  CREATE TABLE orders (k STRING, ts TIMESTAMP(3), x STRING, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'format' = 'json');",
    "  CREATE TABLE rates (k STRING, ts TIMESTAMP(3), x INT, WATERMARK FOR ts AS ts, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');",
    '  SELECT o.k, o.ts, o.x AS id, r.k AS rk, r.ts AS rts, r.x AS v FROM orders AS o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.k = r.k;',
    'events:',
  ];
  for (let i = 0; i < n; i++) {
    const k = `k${Math.floor(i / 4) % 50}`;
    lines.push(i % 4 === 0 ? `  - { to: rates, row: { k: ${k}, ts: ${i * 10}, x: ${i} } }` : `  - { to: orders, row: { k: ${k}, ts: ${i * 10}, x: o${i} } }`);
  }
  return `${lines.join('\n')}\n`;
}

const N = 6000;

/** The session's build, slowed to one small piece per slice: the test sees the run part-way. */
function slowBuild(n = N): SessionBuild {
  const loaded = loadScenarioText('big.yaml', bigScenario(n));
  if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
  const started = startSession(loaded.scenario);
  if (!started.ok) throw new Error(started.errors.join('\n'));
  const build = started.build;
  return { session: build.session, progress: build.progress, advance: () => build.advance(0) };
}

const readyIn = (text: string): number => Number(/computing ([\d,]+) ready/.exec(text)?.[1]?.replace(/,/g, '') ?? -1);

describe('a big run in the app', () => {
  it('shows how far the run is computed, steps through the ready steps and says so past them', async () => {
    // Progress is drawn every 100 ms of computing: the run must last several of those on a fast
    // machine too, or no frame shows it part-way.
    const N = 60_000;
    const build = slowBuild(N);
    const r = await render(<App session={build.session} build={build} />, { columns: 140, rows: 30 });
    // The total is there at once; the ready count grows frame after frame.
    expect(frame(r)).toContain(`step 0/${N}`);
    const first = readyIn(await until(r, (t) => readyIn(t) > 0));
    const later = await until(r, (t) => readyIn(t) > first);
    expect(later).toMatch(/computing [\d,]+ ready \(\d+%\) · [\d,]+\/s · about \d+ s left/);
    expect(build.progress().done).toBe(false);
    await press(r, 'n', 'n');
    expect(frame(r)).toContain(`step 2/${N}`);
    await press(r, KEY.left);
    expect(frame(r)).toContain(`step 1/${N}`);
    // The last step (far beyond the ready ones) is not there yet: the key says so, at once.
    await press(r, ':', ...String(N), KEY.enter);
    expect(frame(r)).toMatch(new RegExp(`step ${N.toLocaleString('en-US')} is not computed \\(still computing: [\\d,]+ of ${N.toLocaleString('en-US')} steps ready\\)`));
    // Edits wait for the whole run.
    await press(r, 'x');
    expect(frame(r)).toContain('this key works once the whole run is there');
    // Once complete, the progress goes and every step can be reached.
    await until(r, (t) => !t.includes('computing'));
    expect(build.progress().done).toBe(true);
    await press(r, 'G');
    expect(frame(r)).toContain(`step ${N}/${N}`);
    await unmount(r);
  });

  it('computes in shorter slices for a while after a key, so that the next key waits less', async () => {
    const slow = slowBuild();
    const budgets: number[] = [];
    const build: SessionBuild = { ...slow, advance: (ms) => (budgets.push(ms), slow.advance(ms)) };
    const r = await render(<App session={build.session} build={build} />, { columns: 140, rows: 30 });
    expect(readyIn(await until(r, (t) => readyIn(t) > 0))).toBeGreaterThan(0);
    expect(budgets.length).toBeGreaterThan(0);
    expect(Math.min(...budgets)).toBe(SLICE_MS);
    await press(r, 'n');
    expect(frame(r)).toContain(`step 1/${N}`);
    const keyAt = budgets.length;
    // The next slice after the key (waited for by frames; the run is then still part-way).
    await until(r, () => budgets.length > keyAt);
    expect(budgets[keyAt]).toBeLessThan(SLICE_MS);
    await unmount(r);
  });

  it('q quits at once while the run is computing', async () => {
    const build = slowBuild();
    let quit = false;
    const r = await render(<App session={build.session} build={build} onQuit={() => (quit = true)} />, { columns: 140, rows: 30 });
    await until(r, (t) => readyIn(t) > 0);
    await press(r, 'q');
    expect(quit).toBe(true);
    const ready = build.progress().ready;
    expect(ready).toBeLessThan(N);
    await unmount(r);
    // Nothing goes on computing after the app is gone.
    for (let i = 0; i < 50; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(build.progress().ready).toBe(ready);
  });
});

/** The result pane's title count and its visible rows, read off the frame (the pane is at the bottom right). */
function resultPane(text: string): { readonly count?: number; readonly folding: boolean; readonly rows: string[] } {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /│[ ▸]result /.test(l));
  if (at < 0) throw new Error(`no result pane in the frame:\n${text}`);
  const title = lines[at]!.slice(lines[at]!.indexOf('│') + 1);
  const rows: string[] = [];
  for (const l of lines.slice(at + 1)) {
    const bar = l.indexOf('│');
    if (bar < 0) break;
    rows.push(l.slice(bar + 2).trimEnd());
  }
  const count = /result\s+([\d,]+) rows?/.exec(title)?.[1];
  return { ...(count !== undefined ? { count: Number(count.replace(/,/g, '')) } : {}), folding: /folding… \d+%/.test(title), rows };
}

describe('the result of a far step, folded in slices', () => {
  it('shows the step at once with the fold\'s progress, then the rows of a plain fold, at steps forward and back', async () => {
    const text = bigScenario(N);
    const loaded = loadScenarioText('big.yaml', text);
    if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
    const started = startSession(loaded.scenario, text);
    if (!started.ok) throw new Error(started.errors.join('\n'));
    expect(started.build.advance(Infinity).done).toBe(true);
    // A timeline of its own, whose result is the whole fold in one go.
    const plain = createTimeline(loaded.scenario);
    expect(plain.changelogSize(N)).toBeGreaterThan(2 * SYNC_FOLD_ROWS);
    const r = await render(<App session={started.build.session} />, { columns: 140, rows: 30 });
    // The last step is thousands of changelog rows away: its frame shows it at once, with the
    // result's fold under way (the slices that finish it may already have run when press returns).
    const before = r.frames.length;
    await press(r, 'G');
    expect(r.frames.slice(before).some((f) => f.includes(`step ${N}/${N}`) && resultPane(f).folding)).toBe(true);
    const check = async (step: number): Promise<void> => {
      const shown = resultPane(await until(r, (t) => t.includes(`step ${step}/${N}`) && !resultPane(t).folding));
      const expected = plain.result(step);
      expect(shown.count ?? 0).toBe(expected.length);
      if (expected.length > 0) expect(shown.rows[0]).toBe(expected[0]);
    };
    await check(N);
    await press(r, KEY.left);
    await check(N - 1);
    // Far steps and near ones, forward and back (a fixed walk, so that a failure repeats).
    for (const step of [3, 5000, 2400, 2401, 2399, 100, N, 4123, 0, 5999]) {
      await press(r, ':', ...String(step), KEY.enter);
      await check(step);
    }
    await press(r, KEY.left, KEY.left);
    await check(5997);
    await unmount(r);
  });
});

describe('V on a long run', () => {
  it('computes the other version\'s run and the diff in pieces, keys working meanwhile', async () => {
    const n = SYNC_COMPARE_STEPS + 500;
    const text = bigScenario(n);
    const loaded = loadScenarioText('big.yaml', text);
    if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
    const started = startSession(loaded.scenario, text);
    if (!started.ok) throw new Error(started.errors.join('\n'));
    expect(started.build.advance(Infinity).done).toBe(true);
    const r = await render(<App session={started.build.session} />, { columns: 160, rows: 30 });
    const other = compareOrder(loaded.scenario.flinkVersion)[0]!;
    await press(r, 'V');
    expect(frame(r)).toMatch(new RegExp(`running ${other} for V: \\d+%`));
    await press(r, 'n');
    expect(frame(r)).toContain(`step 1/${n}`);
    expect(frame(r)).toContain(`running ${other} for V`);
    const done = await until(r, (t) => t.includes(`vs ${other}`));
    expect(done).toMatch(new RegExp(`Flink ${loaded.scenario.flinkVersion} ↔ ${other}: \\d+ steps? differs?`));
    expect(done).not.toContain('for V:');
    // A what-if edit re-reads the whole file: past the limit it says so instead of holding up the app.
    await press(r, 'x');
    expect(frame(r)).toContain(`what-if edits re-read the whole file: off for runs over 20,000 events (this one has ${n.toLocaleString('en-US')})`);
    await press(r, 'e');
    expect(frame(r)).toContain('what-if edits re-read the whole file');
    await unmount(r);
  });
});

describe('the loading frame', () => {
  it('shows the events read, the rate and an estimate, with q to quit', () => {
    const rows = loadingLayout({ file: 'big.yaml', done: 420_000, total: 1_000_000, rate: 1_200_000 }, 100, 24);
    const text = [...rows.top, ...rows.columns[0]!.lines, ...rows.bottom].map(plain).join('\n');
    expect(text).toContain('loading big.yaml');
    expect(text).toContain('420,000 of 1,000,000 events read · 1,200,000/s · about 1 s left');
    expect(text).toContain(' 42%');
    expect(text).toContain('q quit');
    // Replayed files: no total, so no estimate and no bar.
    const replay = loadingLayout({ file: 'r.yaml', done: 5000, rate: 1000 }, 100, 24);
    expect(replay.columns[0]!.lines.map(plain).join('\n')).toContain('5,000 events read · 1,000/s\n');
  });

  it('enters the screen only for a long load, draws progress, and quits on q', () => {
    let now = 0;
    const drawn: string[] = [];
    let entered = 0;
    let left = 0;
    let typed = '';
    let quit = 0;
    const painted: Prepainted = { screen: { leave: () => void left++ }, output: { draw: (rows: readonly string[]) => void drawn.push(rows.join('\n')) } as never };
    const keys: KeyPoll = { read: () => [typed, (typed = '')][0]!, close: () => {} };
    const loading = new LoadingScreen({ file: 'big.yaml', mono: true, now: () => now, enter: () => (entered++, painted), keys: () => keys, size: () => ({ columns: 100, rows: 24 }), onQuit: () => void quit++ });
    // Fast at first: nothing is drawn within the first third of a second.
    now = 100;
    loading.progress(1024, 100_000);
    expect(entered).toBe(0);
    now = 400;
    loading.progress(2048, 100_000);
    expect(entered).toBe(1);
    expect(drawn.at(-1)).toContain('2,048 of 100,000 events read');
    now = 900;
    loading.progress(4096, 100_000);
    expect(drawn.at(-1)).toMatch(/4,096 of 100,000 events read · [\d,]+\/s · about \d+ s left/);
    typed = 'q';
    now = 950;
    loading.progress(5120, 100_000);
    expect(quit).toBe(1);
    expect(left).toBe(1);
  });

  it('is drawn between the slices of a load, and q read from the keys as they arrive', () => {
    let now = 0;
    const drawn: string[] = [];
    let quit = 0;
    let onKey: ((data: string) => boolean) | undefined;
    let unsubscribed = 0;
    const painted: Prepainted = { screen: { leave: () => {} }, output: { draw: (rows: readonly string[]) => void drawn.push(rows.join('\n')) } as never };
    const listen = (f: (data: string) => boolean): (() => void) => ((onKey = f), () => void unsubscribed++);
    const loading = new LoadingScreen({ file: 'big.yaml', mono: true, now: () => now, enter: () => painted, keys: () => undefined, listen, size: () => ({ columns: 100, rows: 24 }), onQuit: () => void quit++ });
    now = 50;
    loading.report({ done: 300, total: 90_000 });
    expect(drawn).toEqual([]);
    expect(onKey).toBeUndefined();
    now = 500;
    loading.report({ done: 30_000, total: 90_000 });
    expect(drawn.at(-1)).toMatch(/30,000 of 90,000 events read · [\d,]+\/s · about \d+ s left/);
    // Another key is left for the app; q quits and stops listening.
    expect(onKey!('n')).toBe(false);
    expect(quit).toBe(0);
    expect(onKey!('q')).toBe(true);
    expect(quit).toBe(1);
    expect(unsubscribed).toBe(1);
  });

  it('a big file shows its loading frame before it is read', () => {
    const drawn: string[] = [];
    const painted: Prepainted = { screen: { leave: () => {} }, output: { draw: (rows: readonly string[]) => void drawn.push(rows.join('\n')) } as never };
    const small = new LoadingScreen({ file: 's.yaml', mono: true, bytes: 100_000, enter: () => painted, keys: () => undefined, size: () => ({ columns: 100, rows: 24 }) });
    small.begin();
    expect(drawn).toEqual([]);
    const big = new LoadingScreen({ file: 'big.yaml', mono: true, bytes: 64 << 20, enter: () => painted, keys: () => undefined, size: () => ({ columns: 100, rows: 24 }) });
    big.begin();
    expect(drawn.at(-1)).toContain('loading big.yaml (64.0 MB)');
    expect(drawn.at(-1)).toContain('reading the file…');
  });
});

describe('loading in slices', () => {
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-slices-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string): string => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  /** Counts event-loop turns (setImmediate) while `p` is pending: how often the load let others run. */
  async function turnsWhile<T>(p: Promise<T>): Promise<{ value: T; turns: number }> {
    let turns = 0;
    let settled = false;
    const value = p.finally(() => (settled = true));
    while (!settled) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turns++;
    }
    return { value: await value, turns };
  }

  it('reads the events a slice at a time, with progress, into the scenario the full load gives', async () => {
    const text = bigScenario(3000);
    const file = write('big.yaml', text);
    const reports: LoadProgress[] = [];
    const { value, turns } = await turnsWhile(loadInSlices(file, { sliceMs: 0, report: (p) => void reports.push(p) }));
    const full = loadScenarioText(file, text);
    expect(value?.result).toEqual(full);
    expect(value?.text).toBe(text);
    // 3000 events in slices of 256 (the clock is read every 256): the loop turned between them.
    expect(reports.length).toBeGreaterThanOrEqual(10);
    expect(turns).toBeGreaterThanOrEqual(reports.length);
    expect(reports.map((p) => p.total)).toEqual(reports.map(() => 3000));
    const done = reports.map((p) => p.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(done[0]).toBeGreaterThan(0);
  });

  it('a file with a bad event gets the full load\'s diagnostics', async () => {
    const text = bigScenario(2000).replace('x: o1001 }', 'x: o1001, nope: 1 }');
    const file = write('bad.yaml', text);
    const sliced = await loadInSlices(file, { sliceMs: 0 });
    const full = loadScenarioText(file, text);
    expect(full.ok).toBe(false);
    expect(sliced?.result).toEqual(full);
  });

  it('stops between slices when asked', async () => {
    const file = write('stop.yaml', bigScenario(3000));
    const stop = new AbortController();
    let reports = 0;
    const r = await loadInSlices(file, { sliceMs: 0, signal: stop.signal, report: () => void (++reports === 2 && stop.abort()) });
    expect(r).toBeUndefined();
    expect(reports).toBe(2);
  });

  it('a reload reads the file in slices while the old run stays on screen, then computes the new run in pieces', async () => {
    const file = write('reload.yaml', bigScenario(N));
    const opened = await openSession(file);
    if (opened === undefined || !opened.ok) throw new Error('the scenario did not open');
    // The first run may finish inside openSession's synchronous slice on a fast machine (no build
    // left) or go on in pieces; the reload below is what this test is about.
    const build = opened.build;
    const edited = bigScenario(N + 1000).replace('name: big temporal', 'name: big v2');
    let calls = 0;
    let reports = 0;
    let typeDuringLoad = (): void => {};
    const reload = (o: Parameters<typeof openSession>[1]) => {
      calls++;
      // Slices of 256 events; a key typed from the third slice on reaches the app between slices.
      const report = (p: LoadProgress): void => {
        if (++reports === 3) typeDuringLoad();
        o?.report?.(p);
      };
      const r = openSession(file, { ...o, sliceMs: 0, report });
      return r.then((x) => (x === undefined || x.ok ? x : { ok: false as const, message: x.errors[0] ?? '' }));
    };
    const r = await render(<App session={opened.session} {...(build !== undefined ? { build } : {})} reload={reload} />, { columns: 140, rows: 30 });
    typeDuringLoad = () => void r.stdin.write('n');
    await until(r, (t) => !t.includes('computing'));
    await press(r, 'n', 'n');
    writeFileSync(file, edited);
    await press(r, 'r');
    expect(calls).toBe(1);
    const after = await until(r, (t) => t.includes('reloaded'));
    expect(reports).toBeGreaterThan(20);
    // Frames drawn while the file was read: the old run, the progress, and the key typed meanwhile.
    const during = r.frames.filter((f) => /reloading: [\d,]+ of 7,000 events read/.test(f));
    expect(during.length).toBeGreaterThan(3);
    expect(during[0]).toContain(`step 2/${N}`);
    expect(during.at(-1)).toContain(`step 3/${N}`);
    expect(after).toContain('big v2');
    expect(after).toContain('step 3/7000');
    await until(r, (t) => !t.includes('computing'));
    await press(r, 'G');
    expect(frame(r)).toContain('step 7000/7000');
    await unmount(r);
  });
});
