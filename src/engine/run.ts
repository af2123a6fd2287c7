/** `runScenario(scenario, queryIndex)`: a whole run with the real operators (see run-core.ts). */
import type { Scenario } from '../scenario/types.js';
import { createOperator } from './joins/registry.js';
import { runScenarioWith, type RunOutput } from './run-core.js';

export type { RunOutput } from './run-core.js';

export function runScenario(scenario: Scenario, queryIndex = 0, onStep?: (done: number, total: number) => void): RunOutput {
  return runScenarioWith(scenario, queryIndex, createOperator, onStep);
}
