// Spec §3 rules for source partitions, watermarks and idleness, through whole steps.
import { describe, expect, it, vi } from 'vitest';
vi.mock('../../src/values/eval.js', async () => ({ compileExpr: (await import('./mock-eval.js')).miniCompile }));
import { describeWatermarks } from '../../src/engine/describe.js';
import { STEP_WATERMARK, WM_MAX, WM_MIN } from '../../src/engine/types.js';
import { CONFIG, ev, fakeOperator, ordersRates, plan, scenario } from './fixtures.js';
import { runSteps, traces } from './helpers.js';

const { orders, rates } = ordersRates();
const P = plan(orders, rates);

describe('auto watermarks', () => {
  it('a partition emits its generated watermark after each row that grows it', () => {
    const { recs } = runSteps(scenario(P, [ev.row('orders', ['a', 100, 'o1']), ev.row('orders', ['a', 50, 'o2']), ev.row('orders', ['a', 200, 'o3'])]));
    expect(recs.map((r) => r.snapshot.tables[0]!.valve.output)).toEqual([100, 100, 200]);
    expect(recs.map((r) => r.snapshot.tables[0]!.generated[0])).toEqual([100, 100, 200]);
    expect(recs[0]!.flags & STEP_WATERMARK).toBe(STEP_WATERMARK);
    expect(recs[1]!.flags & STEP_WATERMARK).toBe(0);
  });

  it("the join's watermark is the minimum of its inputs, and the trace says who holds it", () => {
    const { recs } = runSteps(scenario(P, [ev.row('orders', ['a', 100, 'o1']), ev.row('rates', ['a', 300, 1]), ev.row('orders', ['a', 400, 'o2'])]));
    expect(recs.map((r) => r.snapshot.joinWm)).toEqual([WM_MIN, 100, 300]);
    expect(recs[0]!.trace).toContainEqual({ t: 'watermark.hold', scope: 'join', value: WM_MIN, heldBy: 'rates' });
    expect(describeWatermarks(runSteps(scenario(P, recs.map((r) => r.event!))).ctx, recs[2]!.snapshot).heldBy).toBe('rates');
  });

  it('a table without WATERMARK has no event-time watermark and holds the join at MIN', () => {
    const nw = ordersRates({ rates: { watermarkOn: undefined } });
    const { recs } = runSteps(scenario(plan(nw.orders, nw.rates), [ev.row('orders', ['a', 100, 'o1']), ev.row('rates', ['a', 300, 1]), ev.wm('rates', 500)]));
    expect(recs[2]!.snapshot.joinWm).toBe(WM_MIN);
    expect(traces(recs, 'watermark.ignored')).toHaveLength(1);
  });

  it('a null WATERMARK value is ignored', () => {
    const { recs } = runSteps(scenario(P, [ev.row('orders', ['a', 100, 'o1']), ev.row('orders', ['a', null, 'o2'])]));
    expect(recs[1]!.snapshot.tables[0]!.generated[0]).toBe(100);
  });
});

describe('manual watermarks', () => {
  const manual = (events: Parameters<typeof scenario>[1], extra = {}) => runSteps(scenario(P, events, { watermarks: 'manual', ...extra }));

  it('rows generate but emit nothing; a watermark event emits the generated value by default', () => {
    const { recs } = manual([ev.row('orders', ['a', 100, 'o1']), ev.wm('orders', 'generated')]);
    expect(recs[0]!.snapshot.tables[0]!.valve.output).toBe(WM_MIN);
    expect(recs[0]!.snapshot.tables[0]!.generated[0]).toBe(100);
    expect(recs[1]!.snapshot.tables[0]!.valve.output).toBe(100);
  });

  it('a lower watermark is ignored with a trace; max closes the table', () => {
    const { recs } = manual([ev.wm('orders', 500), ev.wm('orders', 400), ev.wm('orders', 'max')]);
    expect(recs[1]!.snapshot.tables[0]!.valve.output).toBe(500);
    expect(traces([recs[1]!], 'watermark.ignored')).toHaveLength(1);
    expect(recs[2]!.snapshot.tables[0]!.valve.output).toBe(WM_MAX);
  });

  it('without a partition the event goes to every partition; one lagging partition holds the table back', () => {
    const { recs, ctx } = manual([ev.wm('rates', 500), ev.wm('rates', 800, 0)], { partitions: { rates: 2 } });
    expect(recs[0]!.snapshot.tables[1]!.valve.output).toBe(500);
    expect(recs[1]!.snapshot.tables[1]!.valve.output).toBe(500);
    expect(recs[1]!.trace).toContainEqual({ t: 'watermark.hold', scope: 'rates', value: 500, heldBy: 'rates partition 1' });
    expect(describeWatermarks(ctx, recs[1]!.snapshot).tables[1]!.heldBy).toBe(1);
  });

  it('the join fires operator timers before it forwards the output watermark (minus the delay)', () => {
    const sc = scenario(P, [ev.row('rates', ['a', 0, 1]), ev.row('orders', ['a', 300, 'o1']), ev.wm('orders', 300), ev.wm('rates', 400)], { watermarks: 'manual' });
    const { recs } = runSteps(sc, fakeOperator({ holdOn: 1, delay: 100 }));
    expect(recs[2]!.emitted).toHaveLength(0);
    const last = recs[3]!;
    expect(last.emitted).toHaveLength(1);
    const emitAt = last.trace.findIndex((t) => t.t === 'emit');
    const outAt = last.trace.findIndex((t) => t.t === 'watermark.advance' && t.scope === 'output');
    expect(emitAt).toBeGreaterThanOrEqual(0);
    expect(emitAt).toBeLessThan(outAt);
    expect(last.snapshot.joinWm).toBe(300);
    expect(last.snapshot.outputWm).toBe(200);
  });
});

describe('idleness', () => {
  it('an idle input is left out of the join; all idle gives the maximum', () => {
    const { recs } = runSteps(scenario(P, [ev.wm('orders', 100), ev.wm('rates', 50), ev.idle('rates'), ev.idle('orders')], { watermarks: 'manual' }));
    expect(recs.map((r) => r.snapshot.joinWm)).toEqual([WM_MIN, 50, 100, 100]);
    expect(recs[3]!.snapshot.inputs.every((i) => i.idle)).toBe(true);
  });

  it('a row re-activates an idle partition', () => {
    const { recs } = runSteps(scenario(P, [ev.idle('orders'), ev.row('orders', ['a', 200, 'o1'])], { watermarks: 'manual' }));
    expect(recs[0]!.snapshot.tables[0]!.valve.idle).toBe(true);
    expect(recs[1]!.trace).toContainEqual({ t: 'idle', table: 'orders', partition: 0, idle: false, reason: 'a row arrived' });
    expect(recs[1]!.snapshot.tables[0]!.valve.idle).toBe(false);
  });

  it('a watermark from an idle partition re-activates it and counts (the source sends ACTIVE first)', () => {
    const { recs } = runSteps(scenario(P, [ev.idle('orders'), ev.wm('orders', 100)], { watermarks: 'manual' }));
    expect(recs[0]!.snapshot.tables[0]!.valve.idle).toBe(true);
    expect(traces([recs[1]!], 'watermark.ignored')).toHaveLength(0);
    expect(recs[1]!.trace).toContainEqual({ t: 'idle', table: 'orders', partition: 0, idle: false, reason: 'a watermark arrived: a source instance that emits a watermark is active again' });
    expect(recs[1]!.snapshot.tables[0]!.valve.idle).toBe(false);
    expect(recs[1]!.snapshot.tables[0]!.valve.output).toBe(100);
  });

  it('the idle timeout counts from the start, then from the last row; only rows reset it', () => {
    const cfg = { ...CONFIG, idleTimeoutMs: 1000 };
    const { recs } = runSteps(
      scenario(P, [ev.row('orders', ['a', 100, 'o1'], '+I', 0, 500), ev.note(1200), ev.wm('orders', 150), ev.note(1500)], { config: cfg }),
    );
    // rates had no row: idle at 0 + 1000; orders' row at 500 moves its deadline to 1500
    expect(recs[1]!.snapshot.tables[1]!.valve.idle).toBe(true);
    expect(recs[1]!.snapshot.tables[0]!.valve.idle).toBe(false);
    expect(recs[1]!.snapshot.joinWm).toBe(100);
    expect(recs[3]!.snapshot.tables[0]!.valve.idle).toBe(true);
    expect(recs[3]!.snapshot.joinWm).toBe(150);
  });

  it('a re-activated partition must catch up before it holds the table back', () => {
    const { recs } = runSteps(
      scenario(P, [ev.wm('rates', 100, 0), ev.wm('rates', 50, 1), ev.idle('rates', 1), ev.active('rates', 1), ev.wm('rates', 80, 1), ev.wm('rates', 300, 0)], {
        watermarks: 'manual',
        partitions: { rates: 2 },
      }),
    );
    const out = recs.map((r) => r.snapshot.tables[1]!.valve.output);
    expect(out).toEqual([WM_MIN, 50, 100, 100, 100, 300]);
  });
});

describe('idle timeout and the active event', () => {
  it('an `active` partition whose idle deadline has passed goes idle again at the next check (only rows reset it)', () => {
    const cfg = { ...CONFIG, idleTimeoutMs: 1000 };
    const { recs } = runSteps(scenario(P, [ev.note(1500), ev.active('orders'), ev.note(1500), ev.row('orders', ['a', 5, 'o1']), ev.note(2400)], { config: cfg }));
    expect(recs[0]!.snapshot.tables[0]!.valve.idle).toBe(true);
    expect(recs[1]!.snapshot.tables[0]!.valve.idle).toBe(false);
    expect(recs[2]!.snapshot.tables[0]!.valve.idle).toBe(true);
    // the row re-activates it and moves its deadline to 1500 + 1000
    expect(recs[3]!.snapshot.tables[0]!.valve.idle).toBe(false);
    expect(recs[4]!.snapshot.tables[0]!.valve.idle).toBe(false);
    expect(recs[4]!.snapshot.tables[0]!.idleAt[0]).toBe(2500);
  });
});
