/**
 * Kafka metadata the events leave out is filled as the source fills it (src/engine/source-metadata.ts):
 * the offset counts per partition in the snapshot, so seeking, stepping and editing the timeline
 * give the offsets a straight run gives. (What Flink prints for such a scenario is checked by
 * test/flink-cases/fuzz-case-kafka-metadata-filled-by-source.yaml.)
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/engine/run.js';
import { createTimeline } from '../../src/engine/timeline.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';

const TEXT = `name: metadata
date: 2026-10-01
partitions: { l: 2 }
sql: |
  CREATE TABLE l (k STRING, v INT, part INT METADATA FROM 'partition' VIRTUAL, off BIGINT METADATA FROM 'offset' VIRTUAL,
    kts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', tp STRING METADATA FROM 'topic' VIRTUAL)
    WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
  CREATE TABLE r (k STRING, w STRING) WITH ('connector' = 'kafka', 'topic' = 'r', 'format' = 'json');
  SELECT l.v, l.part, l.off, l.kts, l.tp, r.w FROM l JOIN r ON l.k = r.k;
events:
  - { to: r, row: { k: a, w: x } }
  - { to: l, row: { k: a, v: 1 }, partition: 1 }
  - { to: l, row: { k: a, v: 2 }, partition: 0 }
  - { advance: 2 s }
  - { to: l, row: { k: a, v: 3 }, partition: 1 }
  - { to: l, row: { k: a, v: 4, part: 9, off: 40, kts: "09:00", tp: given }, partition: 1 }
  - { to: l, row: { k: a, v: 5 }, partition: 1 }
`;

function load(text: string): Scenario {
  const loaded = loadScenarioText('metadata.yaml', text);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
  return loaded.scenario;
}

const rowsOf = (tl: ReturnType<typeof createTimeline>, i: number) => tl.changelogRange(i, 0, tl.changelogSize(i)).map((e) => `${e.kind}${JSON.stringify(e.row)}`);

describe('Kafka metadata filled by the source', () => {
  it('fills partition, per-partition offset, processing time and topic; keeps what the event gives', () => {
    expect(runScenario(load(TEXT)).lines).toEqual([
      '+I[1, 1, 0, 2026-10-01T00:00:00Z, orders, x]',
      '+I[2, 0, 0, 2026-10-01T00:00:00Z, orders, x]',
      '+I[3, 1, 1, 2026-10-01T00:00:02Z, orders, x]',
      '+I[4, 9, 40, 2026-10-01T09:00:00Z, given, x]',
      // the given offset does not move the partition's count: the next record is the fourth
      '+I[5, 1, 3, 2026-10-01T00:00:02Z, orders, x]',
    ]);
  });

  it('seeking back and forth, and inserting a row before others, count offsets as a straight run does', () => {
    const sc = load(TEXT);
    const tl = createTimeline(sc);
    const last = tl.length;
    const straight = rowsOf(tl, last);
    for (const i of [3, last, 1, 5, 2, last]) expect(rowsOf(tl, i)).toEqual(straight.slice(0, rowsOf(tl, i).length));
    const edited = tl.insert(1, { kind: 'row', table: 'l', partition: 1, op: '+I', row: ['a', 0, null, null, null, null] } as never);
    const again = createTimeline({ ...sc, events: edited.events });
    expect(rowsOf(edited, edited.length)).toEqual(rowsOf(again, again.length));
    // the inserted row took offset 0 of partition 1, so the later rows there moved up by one
    expect(rowsOf(edited, edited.length).map((r) => JSON.parse(r.slice(2)) as unknown[]).map((r) => [r[0], r[2]])).toEqual([[0, 0], [1, 1], [2, 0], [3, 2], [4, 40], [5, 4]]);
  });
});
