/**
 * Timeline properties over random scripts (rows with updates and deletes, watermarks, idleness,
 * clock moves) for several join families, through the real loader, planner and operators:
 *  - stepping back k and forward k gives snapshots deep-equal to a direct step-by-step run;
 *  - the same scenario run twice gives byte-identical output;
 *  - the timeline's changelog equals the plain run's;
 *  - a what-if edit (remove or duplicate an event) gives the edited script's timeline, and leaves
 *    the original timeline as it was (bulk runs change nodes in place within transient edits).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRunContext } from '../../src/engine/context.js';
import { createOperator } from '../../src/engine/joins/registry.js';
import { runScenario } from '../../src/engine/run.js';
import { initialSnapshot, type EngineSnapshot } from '../../src/engine/snapshot.js';
import { step } from '../../src/engine/step.js';
import { createTimeline } from '../../src/engine/timeline.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';
import type { Emitted } from '../../src/engine/types.js';

const TABLES = `
  CREATE TABLE l (k STRING, v INT, ts BIGINT, rt AS TO_TIMESTAMP_LTZ(ts, 3), WATERMARK FOR rt AS rt)
    WITH ('connector' = 'kafka', 'topic' = 'l', 'format' = 'json');
  CREATE TABLE r (k STRING, v INT, ts BIGINT, rt AS TO_TIMESTAMP_LTZ(ts, 3), WATERMARK FOR rt AS rt,
    PRIMARY KEY (k) NOT ENFORCED)
    WITH ('connector' = 'upsert-kafka', 'topic' = 'r', 'key.format' = 'json', 'value.format' = 'json');`;

const QUERIES = {
  'regular left': 'SELECT l.k, l.v, r.v AS rv FROM l LEFT JOIN r ON l.k = r.k;',
  'regular full': 'SELECT l.k, l.v, r.v AS rv FROM l FULL JOIN r ON l.k = r.k AND l.v <= r.v;',
  temporal: 'SELECT l.k, l.v, r.v AS rv FROM l LEFT JOIN r FOR SYSTEM_TIME AS OF l.rt AS r ON l.k = r.k;',
  // a self-join: one table feeds both inputs
  interval: "SELECT a.k, a.v, b.v AS bv FROM l AS a LEFT JOIN l AS b ON a.k = b.k AND a.rt BETWEEN b.rt - INTERVAL '3' SECOND AND b.rt;",
} as const;
type Query = keyof typeof QUERIES;

const eventArb = fc.oneof(
  { weight: 6, arbitrary: fc.record({ e: fc.constant('row' as const), to: fc.constantFrom('l', 'r'), k: fc.constantFrom('a', 'b', 'c'), v: fc.integer({ min: 0, max: 4 }), s: fc.integer({ min: 0, max: 30 }), del: fc.boolean(), p: fc.constantFrom(0, 1) }) },
  { weight: 2, arbitrary: fc.record({ e: fc.constant('wm' as const), to: fc.constantFrom('l', 'r'), s: fc.integer({ min: 0, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ e: fc.constant('idle' as const), to: fc.constantFrom('l', 'r'), p: fc.constantFrom(0, 1) }) },
  { weight: 1, arbitrary: fc.record({ e: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 4000 }) }) },
);
type Ev = typeof eventArb extends fc.Arbitrary<infer T> ? T : never;

function yamlEvent(ev: Ev): string {
  switch (ev.e) {
    case 'row': {
      const op = ev.del ? (ev.to === 'r' ? ', op: "-D"' : '') : '';
      return `{ to: ${ev.to}, partition: ${ev.p}, row: { k: ${ev.k}, v: ${ev.v}, ts: ${ev.s * 1000} }${op} }`;
    }
    case 'wm':
      return `{ watermark: ${ev.to}, to: ${ev.s * 1000} }`;
    case 'idle':
      return `{ idle: ${ev.to}, partition: ${ev.p} }`;
    case 'advance':
      return `{ advance: ${ev.ms} }`;
  }
}

/** The interval query is a self-join of l: events go to l, and l is append-only. */
function onL(e: Ev): Ev {
  if (e.e === 'row') return { ...e, to: 'l', del: false };
  if (e.e === 'wm' || e.e === 'idle') return { ...e, to: 'l' };
  return e;
}

function load(query: Query, events: readonly Ev[], manual: boolean): Scenario {
  const sql = `${TABLES}\n  ${QUERIES[query]}`;
  const text = [
    'name: generated',
    `watermarks: ${manual ? 'manual' : 'auto'}`,
    'partitions: { l: 2, r: 2 }',
    'config: { table.exec.state.ttl: 5 s, table.exec.source.idle-timeout: 3 s }',
    `sql: |${sql.split('\n').map((l) => `\n  ${l}`).join('')}`,
    'events:',
    ...(events.length === 0 ? ['  []'] : events.map((e) => `  - ${yamlEvent(query === 'interval' ? onL(e) : e)}`)),
  ].join('\n');
  const loaded = loadScenarioText('generated.yaml', text);
  if (!loaded.ok) throw new Error(`${JSON.stringify(loaded.diagnostics)}\n${text}`);
  return loaded.scenario;
}

function directRun(sc: Scenario): EngineSnapshot[] {
  const ctx = createRunContext(sc, 0, createOperator);
  const snaps = [initialSnapshot(ctx)];
  for (const e of sc.events) snaps.push(step(ctx, snaps[snaps.length - 1]!, e).snapshot);
  return snaps;
}

// size 'max': scripts as long as maxLength too, past the 64-step checkpoints (fast-check keeps
// arrays short by default, and short scripts never reach a checkpoint).
const script = fc.tuple(fc.constantFrom<Query>('regular left', 'regular full', 'temporal', 'interval'), fc.array(eventArb, { minLength: 1, maxLength: 150, size: 'max' }), fc.boolean());

describe('timeline properties', () => {
  it('stepping back k and forward k gives the same snapshots as a direct run', () => {
    fc.assert(
      fc.property(script, fc.array(fc.tuple(fc.nat(), fc.nat({ max: 90 })), { minLength: 1, maxLength: 6 }), ([query, events, manual], moves) => {
        const sc = load(query, events, manual);
        const direct = directRun(sc);
        const tl = createTimeline(sc);
        for (const [a, b] of moves) {
          const i = a % (tl.length + 1);
          const k = Math.min(i, b);
          const before = tl.at(i).snapshot;
          expect(tl.at(i - k).snapshot).toEqual(direct[i - k]);
          expect(tl.at(i).snapshot).toEqual(before);
          expect(before).toEqual(direct[i]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('the same scenario run twice gives byte-identical output, and the timeline agrees with the run', () => {
    let withOutput = 0;
    fc.assert(
      fc.property(script, ([query, events, manual]) => {
        const a = runScenario(load(query, events, manual));
        const b = runScenario(load(query, events, manual));
        const text = (o: typeof a) => JSON.stringify({ lines: o.lines, result: o.result, json: o.json, emitted: o.emitted });
        expect(text(b)).toBe(text(a));
        const tl = createTimeline(load(query, events, manual));
        // The run keeps each row's rule only; the timeline rebuilds full reasons by replay.
        const ruleOnly = (e: Emitted) => ({ kind: e.kind, row: e.row, step: e.step, rule: e.why.rule });
        const all = tl.changelogRange(tl.length, 0, Infinity);
        expect(all.map(ruleOnly)).toEqual(a.emitted.map(ruleOnly));
        expect(tl.result(tl.length)).toEqual(a.result);
        const stepped = Array.from({ length: tl.length }, (_, i) => tl.at(i + 1).emitted).flat();
        expect(all).toEqual(stepped);
        if (a.emitted.length > 0) withOutput++;
      }),
      { numRuns: 60 },
    );
    // the generated scripts do exercise the joins
    expect(withOutput).toBeGreaterThan(20);
  });

  it('an edit gives the edited script timeline and leaves the original one unchanged', () => {
    fc.assert(
      fc.property(script, fc.nat(), fc.boolean(), fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), ([query, events, manual], at, dup, probes) => {
        const sc = load(query, events, manual);
        const direct = directRun(sc);
        const tl = createTimeline(sc);
        // Visit a few steps first so that the original timeline has kept snapshots to disturb.
        for (const p of probes) tl.at(p % (tl.length + 1));
        const i = 1 + (at % tl.length);
        const edited = dup ? tl.insert(i, sc.events[i - 1]!) : tl.remove(i);
        const script2 = dup ? [...sc.events.slice(0, i), sc.events[i - 1]!, ...sc.events.slice(i)] : [...sc.events.slice(0, i - 1), ...sc.events.slice(i)];
        const direct2 = directRun({ ...sc, events: script2 });
        for (const p of [...probes, i - 1, i, edited.length]) {
          const j = p % (edited.length + 1);
          expect(edited.at(j).snapshot).toEqual(direct2[j]);
        }
        for (const p of [...probes, i - 1, i, tl.length]) {
          const j = p % (tl.length + 1);
          expect(tl.at(j).snapshot).toEqual(direct[j]);
        }
        expect(tl.changelogRange(tl.length, 0, Infinity).map((e) => e.row)).toEqual(runScenario(sc).emitted.map((e) => e.row));
      }),
      // No shrinking: a failing 150-event script takes minutes to shrink; the seed reproduces it.
      { numRuns: 60, endOnFailure: true },
    );
  });
});
