/**
 * The operator registry: the plan's join family picks the operator, as Flink's planner picks
 * StreamingJoinOperator, StreamingSemiAntiJoinOperator, the (row- or proc-time) interval join,
 * TemporalRowTimeJoinOperator or the LookupJoinRunner. The conventions every operator follows are
 * JoinOperator's (types.ts).
 */
import type { Plan } from '../../planner/plan.js';
import type { JoinOperator } from '../types.js';
import { createIntervalJoin } from './interval/interval-join.js';
import { createLookupJoin } from './lookup/lookup-join.js';
import { createRegularJoin } from './regular/regular-join.js';
import { createSemiAntiJoin } from './regular/semi-anti-join.js';
import { createTemporalJoin } from './temporal/temporal-join.js';

export function createOperator(plan: Plan): JoinOperator<unknown> {
  switch (plan.family) {
    case 'regular':
      return createRegularJoin(plan) as JoinOperator<unknown>;
    case 'semi':
    case 'anti':
      return createSemiAntiJoin(plan) as JoinOperator<unknown>;
    case 'interval':
      return createIntervalJoin(plan) as JoinOperator<unknown>;
    case 'temporal':
      return createTemporalJoin(plan) as JoinOperator<unknown>;
    case 'lookup':
      return createLookupJoin(plan) as JoinOperator<unknown>;
  }
}
