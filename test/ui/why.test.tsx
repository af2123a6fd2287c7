/** The why view: a selected changelog row's recorded Why, and why nothing came out of a step. */
import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../src/engine/types.js';
import { App } from '../../src/ui/App.js';
import { plain } from '../../src/ui/lines.js';
import { renderPane } from '../../src/ui/panes/index.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSession } from '../../src/ui/session-load.js';
import { reasonText, whyNot } from '../../src/ui/why.js';
import { INFO, storySession, T, wmView } from './fake-timeline.js';
import { frame, KEY, press, render, unmount } from './helpers.js';
import { keys, stateAt } from './state-helpers.js';

const whyText = (s: ReturnType<typeof stateAt>, width = 70, height = 14): string =>
  renderPane(s, 'why', width, height).map(plain).join('\n').replace(/\s+/g, ' ');

const record = (trace: StepRecord['trace']): StepRecord => ({ index: 1, snapshot: null, emitted: [], trace, flags: 0 });

describe('why a row was emitted', () => {
  it('shows the selected row, its rule, its text and the rows involved', () => {
    const s = keys({ ...stateAt(7), focus: 'changelog' }, 'up', 'up', 'up');
    expect(s.selected).toBe(0);
    const text = whyText(s);
    expect(text).toContain('why · row 1');
    expect(text).toContain('row 1, emitted at step 6: +I[o1, 2026-10-01T09:30, 110.000000]');
    expect(text).toContain('rule temporal.version: left +I[o1, EUR] matched rates version 09:00 (latest <= 09:30)');
    expect(text).toContain('· orders +I[o1, EUR, 100.00, 09:30]');
    expect(text).toContain('· rates +I[EUR, 1.1000, 09:00]');
  });

  it('lists what the current step emitted, each with its reason', () => {
    const text = whyText(stateAt(7));
    expect(text).toContain('step 7 emitted 2 rows:');
    expect(text).toContain('-U[o1, 2026-10-01T09:30, 110.000000] rates -D retracts the matched version');
    expect(text).toContain('+U[o1, 2026-10-01T09:30, null] no version left: padded with nulls');
  });
});

describe('why nothing came out', () => {
  it('waiting: the join watermark is below the row, and who holds it back', () => {
    const text = whyText(stateAt(3));
    expect(text).toContain('nothing came out of step 3');
    expect(text).toContain('waiting: join watermark 09:00 < orders 09:30 (release buffered probe rows), held back by rates partition 0');
    expect(text).toContain('stored: +I[o1, EUR, 100.00, 2026-10-01T09:30] kept in left state');
  });

  it('dropped: a late row', () => {
    expect(whyText(stateAt(5))).toContain('dropped: +I[o0, EUR, 5.00, 2026-10-01T08:00] is late: its time 08:00 is at or below the join watermark 09:00');
  });

  it('a note step says so and shows the note', () => {
    const text = whyText(stateAt(4));
    expect(text).toContain('note: Nothing yet: the order waits.');
    expect(text).toContain('this event changed nothing the join can see');
  });

  it.each([
    [[{ t: 'state.expire', side: 0, key: 'k1', row: '+I[k1]', reason: 'state TTL 10 s passed at 10:00:10' }], 'expired: +I[k1] (key k1): state TTL 10 s passed at 10:00:10'],
    [[{ t: 'filter.drop', side: 1, row: '+I[x]', reason: 'WHERE amount > 10 is false' }], 'filtered: +I[x]: WHERE amount > 10 is false'],
    [[{ t: 'watermark.ignored', table: 'rates', partition: 1, value: T('09:00'), reason: 'the partition is idle' }], 'ignored: watermark 09:00 of rates partition 1: the partition is idle'],
    [[{ t: 'watermark.hold', scope: 'join', value: T('09:25'), heldBy: 'rates partition 1' }], 'waiting: join watermark stays at 09:25, held back by rates partition 1'],
    [[{ t: 'lookup', key: 'c9', result: 'miss', rows: [] }], 'no match: lookup of key c9 found nothing (miss)'],
    [[{ t: 'timer.register', domain: 'proc', time: T('10:00'), key: 'k', purpose: 'state TTL' }], 'waiting: processing time 09:00 < 10:00 (state TTL)'],
  ] as const)('%j', (trace, expected) => {
    const reasons = whyNot(record(trace as unknown as StepRecord['trace']), wmView(T('09:25'), T('09:30'), T('09:25')), INFO, T('09:00'));
    expect(reasons.map(reasonText)).toContain(expected);
  });

  it('a regular join row kept in state waits for a match; a temporal one for the watermark', () => {
    const trace = [{ t: 'state.add', side: 0, key: 'k', row: '+I[k, 1]' }] as const;
    const wm = wmView(T('09:30'), T('09:30'), T('09:25'));
    const regular = whyNot(record(trace), wm, { ...INFO, family: 'regular' }, 0).map(reasonText);
    expect(regular).toEqual(['stored: +I[k, 1] kept in left state', 'waiting: no match on the other side yet; it is kept until one arrives']);
    const temporal = whyNot(record(trace), wm, INFO, 0).map(reasonText);
    expect(temporal[1]).toBe('waiting: the join watermark is 09:25, held back by rates partition 1');
  });
});

describe('why view in the app', () => {
  it('follows the cursor and the changelog selection', async () => {
    const r = await render(<App session={storySession()} />, { columns: 120, rows: 40 });
    await press(r, 'n', 'n', 'n');
    expect(frame(r).replace(/\s+/g, ' ')).toContain('waiting: join watermark 09:00 < orders 09:30');
    await press(r, 'G', KEY.shiftTab, KEY.shiftTab, KEY.shiftTab, KEY.up);
    expect(frame(r)).toContain('▸changelog');
    expect(frame(r)).toContain('rule repad');
    await unmount(r);
  });
});

describe('timers of several keys due at the same time', () => {
  // Each rate registers its key's temporal timer at 09:00, so the watermark at step 8 fires three
  // keys' timers at one time: Flink fires those in its timer heap's order (docs/semantics.md).
  const SCENARIO = `name: three keys released by one watermark
date: 2026-10-01
watermarks: manual
sql: |
  CREATE TABLE orders (id STRING, currency STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'format' = 'json');
  CREATE TABLE rates (currency STRING, rate INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts, PRIMARY KEY (currency) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');
  SELECT o.id, o.currency, r.rate FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.currency = r.currency;
events:
  - { to: rates, row: { currency: EUR, rate: 1, ts: "09:00" } }
  - { to: rates, row: { currency: USD, rate: 2, ts: "09:00" } }
  - { to: rates, row: { currency: GBP, rate: 3, ts: "09:00" } }
  - { to: orders, row: { id: o1, currency: EUR, ts: "09:01" } }
  - { to: orders, row: { id: o2, currency: USD, ts: "09:02" } }
  - { to: orders, row: { id: o3, currency: GBP, ts: "09:03" } }
  - { watermark: orders, to: "09:05" }
  - { watermark: rates, to: "09:05" }
  - { to: orders, row: { id: o4, currency: EUR, ts: "09:06" } }
  - { watermark: orders, to: "09:10" }
  - { watermark: rates, to: "09:10" }
`;

  it('the why view names the order of the timer heap; a step with one key says nothing of it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'joinstep-why-')), 'three-keys.yaml');
    writeFileSync(file, SCENARIO);
    const loaded = await loadSession(file);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const at8 = whyText(stateAt(8, loaded.session), 80, 30);
    expect(at8).toContain('step 8 emitted 3 rows:');
    // Registered EUR, USD, GBP: Flink's heap fires EUR, then GBP (moved to the top), then USD.
    expect(at8.indexOf('+I[o1, EUR, 1]')).toBeLessThan(at8.indexOf('+I[o3, GBP, 3]'));
    expect(at8.indexOf('+I[o3, GBP, 3]')).toBeLessThan(at8.indexOf('+I[o2, USD, 2]'));
    expect(at8).toContain("order: 3 keys' event-time timers were due at 09:00 and fired as EUR, GBP, USD: Flink's timer heap orders timers by time only");
    const at11 = whyText(stateAt(11, loaded.session), 80, 30);
    expect(at11).toContain('step 11 emitted 1 row:');
    expect(at11).not.toContain('order:');
  });
});
