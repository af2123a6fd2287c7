/**
 * The `config:` map: the Flink configuration keys that change join semantics, typed into an
 * EngineConfig with Flink's defaults. Any other key is an error (spec §1).
 */
import { isMap, isScalar } from 'yaml';
import type { Node } from 'yaml';
import type { EngineConfig } from '../planner/plan.js';
import { describeNode, entries, knownEntries, readScalarText, report } from './context.js';
import type { LoadContext } from './context.js';
import { readDuration } from './duration.js';
import { checkTimeZone } from './time-zone.js';
import { DEFAULT_CONFIG } from './config-defaults.js';

export { DEFAULT_CONFIG };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Setter = (ctx: LoadContext, value: Node | null, where: Node, out: Mutable<EngineConfig>) => void;

const durationKey =
  (field: 'stateTtlMs' | 'idleTimeoutMs' | 'minCleanupIntervalMs' | 'autoWatermarkIntervalMs', key: string): Setter =>
  (ctx, value, where, out) => {
    const r = readDuration(value, true);
    if (r.ok) out[field] = r.ms;
    else report(ctx, where, `${key}: ${r.message}`, r.hint);
  };

function enumKey<T extends string>(key: string, allowed: readonly T[], set: (out: Mutable<EngineConfig>, v: T) => void): Setter {
  return (ctx, value, where, out) => {
    const text = readScalarText(value);
    // Flink reads enum options case-insensitively.
    const hit = allowed.find((a) => a === text?.toUpperCase());
    if (hit !== undefined) set(out, hit);
    else report(ctx, where, `${key} must be one of ${allowed.join(', ')}, not ${describeNode(value)}`);
  };
}

function boolKey(key: string, set: (out: Mutable<EngineConfig>, b: boolean) => void): Setter {
  return (ctx, value, where, out) => {
    const v = isScalar(value) ? value.value : undefined;
    const b = typeof v === 'boolean' ? v : typeof v === 'string' && /^(true|false)$/i.test(v) ? v.toLowerCase() === 'true' : undefined;
    if (b !== undefined) set(out, b);
    else report(ctx, where, `${key} must be true or false, not ${describeNode(value)}`);
  };
}

const SETTERS: Readonly<Record<string, Setter>> = {
  'table.exec.state.ttl': durationKey('stateTtlMs', 'table.exec.state.ttl'),
  'table.exec.source.idle-timeout': durationKey('idleTimeoutMs', 'table.exec.source.idle-timeout'),
  'table.exec.interval-join.min-cleanup-interval': durationKey('minCleanupIntervalMs', 'table.exec.interval-join.min-cleanup-interval'),
  'pipeline.auto-watermark-interval': durationKey('autoWatermarkIntervalMs', 'pipeline.auto-watermark-interval'),
  'table.local-time-zone': (ctx, value, where, out) => {
    const text = isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
    const problem = text === undefined ? { message: `must be a time zone, not ${describeNode(value)}` } : checkTimeZone(text);
    if (text !== undefined && problem === undefined) out.localTimeZone = text;
    else if (problem !== undefined) report(ctx, where, `table.local-time-zone ${problem.message}`, problem.hint);
  },
  'table.exec.sink.upsert-materialize': enumKey('table.exec.sink.upsert-materialize', ['AUTO', 'NONE', 'FORCE'] as const, (o, v) => {
    o.sinkUpsertMaterialize = v;
  }),
  'table.optimizer.non-deterministic-update.strategy': enumKey(
    'table.optimizer.non-deterministic-update.strategy',
    ['IGNORE', 'TRY_RESOLVE'] as const,
    (o, v) => {
      o.nonDeterministicUpdateStrategy = v;
    },
  ),
  'table.exec.source.cdc-events-duplicate': boolKey('table.exec.source.cdc-events-duplicate', (o, b) => {
    o.cdcEventsDuplicate = b;
  }),
  'table.exec.sink.require-on-conflict': boolKey('table.exec.sink.require-on-conflict', (o, b) => {
    o.sinkRequireOnConflict = b;
  }),
};

export const CONFIG_KEYS: readonly string[] = Object.keys(SETTERS);

/**
 * The `config:` keys and values as the file wrote them (scalar source text, `10 s` stays `10 s`),
 * for handing the configuration to real Flink unchanged. Problems are readConfig's to report;
 * anything that is not a plain scalar key and value is left out here.
 */
export function readConfigText(node: Node | null): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  if (!isMap(node)) return out;
  for (const pair of node.items) {
    const key = readScalarText(pair.key as Node | null);
    const value = readScalarText(pair.value as Node | null);
    if (key !== undefined && value !== undefined && CONFIG_KEYS.includes(key)) out[key] = value;
  }
  return out;
}

/** Reads the `config:` value (absent or null = all defaults). */
export function readConfig(ctx: LoadContext, node: Node | null, keyNode: Node | null): EngineConfig {
  const out: Mutable<EngineConfig> = { ...DEFAULT_CONFIG };
  if (node === null || (isScalar(node) && node.value === null)) return out;
  if (!isMap(node)) {
    report(ctx, node.range ? node : keyNode, `config must be a map of Flink configuration keys, not ${describeNode(node)}`);
    return out;
  }
  for (const e of knownEntries(ctx, entries(ctx, node), CONFIG_KEYS, 'config')) {
    SETTERS[e.key]!(ctx, e.value, e.valueWhere, out);
  }
  return out;
}
