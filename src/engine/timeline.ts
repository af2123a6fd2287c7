/** `createTimeline(scenario, queryIndex)`: the timeline over the real operators (see timeline-core.ts). */
import type { Scenario } from '../scenario/types.js';
import { createOperator } from './joins/registry.js';
import type { EngineSnapshot } from './snapshot.js';
import { createTimelineWith, startTimelineWith, type TimelineBuild } from './timeline-core.js';
import type { Timeline } from './types.js';

export type { TimelineBuild } from './timeline-core.js';

export function createTimeline(scenario: Scenario, queryIndex = 0, onStep?: (done: number, total: number) => void): Timeline<EngineSnapshot> {
  return createTimelineWith(scenario, queryIndex, createOperator, onStep);
}

/** The same timeline, computed in pieces (see TimelineBuild): the app shows the first steps at once. */
export function startTimeline(scenario: Scenario, queryIndex = 0, expected?: number): TimelineBuild {
  return startTimelineWith(scenario, queryIndex, createOperator, expected);
}
