/**
 * A big file opened with its run computed as it is read (load-and-run.ts): every step shown
 * while reading is the complete run's step, the status line says how far the read and the run
 * are, and a file the streamed reader gives up on half-way is loaded again, as a reload.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act } from 'react';
import { afterAll, describe, expect, it } from 'vitest';
import { createTimeline } from '../../src/engine/timeline.js';
import type { StateView, Timeline } from '../../src/engine/types.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import { App, type ReloadResult } from '../../src/ui/App.js';
import { loadAndRun } from '../../src/ui/load-and-run.js';
import type { SliceOptions } from '../../src/ui/load-in-slices.js';
import { openSession, type SessionBuild } from '../../src/ui/session-load.js';
import { frame, KEY, press, render, unmount, until, type Rendered } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'joinstep-load-and-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SQL = [
  'sql: |',
  "  CREATE TABLE orders (k STRING, ts TIMESTAMP(3), x STRING, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'format' = 'json');",
  "  CREATE TABLE rates (k STRING, ts TIMESTAMP(3), x INT, WATERMARK FOR ts AS ts, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');",
  '  SELECT o.k, o.ts, o.x AS id, r.k AS rk, r.ts AS rts, r.x AS v FROM orders AS o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.k = r.k;',
];
const key = (i: number): string => `k${Math.floor(i / 4) % 50}`;

/** A temporal join over `n` one-line inline events; `bad`: the event whose timestamp is not one. */
function inlineFile(name: string, n: number, bad?: number): string {
  const lines = [`name: ${name}`, ...SQL, 'events:'];
  for (let i = 0; i < n; i++) {
    const ts = i === bad ? 'not-a-time' : String(i * 10);
    lines.push(i % 4 === 0 ? `  - { to: rates, row: { k: ${key(i)}, ts: ${ts}, x: ${i} } }` : `  - { to: orders, row: { k: ${key(i)}, ts: ${ts}, x: o${i} } }`);
  }
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The same join replayed from two JSON Lines files; `swap`: an order row out of time order. */
function replayFile(name: string, n: number, swap?: number): string {
  const rates: string[] = [];
  const orders: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 4 === 0) rates.push(JSON.stringify({ k: key(i), ts: i * 10, x: i }));
    else orders.push(JSON.stringify({ k: key(i), ts: i === swap ? 5 : i * 10, x: `o${i}` }));
  }
  writeFileSync(join(dir, `${name}-rates.jsonl`), `${rates.join('\n')}\n`);
  writeFileSync(join(dir, `${name}-orders.jsonl`), `${orders.join('\n')}\n`);
  const lines = [`name: ${name}`, ...SQL, 'events:', '  - replay:', `      - { file: ${name}-rates.jsonl, to: rates }`, `      - { file: ${name}-orders.jsonl, to: orders }`, '    time-field: ts'];
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The complete run of `file`, loaded the full way. */
async function complete(file: string): Promise<Timeline> {
  const { readFileSync } = await import('node:fs');
  const r = loadScenarioText(file, readFileSync(file, 'utf8'));
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return createTimeline(r.scenario);
}

/** Step `i` as the panes read it: its rows, flags, changelog, state, watermarks and result. */
function view(tl: Timeline, i: number): unknown {
  const rec = tl.at(i);
  return {
    emitted: rec.emitted.map((e) => [e.kind, e.row, e.step]),
    flags: tl.flagsAt(i),
    changelog: tl.changelogSize(i),
    left: stateOf(tl.describeState(i, 0)),
    right: stateOf(tl.describeState(i, 1)),
    watermarks: tl.describeWatermarks(i),
    result: tl.result(i),
  };
}

/** A state view's content (its row reader is a function, new with each view). */
function stateOf(v: StateView): unknown {
  return { layout: v.layout, size: v.size, entries: v.entries };
}

/** A small deterministic sequence (the test must replay the same steps every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

async function opened(file: string): Promise<SessionBuild> {
  const r = await loadAndRun(file, { firstMs: 0 });
  if (r === undefined || !r.ok) throw new Error(`not opened: ${JSON.stringify(r)}`);
  return r.build;
}

describe('a run computed as its file is read', () => {
  for (const [what, make] of [
    ['inline events', () => inlineFile('inline', 6000)],
    ['events replayed from data files', () => replayFile('replay', 6000)],
  ] as const) {
    it(`shows every step as the complete run does while the file is read (${what})`, async () => {
      const file = make();
      const full = await complete(file);
      const build = await opened(file);
      const tl = build.session.timeline;
      const rnd = random(7);
      let whileReading = 0;
      let p = build.progress();
      expect(p.reading).toBeDefined();
      while (!p.done) {
        p = build.advance(0);
        expect(p.error).toBeUndefined();
        const n = tl.length;
        if (n === 0) continue;
        // A step anywhere in what is ready, then stepping back from it.
        const i = 1 + Math.floor(rnd() * n);
        for (const j of [i, i - 1, i - 2].filter((j) => j >= 0)) expect(view(tl, j)).toEqual(view(full, j));
        if (p.reading !== undefined) whileReading++;
      }
      expect(whileReading).toBeGreaterThan(3);
      expect(tl.length).toBe(full.length);
      for (const j of [full.length, full.length - 1, 1]) expect(view(tl, j)).toEqual(view(full, j));
      // Replayed events are known only once read: what-if edits are then off, as for a full load.
      expect(p.session?.replayed).toBe(what === 'inline events' ? undefined : true);
    });
  }

  it('tells the events read (and of how many when the file says) while reading', async () => {
    const inline = await opened(inlineFile('counted', 3000));
    expect(inline.progress().reading).toMatchObject({ total: 3000 });
    const replay = await opened(replayFile('uncounted', 3000));
    expect(replay.progress().reading?.total).toBeUndefined();
    expect(replay.progress().reading?.done).toBeGreaterThan(0);
  });
});

/** The build, one small piece per slice: the test sees the read and the run part-way. */
function slow(build: SessionBuild): SessionBuild {
  return { session: build.session, progress: build.progress, advance: () => build.advance(0) };
}

const reloadOf = (file: string) => async (options: SliceOptions): Promise<ReloadResult | undefined> => {
  const r = await openSession(file, options);
  return r === undefined || r.ok ? r : { ok: false, message: r.errors[0]?.split('\n')[0] ?? 'reload failed', diagnostics: r.errors };
};

describe('the app on a run computed as its file is read', () => {
  it('steps through the ready steps while reading, and says how far both are', async () => {
    const file = inlineFile('app', 6000);
    const build = slow(await opened(file));
    const r = await render(<App session={build.session} build={build} reload={reloadOf(file)} />, { columns: 160, rows: 30 });
    const reading = await until(r, (t) => /reading [\d,]+ of 6,000 events \(\d+%\) · [\d,]+\/s · about \d+ s left to read · [\d,]+ steps ready/.test(t));
    expect(reading).toMatch(/step 0\/6000/);
    await press(r, 'n', 'n', 'n', KEY.left);
    expect(frame(r)).toContain('step 2/6000');
    expect(build.progress().reading).toBeDefined();
    await press(r, ':', ...'5999', KEY.enter);
    expect(frame(r)).toMatch(/step 5,999 is not computed \(still computing: [\d,]+ steps ready, [\d,]+ of 6,000 events read\)/);
    // The status line's, not the message's (which still quotes the key's answer).
    await until(r, (t) => !/│ (reading|computing) /.test(t));
    await press(r, 'G');
    expect(frame(r)).toContain('step 6000/6000');
    await unmount(r);
  });

  it('loads a replay found out of time order half-way again, as a reload, and shows its steps', async () => {
    const file = replayFile('late', 6000, 4001);
    const full = await complete(file);
    const build = slow(await opened(file));
    const r = await render(<App session={build.session} build={build} reload={reloadOf(file)} />, { columns: 160, rows: 30 });
    await until(r, (t) => t.includes('steps ready'));
    await press(r, 'n');
    // The reader gives up at the row out of order; the file is read again the full way.
    await until(r, (t) => t.includes(`reloaded ${file}`));
    expect(frame(r)).toContain(`step 1/${full.length}`);
    await until(r, (t) => !/│ (reading|computing) /.test(t));
    await press(r, 'G');
    expect(frame(r)).toContain(`step ${full.length}/${full.length}`);
    await unmount(r);
  });

  it('reads a file found to have a problem half-way again, and a failing full read leaves the app', async () => {
    const file = inlineFile('bad', 6000, 4001);
    const build = slow(await opened(file));
    let asked: ReloadResult | undefined;
    // The reload the app asks for is the full read; its failure is what the app leaves with.
    const reload = async (options: SliceOptions): Promise<ReloadResult | undefined> => (asked = await reloadOf(file)(options));
    const r = await render(<App session={build.session} build={build} reload={reload} />, { columns: 160, rows: 30 });
    await until(r, (t) => t.includes('steps ready'));
    await until(r, () => asked !== undefined);
    // The full load's own messages, whole: the line of the bad event and the hint.
    expect(asked?.ok).toBe(false);
    const said = asked?.ok === false ? (asked.diagnostics ?? []).join('\n') : '';
    expect(said).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: error`));
    expect(said).toContain('hint:');
    // The app has left (Ink unmounted on exit): a key draws nothing new.
    const last = frame(r);
    await press(r, 'n');
    expect(frame(r)).toBe(last);
    await unmount(r);
  });
});
