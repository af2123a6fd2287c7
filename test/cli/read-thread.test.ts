/**
 * The read thread (cli/read-thread.ts) and its batches (cli/event-batches.ts): events handed
 * from the reading thread to the running one must be the events one thread streams, object for
 * object, and a stream that gives up in the worker must give up in the caller (which then loads
 * the file the full way); the CLI's output and messages must not depend on the thread.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EventBatchReader, EventBatchWriter } from '../../src/cli/event-batches.js';
import { READ_THREAD_MIN_BYTES, wantsReadThread } from '../../src/cli/read-thread.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import type { ScenarioEvent } from '../../src/scenario/types.js';
import { REPO_ROOT, yamlFiles } from '../paths.js';
import { cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'joinstep-read-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function roundTrip(events: readonly ScenarioEvent[], batch: number): ScenarioEvent[] {
  const writer = new EventBatchWriter();
  const reader = new EventBatchReader();
  const out: ScenarioEvent[] = [];
  const flush = () => reader.each(structuredClone(writer.take()), (ev) => out.push(ev));
  for (const ev of events) {
    writer.push(ev);
    if (writer.count === batch) flush();
  }
  flush();
  return out;
}

function bundledEvents(): { file: string; events: readonly ScenarioEvent[] }[] {
  const out: { file: string; events: readonly ScenarioEvent[] }[] = [];
  for (const file of yamlFiles([join(REPO_ROOT, 'scenarios')])) {
    const loaded = loadScenarioText(file, readFileSync(file, 'utf8'));
    if (loaded.ok) out.push({ file, events: loaded.scenario.events });
  }
  return out;
}

describe('event batches', () => {
  it('give back every bundled scenario\u2019s events, with the readers\u2019 property order', () => {
    const all = bundledEvents();
    expect(all.length).toBeGreaterThan(20);
    for (const { file, events } of all) {
      for (const size of [1, 3, 4096]) {
        const back = roundTrip(events, size);
        expect(back, file).toEqual(events);
        back.forEach((ev, i) => expect(Object.keys(ev), `${file} #${i}`).toEqual(Object.keys(events[i]!)));
      }
    }
  });

  it('keep every kind of value, and events that are not plain rows as they are', () => {
    const pos = { line: 3, col: 5 };
    const events: ScenarioEvent[] = [
      { pos, kind: 'row', table: 't', partition: 1, op: '-U', row: ['a', 1.5, null, true, false, -0, '', 2 ** 53 + 2] },
      { pos, file: 'd.jsonl', kind: 'row', table: 'u', partition: 0, op: '+I', row: [] },
      { at: 60_000, pos, kind: 'row', table: 't', partition: 0, op: '+I', row: ['x'] },
      { pos, kind: 'watermark', table: 't', to: 'max' },
      { note: 'n', pos, kind: 'note' },
      { pos, kind: 'row', table: 't', partition: 0, op: '-D', row: ['\u0000\n"'] },
      // strings end to end in one: lone surrogates and long strings come back as they were
      { pos, kind: 'row', table: 't', partition: 0, op: '+I', row: ['\ud800', 'x\udc00', 'y'.repeat(40), '', '\u{1f600}\ud83d', '\ude00', 1] },
    ];
    const back = roundTrip(events, 2);
    expect(back).toEqual(events);
    expect(Object.is((back[0] as Extract<ScenarioEvent, { kind: 'row' }>).row[5], -0)).toBe(true);
  });
});

describe('the read thread', () => {
  const rates = Array.from({ length: 300 }, (_, i) => JSON.stringify({ k: `k${i % 7}`, ts: i * 10, x: i })).join('\n') + '\n';
  const orders = Array.from({ length: 500 }, (_, i) => JSON.stringify({ k: `k${i % 9}`, ts: i * 6 + 1, x: `o${i}` })).join('\n') + '\n';
  const head = [
    'name: read thread',
    'sql: |',
    "  CREATE TABLE orders (k STRING, ts TIMESTAMP(3), x STRING, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'format' = 'json');",
    "  CREATE TABLE rates (k STRING, ts TIMESTAMP(3), x INT, WATERMARK FOR ts AS ts, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');",
    '  SELECT o.k, o.ts, o.x AS id, r.x AS v FROM orders AS o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.k = r.k;',
    'events:',
    '  - { to: rates, row: { k: k1, ts: 0, x: -1 } }',
    '  - replay:',
    '      - { file: rates.jsonl, to: rates }',
    '      - { file: orders.jsonl, to: orders }',
    '    time-field: ts',
    "  - { watermark: orders, to: max }",
  ].join('\n');
  writeFileSync(join(dir, 'rates.jsonl'), rates);
  writeFileSync(join(dir, 'orders.jsonl'), orders);
  const good = join(dir, 'good.yaml');
  writeFileSync(good, head + '\n');

  function viaThread(file: string, ownUntil?: number, dataHead?: number): { events?: unknown; notStreamed?: string; own?: number } {
    const extra = ownUntil === undefined ? [] : [String(ownUntil), ...(dataHead === undefined ? [] : [String(dataHead)])];
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'test/cli/read-thread-runner.ts'), file, ...extra], { encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { events?: unknown; notStreamed?: string; own?: number };
  }

  it('hands over from the own stream to the batches without an event lost or run twice', () => {
    // 6,002 events: three batches of the worker's. The own stream pauses after event 1 (the
    // hand-over inside the first batch), 2048 (right at its end) and 3000 (inside the second).
    const many = (n: number, f: (i: number) => object): string => Array.from({ length: n }, (_, i) => JSON.stringify(f(i))).join('\n') + '\n';
    writeFileSync(join(dir, 'many-rates.jsonl'), many(3000, (i) => ({ k: `k${i % 7}`, ts: i * 10, x: i })));
    writeFileSync(join(dir, 'many-orders.jsonl'), many(3000, (i) => ({ k: `k${i % 9}`, ts: i * 10 + 3, x: `o${i}` })));
    const file = join(dir, 'many.yaml');
    writeFileSync(file, head.replace('rates.jsonl', 'many-rates.jsonl').replace('orders.jsonl', 'many-orders.jsonl') + '\n');
    const loaded = loadScenarioText(file, readFileSync(file, 'utf8'));
    if (!loaded.ok) throw new Error('the scenario does not load');
    const expected = JSON.parse(JSON.stringify(loaded.scenario.events)) as unknown[];
    expect(expected.length).toBe(6002);
    for (const k of [1, 2048, 3000]) {
      const got = viaThread(file, k);
      expect(got.events, `hand-over after ${k}`).toEqual(expected);
      // The hand-over happened at the next look at the worker after the pause.
      expect(got.own, `hand-over after ${k}`).toBe(Math.ceil(k / 64) * 64);
    }
  }, 60_000);

  it('hands over where the own stream\u2019s head of a data file ends, without an event lost or run twice', () => {
    // The own stream reads 1,000 bytes of each data file (about 30 of the 3,000 rows of each) and
    // is never paused: the hand-over comes where a file's head runs out (DataCut), and the worker's
    // batches give every event after the ones the own stream ran.
    const many = (n: number, f: (i: number) => object): string => Array.from({ length: n }, (_, i) => JSON.stringify(f(i))).join('\n') + '\n';
    writeFileSync(join(dir, 'cut-rates.jsonl'), many(3000, (i) => ({ k: `k${i % 7}`, ts: i * 10, x: i })));
    writeFileSync(join(dir, 'cut-orders.jsonl'), many(3000, (i) => ({ k: `k${i % 9}`, ts: i * 10 + 3, x: `o${i}` })));
    const file = join(dir, 'cut.yaml');
    writeFileSync(file, head.replace('rates.jsonl', 'cut-rates.jsonl').replace('orders.jsonl', 'cut-orders.jsonl') + '\n');
    const loaded = loadScenarioText(file, readFileSync(file, 'utf8'));
    if (!loaded.ok) throw new Error('the scenario does not load');
    const expected = JSON.parse(JSON.stringify(loaded.scenario.events)) as unknown[];
    expect(expected.length).toBe(6002);
    const got = viaThread(file, 1_000_000, 1000);
    expect(got.events).toEqual(expected);
    expect(got.own).toBeGreaterThan(0);
    expect(got.own).toBeLessThan(100);
  }, 60_000);

  it('hands over the events one thread streams, across many batches', () => {
    const loaded = loadScenarioText(good, readFileSync(good, 'utf8'));
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.scenario.events.length).toBe(802);
    expect(viaThread(good)).toEqual({ events: JSON.parse(JSON.stringify(loaded.scenario.events)) });
  });

  it('gives up where one thread gives up: a data file out of time order, a bad line', () => {
    writeFileSync(join(dir, 'unsorted.jsonl'), '{"k": "k1", "ts": 50, "x": "a"}\n{"k": "k1", "ts": 40, "x": "b"}\n');
    writeFileSync(join(dir, 'unsorted.yaml'), head.replace('orders.jsonl', 'unsorted.jsonl') + '\n');
    expect(viaThread(join(dir, 'unsorted.yaml'))).toEqual({ notStreamed: 'replay: a data file is not in time order' });
    writeFileSync(join(dir, 'bad.jsonl'), '{"k": "k1", "ts": 50, "x": "a"}\n{"k": "k1", "x": "b"}\n');
    writeFileSync(join(dir, 'bad.yaml'), head.replace('orders.jsonl', 'bad.jsonl') + '\n');
    expect(viaThread(join(dir, 'bad.yaml')).notStreamed).toBeDefined();
  });

  it('leaves the CLI\u2019s output, messages and exit status as they are without it', () => {
    writeFileSync(join(dir, 'late.jsonl'), '{"k": "k1", "ts": 50, "x": "a"}\n{"k": "k1", "x": "b"}\n');
    writeFileSync(join(dir, 'late.yaml'), head.replace('orders.jsonl', 'late.jsonl') + '\n');
    const files = [good, join(dir, 'late.yaml'), join(dir, 'unsorted.yaml'), ...yamlFiles([join(REPO_ROOT, 'test', 'fixtures', 'bad')]).slice(0, 3)];
    for (const file of files) {
      for (const args of [['run', '--result', file], ['run', file], ['test', file]]) {
        const on = cli(args, { env: { JOINSTEP_READ_THREAD: '1' } });
        const off = cli(args, { env: { JOINSTEP_READ_THREAD: '0' } });
        expect(on, args.join(' ')).toEqual(off);
      }
    }
    const bad = cli(['run', join(dir, 'late.yaml')], { env: { JOINSTEP_READ_THREAD: '1' } });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/late\.jsonl:2:1: error:/);
  }, 240_000);

  it('starts only for a big input unless told', () => {
    expect(wantsReadThread(good, readFileSync(good, 'utf8'), {})).toBe(false);
    expect(wantsReadThread(good, 'x'.repeat(READ_THREAD_MIN_BYTES), {})).toBe(true);
    writeFileSync(join(dir, 'big.jsonl'), 'x'.repeat(READ_THREAD_MIN_BYTES - 100));
    expect(wantsReadThread(good, '  - { replay: big.jsonl, to: orders }\n', {})).toBe(false);
    expect(wantsReadThread(good, '  - { replay: big.jsonl, to: orders }\n  - { replay: [{ file: rates.jsonl, to: rates }] }\n'.repeat(2), {})).toBe(true);
    expect(wantsReadThread(good, '', { JOINSTEP_READ_THREAD: '1' })).toBe(true);
    expect(wantsReadThread(good, 'x'.repeat(READ_THREAD_MIN_BYTES), { JOINSTEP_READ_THREAD: '0' })).toBe(false);
  });
});
