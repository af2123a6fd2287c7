/** The spec's conformance examples and the notes' join shapes plan to the right operator. */
import { describe, expect, it } from 'vitest';
import { flinkTypeName } from '../../src/planner/type-names.js';
import { names, planErr, planOk } from './helpers.js';

describe('spec examples', () => {
  it('eur-order-0930: LEFT event-time temporal join on currency, upsert versioned side without ChangelogNormalize', () => {
    const plan = planOk(`
      CREATE TABLE orders (
        order_id STRING, currency STRING, amount DECIMAL(10, 2), order_time TIMESTAMP(3),
        WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
      ) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
      CREATE TABLE rates (
        currency STRING, usd_rate DECIMAL(10, 4), update_time TIMESTAMP(3),
        WATERMARK FOR update_time AS update_time,
        PRIMARY KEY (currency) NOT ENFORCED
      ) WITH ('connector' = 'upsert-kafka', 'topic' = 'rates', 'key.format' = 'json', 'value.format' = 'json');
      SELECT o.order_id, o.order_time, o.amount * r.usd_rate AS amount_usd
      FROM orders AS o
      LEFT JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r
      ON o.currency = r.currency;`);
    expect(plan.family).toBe('temporal');
    expect(plan.joinType).toBe('left');
    expect(names(plan, 0, plan.keys.left)).toEqual(['currency']);
    expect(names(plan, 1, plan.keys.right)).toEqual(['currency']);
    const [o, r] = plan.inputs;
    expect(o.changelogMode).toEqual(['+I']);
    expect(o.timeAttr).toEqual({ index: 3, kind: 'rowtime' });
    // eventTimeSnapshotRequired: no ChangelogNormalize on the versioned side; it is read as ONLY_UPDATE_AFTER
    expect(r.changelogNormalize).toBeUndefined();
    expect(r.dropUpdateBefore).toBe(false);
    expect(r.changelogMode).toEqual(['+I', '+U', '-D']);
    expect(r.timeAttr).toEqual({ index: 2, kind: 'rowtime' });
    expect(plan.output.names).toEqual(['order_id', 'order_time', 'amount_usd']);
    expect(plan.output.types.map((x) => flinkTypeName(x))).toEqual(['STRING', 'TIMESTAMP(3)', 'DECIMAL(21, 6)']);
    expect(plan.output.changelogMode).toEqual(['+I']);
    const wm = plan.tables.find((t) => t.name === 'orders')?.watermark;
    expect(wm?.text).toBe("order_time - INTERVAL '5' SECOND");
  });

  it('manual-watermarks-epoch: inner temporal join on TIMESTAMP_LTZ rowtimes computed from epoch ms', () => {
    const plan = planOk(`
      CREATE TABLE l (ts BIGINT, k STRING, p STRING, rt AS TO_TIMESTAMP_LTZ(ts, 3), WATERMARK FOR rt AS rt)
        WITH ('connector' = 'kafka', 'topic' = 'l', 'format' = 'json');
      CREATE TABLE r (ts BIGINT, k STRING, p STRING, rt AS TO_TIMESTAMP_LTZ(ts, 3), WATERMARK FOR rt AS rt,
        PRIMARY KEY (k) NOT ENFORCED)
        WITH ('connector' = 'upsert-kafka', 'topic' = 'r', 'key.format' = 'json', 'value.format' = 'json');
      SELECT l.ts, l.k, l.p, r.ts AS r_ts, r.p AS r_p
      FROM l JOIN r FOR SYSTEM_TIME AS OF l.rt AS r ON l.k = r.k;`);
    expect(plan.family).toBe('temporal');
    expect(plan.joinType).toBe('inner');
    expect(plan.inputs[0].columns[3]).toMatchObject({ name: 'rt', timeAttr: 'rowtime' });
    expect(flinkTypeName(plan.inputs[0].columns[3]!.type)).toBe('TIMESTAMP_LTZ(3)');
    const rt = plan.tables.find((t) => t.name === 'r')!.columns[3]!;
    expect(rt.kind).toBe('computed');
    expect(rt.expr).toMatchObject({ k: 'call', fn: 'TO_TIMESTAMP_LTZ' });
    expect(plan.output.names).toEqual(['ts', 'k', 'p', 'r_ts', 'r_p']);
  });

  it('print-format: regular inner join of two append-only tables, no unique keys', () => {
    const plan = planOk(`
      CREATE TABLE a (id STRING, n INT, big BIGINT, amt DECIMAL(10, 2), ok BOOLEAN, ratio DOUBLE, ts TIMESTAMP(3), lts TIMESTAMP_LTZ(3))
        WITH ('connector' = 'kafka', 'topic' = 'a', 'format' = 'json');
      CREATE TABLE b (id STRING, label STRING) WITH ('connector' = 'kafka', 'topic' = 'b', 'format' = 'json');
      SELECT a.id, a.n, a.big, a.amt, a.ok, a.ratio, a.ts, a.lts, b.label FROM a JOIN b ON a.id = b.id;`);
    expect(plan.family).toBe('regular');
    expect(plan.joinType).toBe('inner');
    expect(names(plan, 0, plan.keys.left)).toEqual(['id']);
    expect(plan.inputs.map((i) => i.stateLayout)).toEqual([{ kind: 'InputSideHasNoUniqueKey' }, { kind: 'InputSideHasNoUniqueKey' }]);
    expect(plan.output.types.map((x) => flinkTypeName(x))).toEqual([
      'STRING', 'INT', 'BIGINT', 'DECIMAL(10, 2)', 'BOOLEAN', 'DOUBLE', 'TIMESTAMP(3)', 'TIMESTAMP_LTZ(3)', 'STRING',
    ]);
  });

  it('error-no-primary-key: the versioned table lacks a primary key', () => {
    const e = planErr(`
      CREATE TABLE orders (order_id STRING, currency STRING, order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time)
        WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
      CREATE TABLE rates (currency STRING, usd_rate DECIMAL(10, 4), update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time)
        WITH ('connector' = 'kafka', 'topic' = 'rates', 'format' = 'json');
      SELECT o.order_id, r.usd_rate FROM orders AS o
      JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;`);
    expect(e.message).toContain('Temporal Table Join requires primary key in versioned table');
    expect(e.at).toBe('rates');
    expect(e.hint).toContain('PRIMARY KEY');
  });
});
