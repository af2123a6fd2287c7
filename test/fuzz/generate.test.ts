import { describe, expect, it } from 'vitest';
import { generateCase } from '../../src/fuzz/generate.js';
import { runJoinstep } from '../../src/fuzz/joinstep-run.js';
import { FAMILIES, FLINK_VERSIONS, type FuzzCase } from '../../src/fuzz/model.js';
import { renderCase } from '../../src/fuzz/render.js';

const sample = (n: number, from = 1): FuzzCase[] => Array.from({ length: n }, (_, i) => generateCase(from + i));

describe('the scenario generator', () => {
  it('gives the same file for the same seed, and other files for other seeds', () => {
    for (const seed of [1, 42, 99999]) expect(renderCase(generateCase(seed))).toBe(renderCase(generateCase(seed)));
    const texts = new Set(sample(50).map(renderCase));
    expect(texts.size).toBe(50);
  });

  it('replays a scenario from the seed, family and version its header names', () => {
    for (const c of sample(30, 500)) {
      const text = renderCase(c);
      expect(text).toContain(`--seed ${c.seed} --n 1 --family ${c.family} --flink-version ${c.flinkVersion}`);
      expect(renderCase(generateCase(c.seed, { family: c.family, flinkVersion: c.flinkVersion }))).toBe(text);
    }
  });

  it('keeps to the family and flink-version it is given', () => {
    for (const family of FAMILIES) {
      for (const flinkVersion of FLINK_VERSIONS) {
        const c = generateCase(7, { family, flinkVersion });
        expect(c.family).toBe(family);
        expect(renderCase(c)).toContain(`flink-version: "${flinkVersion}"`);
      }
    }
  });

  it('draws a random flink-version only from the versions it is given, and the file still replays from its header', () => {
    const released = ['2.0', '2.1', '2.2', '2.3'] as const;
    const drawn = new Set<string>();
    for (let seed = 0; seed < 200; seed++) {
      const c = generateCase(seed, { versions: released });
      drawn.add(c.flinkVersion);
      // The version is drawn in one step whatever the pool, so the rest of the file is the one
      // that seed gives with the version named.
      expect(renderCase(c)).toBe(renderCase(generateCase(seed, { family: c.family, flinkVersion: c.flinkVersion })));
    }
    expect([...drawn].sort()).toEqual([...released]);
    const all = new Set(Array.from({ length: 200 }, (_, seed) => generateCase(seed).flinkVersion));
    expect(all.has('2.4')).toBe(true);
  });

  it('writes scenarios that joinstep loads: each one runs or is rejected by the planner, none is an invalid file or a crash', () => {
    const kinds = new Map<string, number>();
    for (const c of sample(150, 300)) {
      const o = runJoinstep(`fuzz-${c.seed}.yaml`, renderCase(c));
      kinds.set(o.kind, (kinds.get(o.kind) ?? 0) + 1);
      expect(['ran', 'rejected', 'runtime-error'], `seed ${c.seed}: ${o.kind === 'ran' ? '' : o.message}`).toContain(o.kind);
    }
    // most of them plan: a generator that only wrote rejected queries would test nothing
    expect(kinds.get('ran') ?? 0).toBeGreaterThan(120);
  });

  it('covers every join shape the issue lists within a thousand seeds', () => {
    const cases = sample(1000, 10_000);
    const shapes = new Set(cases.map((c) => c.shape.split('/').slice(0, 2).join('/')));
    for (const s of ['regular/inner', 'regular/left', 'regular/right', 'regular/full', 'semi-anti/IN', 'semi-anti/NOT IN', 'semi-anti/EXISTS',
      'semi-anti/NOT EXISTS', 'interval/inner', 'interval/left', 'interval/right', 'interval/full', 'temporal/inner', 'temporal/left',
      'lookup/inner', 'lookup/left']) {
      expect(shapes, s).toContain(s);
    }
    const all = cases.map((c) => c.shape).join(' ');
    for (const s of ['proctime', 'rowtime', 'strict', 'inclusive', 'negative', '/upsert', '/cdc', '/view', '/keyed', '/plain', '/cache']) expect(all, s).toContain(s);
    const texts = cases.map(renderCase).join('\n');
    for (const s of ['lookup.partial-cache.expire-after-write', 'lookup.partial-cache.expire-after-access', 'lookup.partial-cache.max-rows',
      "'lookup.partial-cache.cache-missing-key' = 'false'", 'TRY_RESOLVE', 'STATE_TTL(', 'table.exec.state.ttl', 'table.exec.source.idle-timeout',
      'watermarks: manual', 'watermarks: auto', '{ idle: ', '{ active: ', '{ advance: ', 'to: "max"', 'op: "-U"', 'op: "+U"', 'op: "-D"',
      'k: null', 'PRIMARY KEY (l_id)', 'ON CONFLICT DO DEDUPLICATE', "'connector' = 'print'", 'ROW_NUMBER()', 'AND l.v ', 'at: ',
      // Kafka metadata (payload columns and the record timestamp as event time), session time zones, legacy lookup caches
      "INT METADATA FROM 'partition' VIRTUAL", "BIGINT METADATA FROM 'offset' VIRTUAL", "TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'",
      "STRING METADATA FROM 'topic' VIRTUAL", 'ts TIMESTAMP_LTZ(3) METADATA', 'table.local-time-zone', "'lookup.cache.max-rows'",
      "'lookup.cache.ttl'", "'lookup.cache.caching-missing-key' = 'false'"]) {
      expect(texts, s).toContain(s);
    }
    // regular and semi / anti joins over tables with event time too
    for (const f of ['regular', 'semi-anti']) expect(cases.some((c) => c.family === f && c.tables.every((t) => t.watermark !== undefined)), f).toBe(true);
    // TRY_RESOLVE also outside keyed lookups
    expect(cases.some((c) => c.family !== 'lookup' && c.config['table.optimizer.non-deterministic-update.strategy'] === 'TRY_RESOLVE')).toBe(true);
    // a metadata column is mostly left to the source, sometimes given by the row
    expect(texts).toMatch(/row: \{[^}]*\b(part|off|tp): /);
    expect(texts).toMatch(/METADATA FROM 'timestamp'[\s\S]*WATERMARK FOR ts/);
    // tombstones: an upsert-kafka delete that names the key only
    expect(texts).toMatch(/to: r, op: "-D", row: \{ k: "[abc]" \}/);
    for (const n of [1, 2, 3, 4]) expect(cases.some((c) => Object.values(c.partitions).includes(n)), `${n} partitions`).toBe(true);
    for (const v of FLINK_VERSIONS) expect(cases.some((c) => c.flinkVersion === v), v).toBe(true);
  });
});
