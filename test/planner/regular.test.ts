/** Regular, semi and anti joins: keys, filter placement, state layouts, TTL, sinks. */
import { describe, expect, it } from 'vitest';
import { flinkTypeName } from '../../src/planner/type-names.js';
import { names, ORDERS, planErr, planOk, RATES_CDC, RATES_UPSERT, SHIPMENTS } from './helpers.js';

const CUSTOMERS_UPSERT = `CREATE TABLE customers (customer_id STRING, name STRING, PRIMARY KEY (customer_id) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'topic' = 'c', 'key.format' = 'json', 'value.format' = 'json');`;
const ORDERS_UPSERT = `CREATE TABLE orders (order_id STRING, customer_id STRING, amount DECIMAL(10, 2), PRIMARY KEY (order_id) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'topic' = 'o', 'key.format' = 'json', 'value.format' = 'json');`;

describe('regular join', () => {
  it('derives keys including IS NOT DISTINCT FROM as null-safe', () => {
    const plan = planOk(`${ORDERS}\n${SHIPMENTS}\nSELECT * FROM orders o FULL JOIN shipments s ON o.order_id = s.order_id AND o.currency IS NOT DISTINCT FROM s.ship_id;`);
    expect(plan.family).toBe('regular');
    expect(plan.joinType).toBe('full');
    expect(names(plan, 0, plan.keys.left)).toEqual(['order_id', 'currency']);
    expect(names(plan, 1, plan.keys.right)).toEqual(['order_id', 'ship_id']);
    expect(plan.keys.nullSafe).toEqual([false, true]);
    expect(plan.output.changelogMode).toEqual(['+I', '-U', '+U', '-D']);
    // SELECT * over a FULL join: both sides nullable, the right's duplicate name uniquified
    expect(plan.output.names).toContain('order_id0');
    expect(plan.output.types.every((x) => x.nullable)).toBe(true);
  });

  it('inserts ChangelogNormalize after an upsert source and derives the state layouts', () => {
    const plan = planOk(`${ORDERS_UPSERT}\n${CUSTOMERS_UPSERT}\nSELECT o.order_id, c.name FROM orders o JOIN customers c ON o.customer_id = c.customer_id;`);
    const [o, c] = plan.inputs;
    expect(o.changelogNormalize).toMatchObject({ key: [0] });
    expect(o.changelogMode).toEqual(['+I', '-U', '+U', '-D']);
    expect(o.stateLayout).toEqual({ kind: 'InputSideHasUniqueKey', uniqueKey: [0] });
    expect(c.stateLayout).toEqual({ kind: 'JoinKeyContainsUniqueKey', uniqueKey: [0] });
    expect(plan.output.changelogMode).toEqual(['+I', '-U', '+U', '-D']);
    // order_id does not contain the join key customer_id: lost in the shuffle (real Flink: no upsert key)
    expect(plan.output.upsertKeys).toEqual([]);
    expect(plan.notes.join('\n')).toContain('ChangelogNormalize on orders');
  });

  it('normalizes a CDC source only with table.exec.source.cdc-events-duplicate', () => {
    const sql = `${ORDERS}\n${RATES_CDC}\nSELECT o.order_id FROM orders o JOIN rates r ON o.currency = r.currency;`;
    expect(planOk(sql).inputs[1].changelogNormalize).toBeUndefined();
    expect(planOk(sql, { config: { cdcEventsDuplicate: true } }).inputs[1].changelogNormalize).toMatchObject({ key: [0] });
  });

  it('pushes single-side WHERE conditions into the inputs and keeps cross-side ones in the join', () => {
    const plan = planOk(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o JOIN shipments s ON o.order_id = s.order_id
      WHERE o.amount > 10 AND s.ship_id <> 'x' AND o.currency <> s.ship_id;`);
    expect(plan.inputs[0].filter).toMatchObject({ fn: '>' });
    expect(plan.inputs[1].filter).toMatchObject({ fn: '<>' });
    expect(plan.residual).toMatchObject({ fn: '<>' });
    expect(plan.postFilter).toBeUndefined();
  });

  it("turns a LEFT join into INNER when WHERE rejects the padded side's nulls (Calcite)", () => {
    const plan = planOk(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o LEFT JOIN shipments s ON o.order_id = s.order_id WHERE s.ship_id = 'x';`);
    expect(plan.joinType).toBe('inner');
    expect(plan.inputs[1].filter).toBeDefined();
    const kept = planOk(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o LEFT JOIN shipments s ON o.order_id = s.order_id WHERE s.ship_id IS NULL;`);
    expect(kept.joinType).toBe('left');
    expect(kept.postFilter).toMatchObject({ fn: 'IS NULL' });
  });

  it('keeps an ON condition on the preserved side of a LEFT join in the join condition', () => {
    const plan = planOk(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o LEFT JOIN shipments s ON o.order_id = s.order_id AND o.amount > 10 AND s.ship_id <> 'x';`);
    expect(plan.inputs[0].filter).toBeUndefined();
    expect(plan.residual).toMatchObject({ fn: '>' });
    expect(plan.inputs[1].filter).toMatchObject({ fn: '<>' });
  });

  it('makes the padded side nullable in the output', () => {
    const plan = planOk(`${ORDERS_UPSERT}\n${CUSTOMERS_UPSERT}\nSELECT c.customer_id, o.order_id FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id;`);
    expect(plan.output.types.map((x) => flinkTypeName(x))).toEqual(['STRING', 'STRING NOT NULL']);
  });

  it('applies STATE_TTL per input by alias or table name, else table.exec.state.ttl', () => {
    const sql = (hint: string) => `${ORDERS}\n${SHIPMENTS}\nSELECT /*+ STATE_TTL(${hint}) */ o.order_id FROM orders o JOIN shipments s ON o.order_id = s.order_id;`;
    const plan = planOk(sql("'o' = '1d', 'shipments' = '12h'"), { config: { stateTtlMs: 1000 } });
    expect(plan.inputs.map((i) => [i.stateTtlMs, i.stateTtlSource])).toEqual([[86_400_000, 'hint'], [43_200_000, 'hint']]);
    const one = planOk(sql("'s' = '30 min'"), { config: { stateTtlMs: 1000 } });
    expect(one.inputs.map((i) => [i.stateTtlMs, i.stateTtlSource])).toEqual([[1000, 'config'], [1_800_000, 'hint']]);
    const e = planErr(sql("'x' = '1d', 'o' = '1h'"));
    expect(e.message).toBe('The options of following hints cannot match the name of input tables or views: \n`x` in `STATE_TTL`');
    expect(e.at).toContain("'x'");
  });
});

describe('semi and anti joins', () => {
  const VIPS = `CREATE TABLE vips (customer_id STRING, since TIMESTAMP(3)) WITH ('connector' = 'kafka', 'topic' = 'v', 'format' = 'json');`;
  it('plans IN (SELECT ...) as a semi join keyed by the compared columns', () => {
    const plan = planOk(`${ORDERS}\n${VIPS}\nSELECT o.order_id FROM orders o WHERE o.amount > 5 AND o.customer_id IN (SELECT v.customer_id FROM vips v WHERE v.since IS NOT NULL);`);
    expect(plan.family).toBe('semi');
    expect(names(plan, 0, plan.keys.left)).toEqual(['customer_id']);
    expect(names(plan, 1, plan.keys.right)).toEqual(['customer_id']);
    expect(plan.inputs[0].filter).toMatchObject({ fn: '>' });
    expect(plan.inputs[1].filter).toMatchObject({ fn: 'IS NOT NULL' });
    expect(plan.output.names).toEqual(['order_id']);
    expect(plan.output.changelogMode).toEqual(['+I']);
  });

  it('plans correlated NOT EXISTS as a keyed anti join', () => {
    const plan = planOk(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.order_id);`);
    expect(plan.family).toBe('anti');
    expect(names(plan, 0, plan.keys.left)).toEqual(['order_id']);
    expect(plan.output.changelogMode).toEqual(['+I', '-U', '+U', '-D']);
  });

  it('plans NOT IN over nullable columns as a null-aware anti join without keys', () => {
    const plan = planOk(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o WHERE o.order_id NOT IN (SELECT s.order_id FROM shipments s);`);
    expect(plan.family).toBe('anti');
    expect(plan.keys.left).toEqual([]);
    expect(plan.residual).toMatchObject({ fn: 'OR' });
    expect(plan.notes.join('\n')).toContain('null-aware');
  });
});

describe('sinks', () => {
  const SINK = (pk: string) => `CREATE TABLE sink (order_id STRING, name STRING${pk ? `, PRIMARY KEY (${pk}) NOT ENFORCED` : ''})
    WITH ('connector' = '${pk ? 'upsert-kafka' : 'kafka'}', 'topic' = 's', ${pk ? "'key.format' = 'json', 'value.format'" : "'format'"} = 'json');`;
  const insert = (pk: string, join = 'JOIN', on = 'o.customer_id') => `${ORDERS_UPSERT}\n${CUSTOMERS_UPSERT}\n${SINK(pk)}
    INSERT INTO sink SELECT o.order_id, c.name FROM orders o ${join} customers c ON ${on} = c.customer_id;`;
  // Joined on o.order_id, orders' upsert key contains the join key and survives the shuffle.
  const keyed = (pk: string) => insert(pk, 'JOIN', 'o.order_id');

  it('adds no SinkUpsertMaterializer when the upsert key is the sink key', () => {
    const plan = planOk(keyed('order_id'));
    expect(plan.sink).toMatchObject({ table: 'sink', primaryKey: [0], upsertMaterialize: false });
  });

  it('an upsert key that does not contain the join key is lost in the shuffle: the sink materializes', () => {
    // Real Flink 2.2.1 explains regular-upsert-sink.yaml (this shape) with upsertMaterialize=[true]:
    // the Exchange on customer_id keeps only upsert keys that contain customer_id.
    const plan = planOk(insert('order_id'), { flinkVersion: '2.2' });
    expect(plan.output.upsertKeys).toEqual([]);
    expect(plan.sink?.upsertMaterialize).toBe(true);
    expect(plan.notes.join('\n')).toContain('does not survive the shuffle on the join key (customer_id)');
  });

  it('adds a SinkUpsertMaterializer when the sink key differs (AUTO), or always with FORCE, never with NONE', () => {
    // up to 2.2 no ON CONFLICT is needed (2.3 requires one, below)
    expect(planOk(keyed('name'), { flinkVersion: '2.2' }).sink?.upsertMaterialize).toBe(true);
    expect(planOk(keyed('order_id'), { config: { sinkUpsertMaterialize: 'FORCE' } }).sink?.upsertMaterialize).toBe(true);
    expect(planOk(keyed('name'), { config: { sinkUpsertMaterialize: 'NONE' } }).sink?.upsertMaterialize).toBe(false);
  });

  it('from 2.3 rejects a sink key that differs from the upsert key unless ON CONFLICT says how to resolve it', () => {
    // FlinkChangelogModeInferenceProgram.analyzeUpsertMaterializeStrategy (table.exec.sink.require-on-conflict)
    const e = planErr(keyed('name'));
    expect(e.message).toContain("The query has an upsert key that differs from the primary key of the sink table 'default_catalog.default_database.sink'. Primary key: [name], upsert key: [order_id].");
    expect(e.message).toContain('Please specify an ON CONFLICT clause');
    expect(e.at).toBe('sink');
    expect(planErr(keyed('name'), { flinkVersion: '2.4' }).message).toContain('Please specify an ON CONFLICT clause');
    const dedup = keyed('name').replace(/;$/, ' ON CONFLICT DO DEDUPLICATE;');
    expect(planOk(dedup).sink).toMatchObject({ upsertMaterialize: true, onConflict: 'DEDUPLICATE' });
    expect(planOk(keyed('name'), { config: { sinkRequireOnConflict: false } }).sink?.upsertMaterialize).toBe(true);
    // the sink key covering the upsert key needs no clause
    expect(planOk(keyed('order_id')).sink?.upsertMaterialize).toBe(false);
    // no upsert key at all (lost in the shuffle): real Flink 2.3.0 prints an empty one
    expect(planErr(insert('order_id')).message).toContain('Primary key: [order_id], upsert key: . This can lead');
  });

  it('from 2.3 rejects an insert-only query into upsert-kafka without ON CONFLICT, and DEDUPLICATE needs no materializer', () => {
    const appendJoin = (tail: string) => `${ORDERS}
${SHIPMENTS}
${SINK('order_id')}
      INSERT INTO sink SELECT o.order_id, o.currency FROM orders o JOIN shipments s ON o.order_id = s.order_id${tail};`;
    expect(planOk(appendJoin(''), { flinkVersion: '2.2' }).sink?.upsertMaterialize).toBe(false);
    expect(planErr(appendJoin('')).message).toContain('Primary key: [order_id], upsert key: . ');
    expect(planOk(appendJoin(' ON CONFLICT DO DEDUPLICATE')).sink?.upsertMaterialize).toBe(false);
    // without the requirement, 2.3 materializes an insert-only input too (no early return for it any more)
    expect(planOk(appendJoin(''), { config: { sinkRequireOnConflict: false } }).sink?.upsertMaterialize).toBe(true);
    // jdbc's sink mode is the upsert mode whatever the input (JdbcDynamicTableSink.getChangelogMode); blackhole follows the input
    const toJdbc = appendJoin('').replace("WITH ('connector' = 'upsert-kafka', 'topic' = 's', 'key.format' = 'json', 'value.format' = 'json')", "WITH ('connector' = 'jdbc', 'url' = 'jdbc:x', 'table-name' = 's')");
    expect(toJdbc).toContain("'connector' = 'jdbc'");
    expect(planErr(toJdbc).message).toContain('Please specify an ON CONFLICT clause');
    const toBlackhole = toJdbc.replace("'connector' = 'jdbc', 'url' = 'jdbc:x', 'table-name' = 's'", "'connector' = 'blackhole'");
    expect(planOk(toBlackhole).sink?.upsertMaterialize).toBe(false);
  });

  it('from 2.3 allows ON CONFLICT only on an upsert sink', () => {
    const print = `${ORDERS_UPSERT}
${CUSTOMERS_UPSERT}
      CREATE TABLE sink (order_id STRING, name STRING, PRIMARY KEY (name) NOT ENFORCED) WITH ('connector' = 'print');
      INSERT INTO sink SELECT o.order_id, c.name FROM orders o JOIN customers c ON o.customer_id = c.customer_id ON CONFLICT DO DEDUPLICATE;`;
    expect(planErr(print).message).toBe("ON CONFLICT clause is only allowed for upsert sinks. The sink 'default_catalog.default_database.sink' is not an upsert sink because it requires UPDATE_BEFORE (retract mode).");
    // a print sink takes retractions: no materializer even when its key differs
    expect(planOk(print.replace(' ON CONFLICT DO DEDUPLICATE', '')).sink?.upsertMaterialize).toBe(false);
  });

  it('from 2.3 requires watermarks on every scanned table for ON CONFLICT DO ERROR and DO NOTHING', () => {
    const e = planErr(insert('name').replace(/;$/, ' ON CONFLICT DO NOTHING;'));
    expect(e.message).toBe('ON CONFLICT DO NOTHING requires all source tables to define watermarks, but the following source(s) do not: default_catalog.default_database.orders, default_catalog.default_database.customers. Please add a WATERMARK declaration to these tables.');
  });

  it('rejects updates into an append-only sink', () => {
    const e = planErr(insert(''));
    expect(e.message).toContain("Table sink 'default_catalog.default_database.sink' doesn't support consuming update and delete changes");
    expect(e.at).toBe('sink');
  });

  it('rejects a sink with another number of columns', () => {
    const e = planErr(`${ORDERS}\n${SHIPMENTS}\n${SINK('order_id')}\nINSERT INTO sink SELECT o.order_id FROM orders o JOIN shipments s ON o.order_id = s.order_id;`);
    expect(e.message).toContain("Column types of query result and sink for 'default_catalog.default_database.sink' do not match.\nCause: Different number of columns.");
  });
});

describe('upsert-kafka keys', () => {
  it('keeps the upsert source keyed by its primary key (upsert mode)', () => {
    const plan = planOk(`${ORDERS}\n${RATES_UPSERT}\nSELECT o.order_id FROM orders o JOIN rates r ON o.currency = r.currency;`);
    expect(plan.tables.find((t) => t.name === 'rates')?.nature).toBe('upsert');
    expect(plan.inputs[1].upsertKeys).toEqual([[0]]);
    expect(plan.inputs[1].stateLayout).toEqual({ kind: 'JoinKeyContainsUniqueKey', uniqueKey: [0] });
  });
});

describe('filters on upsert sources', () => {
  it('pushes WHERE predicates into an upsert input (the engine filters after its ChangelogNormalize)', () => {
    const plan = planOk(`${ORDERS_UPSERT}\n${CUSTOMERS_UPSERT}\nSELECT o.order_id FROM orders o JOIN customers c ON o.customer_id = c.customer_id
      WHERE o.amount > 10;`);
    expect(plan.inputs[0].filter).toMatchObject({ fn: '>' });
    expect(plan.inputs[0].changelogNormalize).toMatchObject({ key: [0] });
    expect(plan.residual).toBeUndefined();
  });

  it('refuses a jdbc table read as a stream', () => {
    const e = planErr(`${ORDERS}\nCREATE TABLE customers (customer_id STRING, tier STRING, PRIMARY KEY (customer_id) NOT ENFORCED)
      WITH ('connector' = 'jdbc', 'url' = 'jdbc:x', 'table-name' = 'c');
      SELECT o.order_id FROM orders o JOIN customers c ON o.customer_id = c.customer_id;`);
    expect(e.message).toContain('lookup sources');
    expect(e.hint).toContain('FOR SYSTEM_TIME AS OF');
  });
});

describe('views', () => {
  it('folds a filtering, projecting view into the input (filter over the source row, projection to the view row)', () => {
    const plan = planOk(`${ORDERS}\n${SHIPMENTS}
      CREATE VIEW big_orders AS SELECT order_id AS id, amount * 2 AS doubled, order_time FROM orders WHERE amount > 100;
      SELECT b.id, b.doubled, s.ship_id FROM big_orders b JOIN shipments s ON b.id = s.order_id;`);
    const b = plan.inputs[0];
    expect(b.table).toBe('orders');
    expect(b.alias).toBe('b');
    expect(b.columns.map((c) => c.name)).toEqual(['id', 'doubled', 'order_time']);
    expect(b.columns[2]?.timeAttr).toBe('rowtime');
    expect(b.project?.[0]).toMatchObject({ k: 'col', index: 0 });
    expect(b.project?.[1]).toMatchObject({ k: 'call', fn: '*' });
    // the filter reads the source row: amount is column 3 of orders
    expect(b.filter).toMatchObject({ fn: '>', args: [expect.objectContaining({ k: 'col', index: 3 }), expect.anything()] });
    expect(names(plan, 0, plan.keys.left)).toEqual(['id']);
  });

  it('plans a lookup join with a materializing wrapper under TRY_RESOLVE when the left input updates', () => {
    const plan = planOk(`${ORDERS_UPSERT.replace('amount DECIMAL(10, 2),', 'amount DECIMAL(10, 2), proc AS PROCTIME(),')}
      CREATE TABLE customers (customer_id STRING, name STRING, PRIMARY KEY (customer_id) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = 'jdbc:x', 'table-name' = 'c');
      SELECT o.order_id, c.name FROM orders o JOIN customers FOR SYSTEM_TIME AS OF o.proc AS c ON o.customer_id = c.customer_id;`,
      { config: { nonDeterministicUpdateStrategy: 'TRY_RESOLVE' } });
    expect(plan.family).toBe('lookup');
    expect(plan.lookup?.materialize).toBe(true);
    expect(plan.inputs[0].changelogNormalize).toMatchObject({ key: [0] });
  });
});

describe('a filtering view over an upsert source', () => {
  it('keeps the filter on the input, next to its ChangelogNormalize', () => {
    const plan = planOk(`${ORDERS_UPSERT}\n${CUSTOMERS_UPSERT}\nCREATE VIEW big AS SELECT * FROM orders WHERE amount > 10;
      SELECT b.order_id FROM big b JOIN customers c ON b.customer_id = c.customer_id;`);
    expect(plan.inputs[0].filter).toMatchObject({ fn: '>' });
    expect(plan.inputs[0].changelogNormalize).toMatchObject({ key: [0] });
  });
});
