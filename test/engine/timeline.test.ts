import { describe, expect, it, vi } from 'vitest';
vi.mock('../../src/values/eval.js', async () => ({ compileExpr: (await import('./mock-eval.js')).miniCompile }));
import { createRunContext } from '../../src/engine/context.js';
import { initialSnapshot, type EngineSnapshot } from '../../src/engine/snapshot.js';
import { step } from '../../src/engine/step.js';
import { CHECKPOINT_EVERY, createTimelineWith } from '../../src/engine/timeline-core.js';
import type { ScenarioEvent } from '../../src/scenario/types.js';
import { STEP_EMIT, STEP_EXPIRE, STEP_RETRACT, STEP_WATERMARK } from '../../src/engine/types.js';
import { CONFIG, ev, fakeOperator, mixedScript, ordersRates, plan, scenario } from './fixtures.js';
import { runSteps } from './helpers.js';

const { orders, rates } = ordersRates();
const P = plan(orders, rates);

const script = (n: number): ScenarioEvent[] => mixedScript(n, { keys: 7, idle: true });

const sc = (events: ScenarioEvent[]) => scenario(P, events, { config: { ...CONFIG, idleTimeoutMs: 100 } });
const factory = fakeOperator({ ttlMs: 150 });

function deepFreeze<T>(o: T): T {
  if (o !== null && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

describe('step purity', () => {
  it('never mutates the snapshot it is given (deep-frozen input)', () => {
    const s = sc(script(120));
    const ctx = createRunContext(s, 0, factory);
    let snap: EngineSnapshot = deepFreeze(initialSnapshot(ctx));
    for (const e of s.events) snap = deepFreeze(step(ctx, snap, e).snapshot);
    expect(snap.index).toBe(120);
  });

  it('stepping the same snapshot twice gives deep-equal results', () => {
    const s = sc(script(40));
    const { ctx, recs } = runSteps(s, factory);
    const again = step(ctx, recs[20]!.snapshot, s.events[21]!);
    expect(again).toEqual(recs[21]);
  });
});

describe('timeline', () => {
  const events = script(3 * CHECKPOINT_EVERY + 17);
  const direct = runSteps(sc(events), factory);
  const tl = createTimelineWith(sc(events), 0, factory);

  it('at(i) equals a direct run, in any seek order', () => {
    for (const i of [events.length, 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, 77, 76, 75, 2 * CHECKPOINT_EVERY + 3, 5]) {
      expect(tl.at(i)).toEqual(direct.recs[i - 1]);
    }
    expect(tl.at(0).snapshot).toEqual(initialSnapshot(direct.ctx));
  });

  it('flags and changelog sizes match the direct run without materialising steps', () => {
    // the script exercises emits, retractions, expiry and watermarks
    expect(direct.final.changelog.n).toBeGreaterThan(20);
    for (const f of [STEP_EMIT, STEP_RETRACT, STEP_EXPIRE, STEP_WATERMARK]) expect(direct.recs.some((r) => r.flags & f)).toBe(true);
    direct.recs.forEach((r, i) => {
      expect(tl.flagsAt(i + 1)).toBe(r.flags);
      expect(tl.changelogSize(i + 1)).toBe(r.snapshot.changelog.n);
    });
  });

  it('changelogRange returns the rows emitted up to step i', () => {
    const i = 100;
    const all = direct.recs.slice(0, i).flatMap((r) => r.emitted);
    expect(tl.changelogRange(i, 0, 1e9)).toEqual(all);
    expect(tl.changelogRange(i, 2, 5)).toEqual(all.slice(2, 5));
  });

  it('insert and remove give the timeline of the edited script', () => {
    const extra = ev.row('rates', ['k1', 5, 99]);
    const ins = tl.insert(150, extra);
    const edited = [...events.slice(0, 150), extra, ...events.slice(150)];
    const fresh = createTimelineWith(sc(edited), 0, factory);
    expect(ins.length).toBe(events.length + 1);
    for (const i of [1, 150, 151, 152, ins.length]) expect(ins.at(i)).toEqual(fresh.at(i));
    const back = ins.remove(151);
    for (const i of [1, 150, 151, back.length]) expect(back.at(i)).toEqual(tl.at(i));
    expect(() => tl.remove(0)).toThrow(RangeError);
  });

  it('describeState delegates to the operator; describeWatermarks reads the snapshot', () => {
    const i = 30;
    expect(tl.describeState(i, 0).entries.length).toBe((direct.recs[i - 1]!.snapshot.op as { rows: unknown[][] }).rows[0]!.length);
    expect(tl.describeWatermarks(i).join).toBe(direct.recs[i - 1]!.snapshot.joinWm);
  });
});
