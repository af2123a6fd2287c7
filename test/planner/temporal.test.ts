/** Event-time temporal joins and lookup joins: classification, planner steps, and Flink's rejections. */
import { describe, expect, it } from 'vitest';
import { CUSTOMERS_JDBC, names, ORDERS, planErr, planOk, RATES_APPEND, RATES_CDC, RATES_UPSERT } from './helpers.js';

const temporal = (rates: string, join = 'JOIN', on = 'o.currency = r.currency', asOf = 'o.order_time', extra = '') =>
  `${ORDERS}\n${rates}\n${extra}\nSELECT o.order_id, r.usd_rate FROM orders AS o ${join} rates FOR SYSTEM_TIME AS OF ${asOf} AS r ON ${on};`;

const DEDUP_VIEW = `CREATE VIEW rates_v AS SELECT currency, usd_rate, update_time FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rn FROM rates) WHERE rn = 1;`;

describe('event-time temporal join', () => {
  it('drops -U of a CDC versioned side (DropUpdateBefore) and keys it by the primary key', () => {
    const plan = planOk(temporal(RATES_CDC));
    const r = plan.inputs[1];
    expect(plan.family).toBe('temporal');
    expect(r.dropUpdateBefore).toBe(true);
    expect(r.changelogNormalize).toBeUndefined();
    expect(r.changelogMode).toEqual(['+I', '+U', '-D']);
    expect(plan.notes.join('\n')).toContain('DropUpdateBefore');
  });

  it('infers the primary key of a ROW_NUMBER() deduplication view (keep last row)', () => {
    const plan = planOk(`${ORDERS}\n${RATES_APPEND}\n${DEDUP_VIEW}
      SELECT o.order_id, r.usd_rate FROM orders AS o JOIN rates_v FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;`);
    const r = plan.inputs[1];
    expect(plan.family).toBe('temporal');
    expect(r.deduplicate).toEqual({ key: [0], orderBy: 2, keepLast: true });
    expect(r.upsertKeys).toEqual([[0]]);
    expect(r.changelogMode).toEqual(['+I', '+U']);
    expect(r.timeAttr).toEqual({ index: 2, kind: 'rowtime' });
    expect(r.alias).toBe('r');
  });

  it('keeps a WHERE on the versioned side after the join, and pushes a left-side WHERE into the left input', () => {
    const plan = planOk(`${ORDERS}\n${RATES_UPSERT}\nSELECT o.order_id FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r
      ON o.currency = r.currency WHERE r.usd_rate > 1 AND o.amount > 10;`);
    expect(plan.inputs[1].filter).toBeUndefined();
    expect(plan.postFilter).toMatchObject({ fn: '>' });
    expect(plan.inputs[0].filter).toMatchObject({ fn: '>' });
  });

  it('keeps ON conditions beyond the key as the join condition', () => {
    const plan = planOk(temporal(RATES_UPSERT, 'LEFT JOIN', 'o.currency = r.currency AND r.usd_rate < 100 AND o.amount > 10'));
    expect(plan.residual).toBeDefined();
    expect(plan.inputs[0].filter).toBeUndefined();
  });

  it('rejects a versioned table without a primary key', () => {
    const e = planErr(temporal(RATES_APPEND));
    expect(e.message).toBe('Temporal Table Join requires primary key in versioned table, but no primary key can be found.');
    expect(e.at).toBe('rates');
  });

  it('reports a primary key missing from the equality condition as no primary key (lost at the shuffle), as Flink does', () => {
    const e = planErr(temporal(RATES_UPSERT, 'JOIN', 'o.amount = r.usd_rate'));
    expect(e.message).toBe('Temporal Table Join requires primary key in versioned table, but no primary key can be found.');
    expect(e.at).toBe('o.amount = r.usd_rate');
    expect(e.hint).toContain('PRIMARY KEY (currency)');
    expect(e.hint).toContain('r.currency');
  });

  it('rejects a versioned table without a rowtime attribute', () => {
    const e = planErr(temporal(`CREATE TABLE rates (currency STRING, usd_rate DECIMAL(10, 4), update_time TIMESTAMP(3),
      PRIMARY KEY (currency) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'r', 'key.format' = 'json', 'value.format' = 'json');`));
    expect(e.message).toBe('Event-Time Temporal Table Join requires both primary key and row time attribute in versioned table, but no row time attribute can be found.');
  });

  it('rejects rowtime types that differ', () => {
    const e = planErr(temporal(`CREATE TABLE rates (currency STRING, usd_rate DECIMAL(10, 4), update_time TIMESTAMP_LTZ(3),
      WATERMARK FOR update_time AS update_time, PRIMARY KEY (currency) NOT ENFORCED)
      WITH ('connector' = 'upsert-kafka', 'topic' = 'r', 'key.format' = 'json', 'value.format' = 'json');`));
    expect(e.message).toBe('Event-Time Temporal Table Join requires same rowtime type in left table and versioned table, but the rowtime types are TIMESTAMP(3) *ROWTIME* and TIMESTAMP_LTZ(3) *ROWTIME*.');
    expect(e.at).toBe('o.order_time');
  });

  it('rejects AS OF on a column that is not a time attribute, on an expression, and on a literal', () => {
    const col = planErr(temporal(RATES_UPSERT, 'JOIN', 'o.currency = r.currency', 'o.amount'));
    expect(col.message).toBe("The system time period specification expects Timestamp type but is 'DECIMAL'");
    const noAttr = planErr(`CREATE TABLE orders (order_id STRING, currency STRING, ts TIMESTAMP(3)) WITH ('connector' = 'kafka', 'topic' = 'o', 'format' = 'json');
      ${RATES_UPSERT} SELECT o.order_id FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.currency = r.currency;`);
    expect(noAttr.message).toBe("Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field");
    expect(noAttr.at).toBe('o.ts');
    const expr = planErr(temporal(RATES_UPSERT, 'JOIN', 'o.currency = r.currency', "o.order_time + INTERVAL '1' SECOND"));
    expect(expr.message).toBe("Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field");
    const str = planErr(temporal(RATES_UPSERT, 'JOIN', 'o.currency = r.currency', "'2020-01-01'"));
    expect(str.message).toBe("The system time period specification expects Timestamp type but is 'CHAR'");
    const ts = planErr(temporal(RATES_UPSERT, 'JOIN', 'o.currency = r.currency', "TIMESTAMP '2020-11-11 13:12:13'"));
    expect(ts.message).toBe("Querying a temporal table using 'FOR SYSTEM TIME AS OF' syntax with a constant timestamp '2020-11-11 13:12:13' is not supported yet.");
  });

  it('rejects RIGHT and FULL temporal joins', () => {
    const e = planErr(temporal(RATES_UPSERT, 'RIGHT JOIN'));
    expect(e.message).toBe('Temporal table join currently only support INNER JOIN and LEFT JOIN, but was RIGHT JOIN.');
    expect(e.at).toBe('RIGHT JOIN');
    expect(planErr(temporal(RATES_UPSERT, 'FULL JOIN')).message).toContain('but was FULL JOIN.');
  });

  const RATES_FILES = RATES_CDC.replace("'connector' = 'kafka', 'topic' = 'rates'", "'connector' = 'filesystem', 'path' = '/data/rates'");
  const BIG_RATES = (rates: string, where = 'usd_rate > 1') => `${ORDERS}\n${rates}\nCREATE VIEW big_rates AS SELECT * FROM rates WHERE ${where};
      SELECT o.order_id FROM orders AS o JOIN big_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;`;

  it('plans a filter on a Kafka changelog versioned side (the watermark is pushed into the scan)', () => {
    // upsert, filter on a value column: a ChangelogNormalize evaluates it, no -U reaches the join
    const up = planOk(BIG_RATES(RATES_UPSERT));
    expect(up.inputs[1].changelogNormalize?.key).toEqual([0]);
    expect(up.inputs[1].changelogMode).toEqual(['+I', '+U', '-D']);
    expect(up.inputs[1].dropUpdateBefore).toBe(false);
    // 2.0: the filter is a Calc after the normalize and asks for -U, which reach the join
    const up20 = planOk(BIG_RATES(RATES_UPSERT), { flinkVersion: '2.0' });
    expect(up20.inputs[1].changelogMode).toEqual(['+I', '-U', '+U', '-D']);
    expect(up20.inputs[1].dropUpdateBefore).toBe(false);
    // unfiltered upsert: no ChangelogNormalize from 2.1, one (without -U) on 2.0
    const plain = `${ORDERS}\n${RATES_UPSERT}\nSELECT o.order_id FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;`;
    expect(planOk(plain).inputs[1].changelogNormalize).toBeUndefined();
    expect(planOk(plain, { flinkVersion: '2.0' }).inputs[1].changelogNormalize?.key).toEqual([0]);
    expect(planOk(plain, { flinkVersion: '2.0' }).inputs[1].changelogMode).toEqual(['+I', '+U', '-D']);
    // upsert, filter on the key only (2.1+): planned as the raw upsert stream, filtered
    const key = planOk(BIG_RATES(RATES_UPSERT, "currency <> 'EUR'"));
    expect(key.inputs[1].changelogNormalize).toBeUndefined();
    // CDC, filter on a value column: no DropUpdateBefore, the -U rows reach the join
    const cdc = planOk(BIG_RATES(RATES_CDC));
    expect(cdc.inputs[1].changelogMode).toContain('-U');
    expect(cdc.inputs[1].dropUpdateBefore).toBe(false);
    const cdcKey = planOk(BIG_RATES(RATES_CDC, "currency <> 'EUR'"));
    expect(cdcKey.inputs[1].dropUpdateBefore).toBe(true);
  });

  it('rejects a filter on a changelog versioned side whose source keeps its watermark assigner', () => {
    const e = planErr(`${ORDERS}\n${RATES_FILES}\nCREATE VIEW big_rates AS SELECT * FROM rates WHERE usd_rate > 1;
      SELECT o.order_id FROM orders AS o JOIN big_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;`);
    expect(e.message).toBe('Filter is not allowed for right changelog input of event time temporal join, it will corrupt the versioning of data.');
    expect(e.at).toBe('big_rates');
  });

  it('accepts a filter below a deduplication over an append-only table', () => {
    const plan = planOk(`${ORDERS}\n${RATES_APPEND}\nCREATE VIEW rates_v AS SELECT currency, usd_rate, update_time FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rn FROM rates WHERE usd_rate > 0) WHERE rn = 1;
      SELECT o.order_id FROM orders AS o JOIN rates_v FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;`);
    expect(plan.inputs[1].filter).toMatchObject({ fn: '>' });
    expect(plan.inputs[1].deduplicate?.keepLast).toBe(true);
  });

  it('selects late-row rules by flink-version', () => {
    expect(planOk(temporal(RATES_UPSERT), { flinkVersion: '2.4' }).notes.join('\n')).toContain('dropped as late');
    expect(planOk(temporal(RATES_UPSERT), { flinkVersion: '2.3' }).notes.join('\n')).toContain('kept and joined at the next watermark');
  });

  describe('upsert keys through the shuffle on the join key', () => {
    const ORDERS_CDC = (pk: string) => `CREATE TABLE orders (
      order_id STRING, currency STRING, amount DECIMAL(10, 2), order_time TIMESTAMP(3),
      WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND,
      PRIMARY KEY (${pk}) NOT ENFORCED
    ) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'debezium-json');`;
    const SINK = `CREATE TABLE sink (order_id STRING, currency STRING, usd_rate DECIMAL(10, 4), PRIMARY KEY (order_id) NOT ENFORCED)
      WITH ('connector' = 'upsert-kafka', 'topic' = 's', 'key.format' = 'json', 'value.format' = 'json');`;
    const insert = (pk: string) => `${ORDERS_CDC(pk)}\n${RATES_UPSERT}\n${SINK}
      INSERT INTO sink SELECT o.order_id, o.currency, r.usd_rate
      FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;`;

    it('loses a left upsert key without the join key, so an upsert sink materializes', () => {
      // Real Flink 2.3.0 explains temporal-itcase-event-time-join.yaml (this shape) with
      // Exchange(hash[currency]) under the TemporalJoin and Sink(upsertMaterialize=[true]).
      const plan = planOk(insert('order_id'), { flinkVersion: '2.2' });
      expect(plan.output.upsertKeys).toEqual([]);
      expect(plan.sink?.upsertMaterialize).toBe(true);
      expect(plan.notes.join('\n')).toContain("o's upsert key (order_id) does not survive the shuffle on the join key (currency)");
    });

    it('keeps a left upsert key that contains the join key', () => {
      const plan = planOk(insert('order_id, currency'), { flinkVersion: '2.2' });
      expect(plan.output.upsertKeys).toEqual([[0, 1]]);
      expect(plan.notes.join('\n')).not.toContain('does not survive the shuffle');
    });
  });
});

describe('processing-time AS OF', () => {
  const lookup = (dim: string, join = 'LEFT JOIN', on = 'o.customer_id = c.customer_id') =>
    `${ORDERS}\n${dim}\nSELECT o.order_id, c.tier FROM orders AS o ${join} customers FOR SYSTEM_TIME AS OF o.proc AS c ON ${on};`;

  it('plans a lookup join against a jdbc table', () => {
    const plan = planOk(lookup(CUSTOMERS_JDBC));
    expect(plan.family).toBe('lookup');
    expect(plan.joinType).toBe('left');
    expect(plan.lookup?.keys).toEqual([{ rightColumn: 0, left: expect.objectContaining({ k: 'col', index: 1 }) }]);
    expect(names(plan, 0, plan.keys.left)).toEqual(['customer_id']);
    expect(plan.inputs[1].changelogMode).toEqual([]);
    expect(plan.lookup?.cache).toBeUndefined();
    expect(plan.output.types[1]?.nullable).toBe(true);
  });

  it('reads the partial lookup cache options', () => {
    const dim = CUSTOMERS_JDBC.replace("'table-name' = 'customers'", "'table-name' = 'customers', 'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.expire-after-write' = '5 min', 'lookup.partial-cache.max-rows' = '100', 'lookup.partial-cache.cache-missing-key' = 'false'");
    expect(planOk(lookup(dim)).lookup?.cache).toEqual({ maxRows: 100, expireAfterWriteMs: 300_000, cacheMissingKey: false, source: 'partial' });
  });

  it('reads the legacy jdbc cache options', () => {
    const dim = CUSTOMERS_JDBC.replace("'table-name' = 'customers'", "'table-name' = 'customers', 'lookup.cache.max-rows' = '10', 'lookup.cache.ttl' = '1 min'");
    expect(planOk(lookup(dim)).lookup?.cache).toEqual({ maxRows: 10, expireAfterWriteMs: 60_000, cacheMissingKey: true, source: 'legacy' });
  });

  it('rejects a PARTIAL cache without an eviction option (DefaultLookupCache.fromConfig)', () => {
    const dim = CUSTOMERS_JDBC.replace("'table-name' = 'customers'", "'table-name' = 'customers', 'lookup.cache' = 'PARTIAL'");
    const e = planErr(lookup(dim));
    expect(e.message).toContain("Missing 'lookup.partial-cache.expire-after-access', 'lookup.partial-cache.expire-after-write' or 'lookup.partial-cache.max-rows' in the configuration.");
    expect(e.at).toBe("'lookup.cache'");
  });

  it('rejects processing-time AS OF on a table that is not a lookup source', () => {
    const e = planErr(`${ORDERS}\n${RATES_UPSERT}\nSELECT o.order_id FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.proc AS r ON o.currency = r.currency;`);
    expect(e.message).toBe('Processing-time temporal join is not supported yet.');
    expect(e.at).toBe('o.proc');
    expect(e.hint).toContain('jdbc');
  });

  it('rejects a lookup join without an equality on the lookup table', () => {
    const e = planErr(lookup(CUSTOMERS_JDBC, 'JOIN', 'o.customer_id <> c.customer_id'));
    expect(e.message).toBe('Temporal table join requires an equality condition on fields of table [default_catalog.default_database.customers].');
  });

  it('rejects RIGHT and FULL lookup joins with the message real Flink 2.3 gives', () => {
    // an event-time temporal join says "only support INNER JOIN and LEFT JOIN"; a lookup join fails later, in the physical lookup join
    expect(planErr(lookup(CUSTOMERS_JDBC, 'RIGHT JOIN')).message).toBe('Unknown join type RIGHT');
    expect(planErr(lookup(CUSTOMERS_JDBC, 'FULL JOIN')).message).toBe('Unknown join type FULL');
  });
});
