/**
 * The streaming load (load.ts, streamScenarioText) and the streamed run (cli/run-streamed.ts)
 * must give exactly what the full load and run give: the same events in the same order, the
 * same changelog and result; and a file the full load rejects must never stream to the end
 * (the caller then loads it the full way, which reports the problems). Checked on the bundled
 * scenarios, the bad-input fixtures, generated scenarios, and random replays of data files
 * (every arrival rule, ties, time ranges, files in and out of time order, bad lines).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runStreamed } from '../../src/cli/run-streamed.js';
import { runScenario } from '../../src/engine/run.js';
import { generateCase } from '../../src/fuzz/generate.js';
import { renderCase } from '../../src/fuzz/render.js';
import { loadScenarioText, streamScenarioText } from '../../src/scenario/load.js';
import { NotStreamed } from '../../src/scenario/not-streamed.js';
import { DataCut } from '../../src/scenario/data-cut.js';
import type { LoadResult, Scenario, ScenarioEvent } from '../../src/scenario/types.js';
import { REPO_ROOT, yamlFiles } from '../paths.js';

const dir = mkdtempSync(join(tmpdir(), 'joinstep-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Streamed = { status: 'events'; head: Scenario; events: ScenarioEvent[] } | { status: 'not-streamed'; reason: string };

function stream(file: string, text: string): Streamed {
  const s = streamScenarioText(file, text);
  if (s === undefined) return { status: 'not-streamed', reason: 'head' };
  try {
    return { status: 'events', head: s.head, events: [...s.events] };
  } catch (error) {
    if (error instanceof NotStreamed) return { status: 'not-streamed', reason: error.reason };
    throw error;
  }
}

/** A stream's events pulled until it ends, is cut (DataCut) or gives up (NotStreamed). */
function eventsUntilEnd(s: ReturnType<typeof streamScenarioText>): { events: ScenarioEvent[]; end: 'done' | 'cut' | 'not-streamed' } {
  const events: ScenarioEvent[] = [];
  if (s === undefined) return { events, end: 'not-streamed' };
  try {
    for (const ev of s.events) events.push(ev);
    return { events, end: 'done' };
  } catch (error) {
    if (error instanceof DataCut) return { events, end: 'cut' };
    if (error instanceof NotStreamed) return { events, end: 'not-streamed' };
    throw error;
  }
}

/** The streamed events are the full load's, or the stream gave up; never events for a file that fails. */
function agree(full: LoadResult, streamed: Streamed): void {
  if (streamed.status === 'not-streamed') return;
  expect(full.ok, full.ok ? '' : `streamed a file that does not load: ${full.diagnostics[0]?.message}`).toBe(true);
  if (!full.ok) return;
  expect(streamed.events).toEqual(full.scenario.events);
  expect(streamed.head).toEqual({ ...full.scenario, events: [] });
}

/** Every query's changelog, result and JSON, streamed and from the loaded scenario. */
function sameRuns(file: string, text: string, scenario: Scenario): void {
  const all = scenario.queries.map((_, i) => i);
  const streamed = runStreamed(file, text, () => all);
  expect(streamed, `${file} did not stream`).toBeDefined();
  for (const i of all) {
    let full: ReturnType<typeof runScenario>;
    try {
      full = runScenario(scenario, i);
    } catch {
      // A runtime error: the streamed run must have given up (checked by toBeDefined above failing).
      throw new Error(`${file}: the full run failed but the streamed run did not`);
    }
    const mine = streamed!.outputs.get(i)!;
    expect(mine.lines).toEqual(full.lines);
    expect(mine.result).toEqual(full.result);
    expect(mine.json).toEqual(full.json);
  }
}

describe('streaming load and run', () => {
  it('streams every bundled scenario to the full load\u2019s events and output', () => {
    let streamedCount = 0;
    for (const file of yamlFiles([join(REPO_ROOT, 'scenarios')])) {
      const text = readFileSync(file, 'utf8');
      const full = loadScenarioText(file, text);
      const s = stream(file, text);
      agree(full, s);
      if (!full.ok || s.status !== 'events') continue;
      streamedCount++;
      let runtimeError = false;
      try {
        full.scenario.queries.forEach((_, i) => runScenario(full.scenario, i));
      } catch {
        runtimeError = true;
      }
      if (runtimeError) expect(runStreamed(file, text, (h) => h.queries.map((_, i) => i))).toBeUndefined();
      else sameRuns(file, text, full.scenario);
    }
    // Most bundled scenarios stream: a stream that always gave up would pass the checks above.
    expect(streamedCount).toBeGreaterThan(20);
  });

  it('never streams a bad-input fixture to the end', () => {
    for (const file of yamlFiles([join(REPO_ROOT, 'test', 'fixtures', 'bad')])) {
      const text = readFileSync(file, 'utf8');
      const full = loadScenarioText(file, text);
      const s = stream(file, text);
      agree(full, s);
      if (!full.ok) expect(s.status, file).toBe('not-streamed');
    }
  });

  it('runs generated scenarios streamed exactly as loaded', () => {
    let loaded = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const text = renderCase(generateCase(seed));
      const file = join(dir, `gen-${seed}.yaml`);
      const full = loadScenarioText(file, text);
      agree(full, stream(file, text));
      if (!full.ok) continue;
      loaded++;
      sameRuns(file, text, full.scenario);
    }
    expect(loaded).toBeGreaterThan(40);
  });
});

const HEAD = `name: stream
date: 2026-10-01
partitions: { orders: 2 }
sql: |
  CREATE TABLE orders (id STRING NOT NULL, k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
  CREATE TABLE rates (k STRING, ts TIMESTAMP(3), r INT, WATERMARK FOR ts AS ts, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'rates', 'key.format' = 'json', 'value.format' = 'json');
  SELECT o.id, o.ts, r.r FROM orders AS o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.k = r.k;
events:
`;

const T0 = Date.parse('2026-10-01T09:00:00Z');

const dataRow = fc.record({
  table: fc.constantFrom('orders', 'rates'),
  k: fc.constantFrom('a', 'b'),
  t: fc.integer({ min: 0, max: 6 }),
  bad: fc.constantFrom(false, false, false, false, false, false, false, false, false, true),
});

const dataFile = fc.record({ rows: fc.array(dataRow, { maxLength: 8 }), sorted: fc.constantFrom(true, true, false), table: fc.constantFrom('orders', 'rates'), partition: fc.constantFrom(0, 1) });

const replay = fc.record({
  files: fc.array(dataFile, { minLength: 1, maxLength: 3 }),
  order: fc.constantFrom('time', 'files', 'round-robin', undefined),
  from: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  until: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  form: fc.constantFrom('block', 'flow'),
  before: fc.constantFrom('', '  - { note: start }\n', '  - { at: "08:00", to: orders, row: { id: x0, ts: "08:00" } }\n'),
  after: fc.constantFrom('', '  - { watermark: orders, to: max }\n', '  - { at: "08:30", note: late }\n', '  - { to: orders, row: { id: x9, ts: "09:09" } }\n'),
});

let caseNo = 0;

type Replay = typeof replay extends fc.Arbitrary<infer T> ? T : never;

function renderReplay(r: Replay): { text: string; clean: boolean } {
  const n = ++caseNo;
  let clean = true;
  const names = r.files.map((f, i) => {
    const rows = f.sorted ? [...f.rows].sort((a, b) => a.t - b.t) : f.rows;
    if (!f.sorted && rows.some((x, j) => j > 0 && x.t < rows[j - 1]!.t)) clean = false;
    const lines = rows.map((x, j) => {
      if (x.bad) clean = false;
      const ts = new Date(T0 + x.t * 60_000).toISOString().slice(11, 16);
      if (f.table === 'orders') return x.bad ? `{"id": null, "ts": "${ts}"}` : `{"id": "f${i}r${j}", "k": "${x.k}", "ts": "${ts}"}`;
      return x.bad ? `{"k": "${x.k}", "ts": "${ts}", "r": "x"}` : `{"k": "${x.k}", "ts": "${ts}", "r": ${j}}`;
    });
    const name = `c${n}-${i}.jsonl`;
    writeFileSync(join(dir, name), lines.join('\n') + '\n');
    return { name, table: f.table, partition: f.partition };
  });
  const time = (t: number) => `"${new Date(T0 + t * 60_000).toISOString().slice(11, 16)}"`;
  const keys = [
    ...(r.order !== undefined ? [`order: ${r.order}`] : []),
    'time-field: ts',
    ...(r.from !== undefined ? [`from: ${time(r.from)}`] : []),
    ...(r.until !== undefined ? [`until: ${time(r.until)}`] : []),
  ];
  const files = names.map((f) => `{ file: ${f.name}, to: ${f.table}, partition: ${f.table === 'orders' ? f.partition : 0} }`);
  const item = r.form === 'flow' ? `  - { replay: [${files.join(', ')}], ${keys.join(', ')} }\n` : `  - replay:\n${files.map((f) => `      - ${f}\n`).join('')}${keys.map((k) => `    ${k}\n`).join('')}`;
  return { text: HEAD + r.before + item + r.after, clean };
}

describe('streaming replays', () => {
  it('gives the full load\u2019s events for random replays, and streams every one whose files are sorted and clean', () => {
    fc.assert(
      fc.property(replay, (r) => {
        const { text, clean } = renderReplay(r);
        const file = join(dir, `s${caseNo}.yaml`);
        const full = loadScenarioText(file, text);
        const s = stream(file, text);
        agree(full, s);
        // Files in time order (or read in file order, or round robin) with no bad line stream.
        const merged = r.order === 'time' || r.order === undefined;
        if (full.ok && (clean || !merged)) expect(s.status, s.status === 'not-streamed' ? s.reason : '').toBe('events');
        if (full.ok && s.status === 'events') sameRuns(file, text, full.scenario);
      }),
      { numRuns: 150 },
    );
  });

  it('gives the first events of the whole stream when it reads only the head of each data file', () => {
    fc.assert(
      fc.property(replay, fc.integer({ min: 0, max: 400 }), (r, dataHead) => {
        const { text } = renderReplay(r);
        const file = join(dir, `h${caseNo}.yaml`);
        const whole = eventsUntilEnd(streamScenarioText(file, text));
        const head = eventsUntilEnd(streamScenarioText(file, text, { dataHead }));
        // Cut or not, the head's events are the whole stream's first ones (up to where that one
        // gave up); it gives up only where the whole stream does, and ends only where it ends.
        expect(head.events).toEqual(whole.events.slice(0, head.events.length));
        if (head.end === 'not-streamed') expect(whole.end).toBe('not-streamed');
        if (head.end === 'done') expect(whole).toEqual(head);
      }),
      { numRuns: 150 },
    );
  });

  it('cuts a data file after a whole line, so that a character is never split', () => {
    // Each row is 32 bytes, its id two two-byte characters from its start: a head of 41 bytes
    // ends inside the first character of row 2, one of 64 right after row 2's line break.
    const rows = Array.from({ length: 5 }, (_, i) => `{"id": "\u00e9t\u00e9${i}", "ts": "09:0${i}"}`);
    writeFileSync(join(dir, 'e1.jsonl'), rows.join('\n') + '\n');
    // In file order, a record is read when it is next (a time merge reads one ahead).
    const text = `${HEAD}  - { replay: e1.jsonl, to: orders, time-field: ts, order: files }\n`;
    const whole = eventsUntilEnd(streamScenarioText(join(dir, 'e.yaml'), text));
    expect(whole.end).toBe('done');
    expect(whole.events.length).toBe(5);
    expect(Buffer.byteLength(rows[1]! + '\n')).toBe(32);
    for (const [dataHead, n] of [[0, 0], [20, 0], [41, 1], [64, 2], [1000, 5]] as const) {
      const head = eventsUntilEnd(streamScenarioText(join(dir, 'e.yaml'), text, { dataHead }));
      expect(head, `head of ${dataHead} bytes`).toEqual({ events: whole.events.slice(0, n), end: n === 5 ? 'done' : 'cut' });
    }
  });

  it('gives up on a time merge when a file is out of time order, and the full load sorts it', () => {
    writeFileSync(join(dir, 'u1.jsonl'), '{"id": "a", "ts": "09:05"}\n{"id": "b", "ts": "09:01"}\n');
    const text = `${HEAD}  - { replay: u1.jsonl, to: orders, time-field: ts }\n`;
    const s = stream(join(dir, 'u.yaml'), text);
    expect(s).toEqual({ status: 'not-streamed', reason: 'replay: a data file is not in time order' });
    const full = loadScenarioText(join(dir, 'u.yaml'), text);
    expect(full.ok && full.scenario.events.map((e) => (e.kind === 'row' ? e.row[0] : e.kind))).toEqual(['b', 'a']);
  });

  it('gives up at a bad line, which the full load reports at its place in the data file', () => {
    writeFileSync(join(dir, 'b1.jsonl'), '{"id": "a", "ts": "09:05"}\n{"ts": "09:06"}\n');
    const text = `${HEAD}  - { replay: b1.jsonl, to: orders, time-field: ts }\n`;
    expect(stream(join(dir, 'b.yaml'), text).status).toBe('not-streamed');
    const full = loadScenarioText(join(dir, 'b.yaml'), text);
    expect(full.ok ? [] : full.diagnostics.map((d) => `${d.line}:${d.col}`)).toEqual(['2:1']);
  });
});
