/** The engine's public API. */
export * from './types.js';
export { step } from './step.js';
export { initialSnapshot, type EngineSnapshot } from './snapshot.js';
export { createRunContext, withTracing, type RunContext, type OperatorFactory } from './context.js';
export { createTimeline } from './timeline.js';
export { createTimelineWith, CHECKPOINT_EVERY } from './timeline-core.js';
export { runScenario } from './run.js';
export { runScenarioWith, type RunOutput } from './run-core.js';
export { describeWatermarks, resultRows, emittedJson } from './describe.js';
export { createOperator } from './joins/registry.js';
