import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, readConfig } from '../../src/scenario/config.js';
import { contextFor, topNode, where } from './helpers.js';

function load(yaml: string) {
  const ctx = contextFor(yaml);
  const { key, value } = topNode(ctx, 'config');
  return { config: readConfig(ctx, value, key), problems: where(ctx) };
}

describe('config', () => {
  it('has Flink defaults when absent or empty', () => {
    expect(DEFAULT_CONFIG).toEqual({
      stateTtlMs: 0,
      idleTimeoutMs: 0,
      localTimeZone: 'UTC',
      minCleanupIntervalMs: 0,
      sinkUpsertMaterialize: 'AUTO',
      cdcEventsDuplicate: false,
      nonDeterministicUpdateStrategy: 'IGNORE',
      autoWatermarkIntervalMs: 200,
    });
    expect(load('config:\n').config).toEqual(DEFAULT_CONFIG);
  });

  it('reads every key', () => {
    const { config, problems } = load(
      [
        'config:',
        '  table.exec.state.ttl: 1 h',
        '  table.exec.source.idle-timeout: 5s',
        '  table.local-time-zone: Asia/Shanghai',
        '  table.exec.interval-join.min-cleanup-interval: 30 min',
        '  table.exec.sink.upsert-materialize: force',
        '  table.exec.source.cdc-events-duplicate: true',
        '  table.optimizer.non-deterministic-update.strategy: TRY_RESOLVE',
        '  pipeline.auto-watermark-interval: 1000',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(config).toEqual({
      stateTtlMs: 3_600_000,
      idleTimeoutMs: 5_000,
      localTimeZone: 'Asia/Shanghai',
      minCleanupIntervalMs: 1_800_000,
      sinkUpsertMaterialize: 'FORCE',
      cdcEventsDuplicate: true,
      nonDeterministicUpdateStrategy: 'TRY_RESOLVE',
      autoWatermarkIntervalMs: 1000,
    });
  });

  it("accepts Flink's own duration spellings, such as `m` for minutes", () => {
    expect(load('config:\n  table.exec.state.ttl: 10 m\n').config.stateTtlMs).toBe(600_000);
    expect(load('config:\n  table.exec.state.ttl: "100 millis"\n').config.stateTtlMs).toBe(100);
  });

  it('reports an unknown key at the key, with a did-you-mean hint', () => {
    const ctx = contextFor('config:\n  table.exec.state.tll: 1 h\n');
    const { key, value } = topNode(ctx, 'config');
    readConfig(ctx, value, key);
    expect(ctx.diagnostics).toHaveLength(1);
    expect(ctx.diagnostics[0]).toMatchObject({ line: 2, col: 3, hint: 'did you mean `table.exec.state.ttl`?' });
    expect(ctx.diagnostics[0]!.message).toContain('table.exec.state.tll');
  });

  it('reports bad values at the value', () => {
    const { problems } = load(
      [
        'config:',
        '  table.exec.state.ttl: 5 parsecs',
        '  table.exec.sink.upsert-materialize: SOMETIMES',
        '  table.exec.source.cdc-events-duplicate: maybe',
        '  table.local-time-zone: UTC+8',
        '  table.exec.source.idle-timeout: -5',
      ].join('\n'),
    );
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/^2:25 table\.exec\.state\.ttl: .*5 parsecs/);
    expect(problems[1]).toMatch(/^3:39 table\.exec\.sink\.upsert-materialize must be one of AUTO, NONE, FORCE/);
    expect(problems[2]).toMatch(/^4:43 .*true or false/);
    expect(problems[3]).toMatch(/^5:26 table\.local-time-zone 'UTC\+8' is not supported/);
    expect(problems[4]).toMatch(/^6:35 .*negative/);
  });

  it('rejects a config that is not a map', () => {
    expect(load('config: [a, b]\n').problems).toEqual(['1:9 config must be a map of Flink configuration keys, not a list']);
  });
});
