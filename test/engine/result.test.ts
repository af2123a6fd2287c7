/**
 * The timeline's materialized result is kept incrementally (a sorted array patched as the cursor
 * moves); at every position, in any visiting order, it must equal a fresh fold of the changelog.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SinkRuntime } from '../../src/engine/context-sink.js';
import { foldResult, ResultCursor, type EachRow } from '../../src/engine/result.js';
import { createTimeline } from '../../src/engine/timeline.js';
import type { Emitted } from '../../src/engine/types.js';
import type { Row } from '../../src/values/types.js';
import { loadScenarioFile } from '../../src/scenario/load.js';

const FILES = ['scenarios/regular-left-join-padding.yaml', 'scenarios/regular-full-join.yaml', 'scenarios/regular-upsert-sink.yaml', 'scenarios/side-by-side-rate-change.yaml'];

/** Retract semantics fold, written independently of src/engine/result.ts: +I/+U add, -U/-D remove one. */
function naiveResult(rows: readonly { kind: string; text: string }[]): string[] {
  const bag: string[] = [];
  for (const r of rows) {
    if (r.kind === '+I' || r.kind === '+U') bag.push(r.text);
    else {
      const at = bag.indexOf(r.text);
      if (at >= 0) bag.splice(at, 1);
    }
  }
  return bag.sort();
}

describe('timeline result', () => {
  for (const file of FILES) {
    it(`${file}: equals a fresh fold at every position, visited in random order`, async () => {
      const loaded = await loadScenarioFile(file);
      if (!loaded.ok) throw new Error(loaded.diagnostics[0]!.message);
      const tl = createTimeline(loaded.scenario);
      const fresh = (i: number) => createTimeline(loaded.scenario).result(i);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: tl.length }), { minLength: 1, maxLength: 30 }), (walk) => {
          for (const i of walk) expect(tl.result(i)).toEqual(fresh(i));
        }),
        { numRuns: 25, seed: 7 },
      );
    });
  }

  it('a retract-semantics result matches an independent fold of the printed changelog', async () => {
    const loaded = await loadScenarioFile('scenarios/regular-left-join-padding.yaml');
    if (!loaded.ok) throw new Error('load');
    const tl = createTimeline(loaded.scenario);
    for (let i = 0; i <= tl.length; i++) {
      const rows = tl.changelogRange(i, 0, tl.changelogSize(i)).map((e) => ({ kind: e.kind, text: `[${e.row.map((v) => (v === null ? 'null' : String(v))).join(', ')}]` }));
      expect(tl.result(i).length).toBe(naiveResult(rows).length);
    }
  });
});

describe('foldResult (the one-pass fold of run --result)', () => {
  const STRING = { kind: 'STRING', nullable: true } as const;
  const INT = { kind: 'INT', nullable: true } as const;
  const kinds = ['+I', '-U', '+U', '-D'] as const;
  const row = fc.tuple(fc.constantFrom('a', 'b', 'a, b', null), fc.constantFrom(1, 2, null));
  const changelog = fc.array(fc.tuple(fc.constantFrom(...kinds), row), { maxLength: 40 });

  it('equals the cursor\u2019s fold at the end of random changelogs, with and without a sink key', () => {
    fc.assert(
      fc.property(changelog, fc.boolean(), (rows, keyed) => {
        const sink = { types: [STRING, INT], ...(keyed ? { primaryKey: [0] } : {}) } as unknown as SinkRuntime;
        const emitted: Emitted[] = rows.map(([kind, r], step) => ({ kind, row: r, step, why: { rule: 'r', text: '' } }) as unknown as Emitted);
        const expected = new ResultCursor(sink, (from, to) => emitted.slice(from, to)).rows(emitted.length);
        expect(foldResult(sink, emitted)).toEqual(expected);
        let calls = 0;
        expect(foldResult(sink, (f) => emitted.forEach((e) => (calls++, f(e.kind, e.row))))).toEqual(expected);
        // Told whether a row retracts, as a bulk run reads it off the kind codes.
        expect(foldResult(sink, emitted, emitted.some((e) => e.kind === '-U' || e.kind === '-D'))).toEqual(expected);
        expect(calls).toBeGreaterThanOrEqual(emitted.length);
        // Every row read into one array that is spoiled after each call (as clEachRow's reuse):
        // a fold that keeps a row must have copied it.
        const scratch: unknown[] = [];
        const reused: EachRow = (f) =>
          emitted.forEach((e) => {
            scratch.length = 0;
            scratch.push(...e.row);
            f(e.kind, scratch as Row);
            scratch.fill('spoiled');
          });
        expect(foldResult(sink, reused)).toEqual(expected);
        expect(foldResult(sink, reused, emitted.some((e) => e.kind === '-U' || e.kind === '-D'))).toEqual(expected);
        if (!keyed) expect(foldResult(sink, emitted)).toEqual(naiveResult(emitted.map((e) => ({ kind: e.kind, text: `[${e.row.map((v) => String(v)).join(', ')}]` }))));
      }),
      { numRuns: 300 },
    );
  });

  it('an insert-only changelog told it has no retraction folds as the full fold does', () => {
    const inserts = fc.array(fc.tuple(fc.constantFrom('+I', '+U'), row), { maxLength: 60 });
    fc.assert(
      fc.property(inserts, fc.boolean(), (rows, keyed) => {
        const sink = { types: [STRING, INT], ...(keyed ? { primaryKey: [0] } : {}) } as unknown as SinkRuntime;
        const emitted: Emitted[] = rows.map(([kind, r], step) => ({ kind, row: r, step, why: { rule: 'r', text: '' } }) as unknown as Emitted);
        const expected = new ResultCursor(sink, (from, to) => emitted.slice(from, to)).rows(emitted.length);
        expect(foldResult(sink, emitted, false)).toEqual(expected);
        expect(foldResult(sink, (f) => emitted.forEach((e) => f(e.kind, [...e.row])), false)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('ResultCursor moved in pieces', () => {
  const STRING = { kind: 'STRING', nullable: true } as const;
  const INT = { kind: 'INT', nullable: true } as const;
  const kinds = ['+I', '-U', '+U', '-D'] as const;
  const row = fc.tuple(fc.constantFrom('a', 'b', 'c', null), fc.integer({ min: 0, max: 3 }));

  it('equals the plain fold of the prefix at random targets, forward and back, however the moves are cut', () => {
    fc.assert(
      fc.property(
        // Mostly inserts, so that a first retraction often comes after hundreds of rows (an
        // unkeyed fold that has to start over keyed) and some changelogs have none at all.
        fc.array(fc.tuple(fc.oneof({ arbitrary: fc.constant('+I' as const), weight: 200 }, { arbitrary: fc.constantFrom(...kinds), weight: 1 }), row), { minLength: 1, maxLength: 1500, size: 'max' }),
        fc.boolean(),
        // Each move: where to, its budget, and how far rows are printed ahead of the fold first.
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 5 }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 12 }),
        (rows, keyed, walk) => {
          const sink = { types: [STRING, INT], ...(keyed ? { primaryKey: [0] } : {}) } as unknown as SinkRuntime;
          const emitted: Emitted[] = rows.map(([kind, r], step) => ({ kind, row: r, step, why: { rule: 'r', text: '' } }) as unknown as Emitted);
          const cursor = new ResultCursor(sink, (from, to) => emitted.slice(from, to));
          // A clock that moves one tick per look: a budget of b ticks is b looks (b batches at most).
          let tick = 0;
          const now = (): number => tick++;
          for (const [where, budget, ahead] of walk) {
            cursor.printAhead(Math.round(ahead * emitted.length), 2, now);
            const size = Math.round(where * emitted.length);
            let left = cursor.moveToward(size, budget, now);
            for (let guard = 0; left > 0 && guard < 10_000; guard++) left = cursor.moveToward(size, 1, now);
            expect(left).toBe(0);
            expect(cursor.position).toBe(size);
            const expected = foldResult(sink, emitted.slice(0, size));
            const window = cursor.window(size);
            expect(window.length).toBe(expected.length);
            expect(window.slice(0, expected.length)).toEqual(expected);
            expect(window.slice(3, 9)).toEqual(expected.slice(3, 9));
          }
        },
      ),
      { numRuns: 150, seed: 16, endOnFailure: true },
    );
  });

  it('rows printed ahead stop at the first retraction, and a budget of 0 prints none', () => {
    const sink = { types: [STRING, INT] } as unknown as SinkRuntime;
    const emitted = Array.from({ length: 2000 }, (_, i) => ({ kind: i === 1500 ? '-D' : '+I', row: [`r${i % 700}`, i % 700], step: i, why: { rule: 'r', text: '' } }) as unknown as Emitted);
    const cursor = new ResultCursor(sink, (from, to) => emitted.slice(from, to));
    expect(cursor.printAhead(1000, 0)).toBe(1000);
    expect(cursor.printAhead(1000, Infinity)).toBe(0);
    // The batch with the retraction is not printed; nothing more is, ever.
    expect(cursor.printAhead(2000, Infinity)).toBe(0);
    cursor.seek(2000);
    expect(cursor.rows(2000)).toEqual(foldResult(sink, emitted));
    cursor.seek(1200);
    expect(cursor.rows(1200)).toEqual(foldResult(sink, emitted.slice(0, 1200)));
  });

  it('a small fold is done in one call however slow the clock, also when it starts over keyed', () => {
    const sink = { types: [STRING, INT] } as unknown as SinkRuntime;
    const emitted = ['+I', '+I', '-D', '+I'].map((kind, i) => ({ kind, row: ['a', i % 2], step: i, why: { rule: 'r', text: '' } }) as unknown as Emitted);
    const cursor = new ResultCursor(sink, (from, to) => emitted.slice(from, to));
    // Every look at the clock finds the budget long spent (the process was off the CPU).
    let t = 0;
    expect(cursor.moveToward(4, 8, () => (t += 1000))).toBe(0);
    expect(cursor.rows(4)).toEqual(foldResult(sink, emitted));
  });

  it('a budget of 0 moves nothing, and says how far it is', () => {
    const sink = { types: [STRING, INT] } as unknown as SinkRuntime;
    const emitted = Array.from({ length: 600 }, (_, i) => ({ kind: '+I', row: [`r${i}`, i], step: i, why: { rule: 'r', text: '' } }) as unknown as Emitted);
    const cursor = new ResultCursor(sink, (from, to) => emitted.slice(from, to));
    expect(cursor.moveToward(600, 0)).toBe(600);
    expect(cursor.position).toBe(0);
    expect(cursor.moveToward(600, Infinity)).toBe(0);
    expect(cursor.moveToward(100, 0)).toBe(500);
  });
});
