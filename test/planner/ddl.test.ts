/** CREATE TABLE → TableDef: columns, time attributes, keys and the connector's nature. */
import { describe, expect, it } from 'vitest';
import type { TableDef } from '../../src/planner/plan.js';
import { flinkTypeName } from '../../src/planner/type-names.js';
import { planText } from './helpers.js';

function tables(ddl: string): TableDef[] {
  const r = planText(ddl);
  // no query: planning fails after the DDL, which still returns the tables
  expect(r.ok).toBe(false);
  if (r.ok) return [];
  expect(r.error.message).toContain('has none');
  return r.tables ?? [];
}

describe('CREATE TABLE', () => {
  it('resolves physical, computed and metadata columns with their time attributes', () => {
    const [t] = tables(`CREATE TABLE t (
      id BIGINT, price DECIMAL, ts TIMESTAMP, ms BIGINT,
      kafka_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
      part INT METADATA,
      rt AS TO_TIMESTAMP_LTZ(ms, 3),
      pt AS PROCTIME(),
      WATERMARK FOR rt AS rt - INTERVAL '2' SECOND,
      PRIMARY KEY (id) NOT ENFORCED
    ) WITH ('connector' = 'upsert-kafka', 'topic' = 't', 'key.format' = 'json', 'value.format' = 'json');`);
    expect(t?.columns.map((c) => `${c.name} ${c.kind} ${flinkTypeName(c.type, c.timeAttr)}`)).toEqual([
      'id physical BIGINT NOT NULL',
      'price physical DECIMAL(10, 0)',
      'ts physical TIMESTAMP(6)',
      'ms physical BIGINT',
      'kafka_ts metadata TIMESTAMP_LTZ(3)',
      'part metadata INT',
      'rt computed TIMESTAMP_LTZ(3) *ROWTIME*',
      'pt computed TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*',
    ]);
    expect(t?.columns[4]).toMatchObject({ metadataKey: 'timestamp', virtual: true });
    expect(t?.columns[5]).toMatchObject({ metadataKey: 'part', virtual: false });
    expect(t?.columns[6]?.expr).toMatchObject({ k: 'call', fn: 'TO_TIMESTAMP_LTZ', args: [expect.objectContaining({ k: 'col', index: 3 }), expect.anything()] });
    expect(t?.watermark).toMatchObject({ column: 6, text: "rt - INTERVAL '2' SECOND" });
    expect(t?.primaryKey).toEqual([0]);
    expect(t?.nature).toBe('upsert');
    expect(t?.options).toContainEqual({ key: 'topic', value: 't' });
  });

  it('derives each connector nature', () => {
    const defs = tables(`
      CREATE TABLE a (k STRING) WITH ('connector' = 'kafka', 'format' = 'json');
      CREATE TABLE b (k STRING) WITH ('connector' = 'filesystem', 'path' = '/x', 'format' = 'csv');
      CREATE TABLE c (k STRING) WITH ('connector' = 'datagen');
      CREATE TABLE d (k STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'kafka', 'format' = 'debezium-json');
      CREATE TABLE e (k STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'kafka', 'value.format' = 'maxwell-json');
      CREATE TABLE f (k STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'kafka', 'format' = 'canal-json');
      CREATE TABLE g (k STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = 'jdbc:x', 'table-name' = 'g');
      CREATE TABLE h (k STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'hbase-2.2', 'table-name' = 'h');`);
    expect(defs.map((d) => `${d.name}:${d.nature}`)).toEqual([
      'a:append', 'b:append', 'c:append', 'd:changelog', 'e:changelog', 'f:changelog', 'g:lookup', 'h:lookup',
    ]);
  });

  it("rejects a watermark on a processing-time attribute and a table without 'connector'", () => {
    const wm = planText(`CREATE TABLE t (pt AS PROCTIME(), WATERMARK FOR pt AS pt) WITH ('connector' = 'kafka');`);
    expect(!wm.ok && wm.error.message).toBe('A watermark can not be defined for a processing-time attribute.');
    const nc = planText(`CREATE TABLE t (k STRING) WITH ('topic' = 'x');`);
    expect(!nc.ok && nc.error.message).toBe("Table options do not contain an option key 'connector' for discovering a connector.");
  });
});
