import { describe, expect, it, vi } from 'vitest';
vi.mock('../../src/values/eval.js', async () => ({ compileExpr: (await import('./mock-eval.js')).miniCompile }));
import { createRunContext } from '../../src/engine/context.js';
import { initialSnapshot } from '../../src/engine/snapshot.js';
import { step } from '../../src/engine/step.js';
import { STEP_EXPIRE } from '../../src/engine/types.js';
import { ev, fakeOperator, ordersRates, plan, scenario } from './fixtures.js';

function run(events: Parameters<typeof scenario>[1], opts: Parameters<typeof fakeOperator>[0] = {}, extra: Parameters<typeof scenario>[2] = {}) {
  const { orders, rates } = ordersRates();
  const sc = scenario(plan(orders, rates), events, extra);
  const ctx = createRunContext(sc, 0, fakeOperator(opts));
  let snap = initialSnapshot(ctx);
  const recs = [];
  for (const e of sc.events) {
    const r = step(ctx, snap, e);
    recs.push(r);
    snap = r.snapshot;
  }
  return { ctx, recs, init: initialSnapshot(ctx) };
}

describe('processing clock', () => {
  it('starts at date 00:00', () => {
    const { init } = run([], {}, { date: 86_400_000 });
    expect(init.procTime).toBe(86_400_000);
  });

  it("starts at the first event's at when that is earlier than date", () => {
    const { init, recs } = run([ev.note(1000), ev.note(5000)], {}, { date: 86_400_000 });
    expect(init.procTime).toBe(1000);
    expect(recs[0]!.snapshot.procTime).toBe(1000);
    expect(recs[1]!.snapshot.procTime).toBe(5000);
  });

  it('moves by at and advance, never back', () => {
    const { recs } = run([ev.note(100), ev.advance(50), ev.note(120), ev.advance(10, 500)]);
    expect(recs.map((r) => r.snapshot.procTime)).toEqual([100, 150, 150, 510]);
    expect(recs[0]!.trace).toContainEqual({ t: 'clock.advance', from: 0, to: 100 });
  });

  it('fires processing-time timers before the event, in time order, with the clock at each timer', () => {
    const { recs } = run(
      [ev.row('orders', ['a', 0, 'o1'], '+I', 0, 0), ev.row('orders', ['a', 0, 'o2'], '+I', 0, 30), ev.advance(100)],
      { ttlMs: 50 },
    );
    const last = recs[2]!;
    const expires = last.trace.filter((t) => t.t === 'state.expire');
    expect(expires).toHaveLength(2);
    expect(last.flags & STEP_EXPIRE).toBe(STEP_EXPIRE);
    expect(last.snapshot.procTime).toBe(130);
    // the o1 row expired at 50 (inclusive), o2 at 80: two timer rounds, o1 first
    expect((expires[0] as { row: string }).row).toContain('o1');
  });

  it('expiry is inclusive: a row written at t with ttl expires when the clock reaches t + ttl', () => {
    const { recs } = run([ev.row('orders', ['a', 0, 'o1'], '+I', 0, 0), ev.note(49), ev.note(50)], { ttlMs: 50 });
    expect(recs[1]!.trace.some((t) => t.t === 'state.expire')).toBe(false);
    expect(recs[2]!.trace.some((t) => t.t === 'state.expire')).toBe(true);
  });
});
