/** Flink's defaults for the configuration keys joinstep reads (kept free of YAML imports: the bench bundles it). */
import type { EngineConfig } from '../planner/plan.js';

export const DEFAULT_CONFIG: EngineConfig = {
  stateTtlMs: 0,
  idleTimeoutMs: 0,
  localTimeZone: 'UTC',
  minCleanupIntervalMs: 0,
  sinkUpsertMaterialize: 'AUTO',
  cdcEventsDuplicate: false,
  nonDeterministicUpdateStrategy: 'IGNORE',
  autoWatermarkIntervalMs: 200,
};
