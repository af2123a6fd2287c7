import type { OperatorFactory } from '../../src/engine/context.js';
import { createRunContext } from '../../src/engine/context.js';
import { initialSnapshot } from '../../src/engine/snapshot.js';
import { step } from '../../src/engine/step.js';
import type { Scenario } from '../../src/scenario/types.js';
import { fakeOperator } from './fixtures.js';

/** Steps through every event, returning each step's record. */
export function runSteps(sc: Scenario, factory: OperatorFactory = fakeOperator()) {
  const ctx = createRunContext(sc, 0, factory);
  let snap = initialSnapshot(ctx);
  const recs = [];
  for (const e of sc.events) {
    const r = step(ctx, snap, e);
    recs.push(r);
    snap = r.snapshot;
  }
  return { ctx, recs, final: snap };
}

/** Every trace event of a type, across steps or in one step. */
export function traces<T extends string>(recs: readonly { trace: readonly { t: string }[] }[], t: T) {
  return recs.flatMap((r) => r.trace.filter((x) => x.t === t)) as never[];
}
