/** DDL, name-resolution and query-shape rejections: Flink's / Calcite's wording, a hint, and the right token. */
import { describe, expect, it } from 'vitest';
import { ORDERS, planErr, planText, SHIPMENTS } from './helpers.js';

const JOIN = 'SELECT o.order_id FROM orders o JOIN shipments s ON o.order_id = s.order_id;';

describe('DDL rejections', () => {
  it('points an unknown type at the type token', () => {
    const e = planErr(`CREATE TABLE t (a STRIN) WITH ('connector' = 'kafka');\n${SHIPMENTS}\n${JOIN}`);
    expect(e.message).toBe("Unknown datatype name 'STRIN'");
    expect(e.at).toBe('STRIN');
  });

  it('rejects a watermark on a column that is not TIMESTAMP(p <= 3)', () => {
    const e = planErr(`CREATE TABLE t (ts BIGINT, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka');`);
    expect(e.message).toBe("Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is BIGINT");
    expect(e.at).toBe('ts');
    expect(e.hint).toContain('TO_TIMESTAMP_LTZ');
    const p9 = planErr(`CREATE TABLE t (ts TIMESTAMP(9), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka');`);
    expect(p9.message).toContain('but the time field type is TIMESTAMP(9)');
  });

  it('rejects a watermark on an unknown column', () => {
    const e = planErr(`CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR tss AS ts) WITH ('connector' = 'kafka');`);
    expect(e.message).toBe("Invalid column name 'tss' for rowtime attribute in watermark declaration. Available columns are: [ts]");
  });

  it('rejects an ENFORCED primary key', () => {
    const e = planErr(`CREATE TABLE t (k STRING, PRIMARY KEY (k)) WITH ('connector' = 'upsert-kafka');`);
    expect(e.message).toContain("Flink doesn't support ENFORCED mode for PRIMARY KEY constraint.");
    expect(e.hint).toContain('NOT ENFORCED');
  });

  it('requires a primary key on upsert-kafka and forbids one on kafka', () => {
    const up = planErr(`CREATE TABLE t (k STRING) WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');`);
    expect(up.message).toContain("'upsert-kafka' tables require to define a PRIMARY KEY constraint.");
    expect(up.at).toBe('t');
    const k = planErr(`CREATE TABLE t (k STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'kafka', 'format' = 'json');`);
    expect(k.message).toBe("The Kafka table 'default_catalog.default_database.t' with 'json' format doesn't support defining PRIMARY KEY constraint on the table, because it can't guarantee the semantic of primary key.");
  });

  it('names an unknown connector with a suggestion', () => {
    const e = planErr(`CREATE TABLE t (k STRING) WITH ('connector' = 'kafak');`);
    expect(e.message).toContain("Could not find any factory for identifier 'kafak'");
    expect(e.hint).toBe("did you mean 'kafka'?");
  });

  it('rejects a primary key on an unknown column', () => {
    const e = planErr(`CREATE TABLE t (k STRING, PRIMARY KEY (kk) NOT ENFORCED) WITH ('connector' = 'upsert-kafka');`);
    expect(e.message).toContain("Column 'kk' does not exist.");
    expect(e.at).toBe('kk');
  });
});

describe('name resolution (Calcite wording)', () => {
  it('reports an unknown table with a did-you-mean hint', () => {
    const e = planErr(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o JOIN shipment s ON o.order_id = s.order_id;`);
    expect(e.message).toBe("Object 'shipment' not found");
    expect(e.at).toBe('shipment');
    expect(e.hint).toBe("did you mean 'shipments'?");
  });

  it('reports unknown columns, qualified and not', () => {
    const q = planErr(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o JOIN shipments s ON o.order_id = s.orderid;`);
    expect(q.message).toBe("Column 'orderid' not found in table 's'");
    expect(q.hint).toBe("did you mean 'order_id'?");
    const u = planErr(`${ORDERS}\n${SHIPMENTS}\nSELECT amout FROM orders o JOIN shipments s ON o.order_id = s.order_id;`);
    expect(u.message).toBe("Column 'amout' not found in any table");
    expect(u.at).toBe('amout');
    expect(u.hint).toBe("did you mean 'amount'?");
    const t = planErr(`${ORDERS}\n${SHIPMENTS}\nSELECT x.order_id FROM orders o JOIN shipments s ON o.order_id = s.order_id;`);
    expect(t.message).toBe("Table 'x' not found");
  });

  it('reports an ambiguous column', () => {
    const e = planErr(`${ORDERS}\n${SHIPMENTS}\nSELECT order_id FROM orders o JOIN shipments s ON o.order_id = s.order_id;`);
    expect(e.message).toBe("Column 'order_id' is ambiguous");
    expect(e.hint).toContain('o.order_id or s.order_id');
  });

  it('rejects comparing a string with a number', () => {
    const e = planErr(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o JOIN shipments s ON o.order_id = s.order_id AND o.amount = s.ship_id;`);
    expect(e.message).toBe("Cannot apply '=' to arguments of type '<DECIMAL(10, 2)> = <VARCHAR(2147483647)>'. Supported form(s): '<COMPARABLE_TYPE> = <COMPARABLE_TYPE>'");
    expect(e.hint).toContain('CAST');
  });
});

describe('query shape', () => {
  it('needs exactly one query', () => {
    const two = planErr(`${ORDERS}\n${SHIPMENTS}\n${JOIN}\n${JOIN}`);
    expect(two.message).toContain('more than one');
    expect(two.at.startsWith('SELECT')).toBe(true);
    const none = planText(`${ORDERS}\n${SHIPMENTS}`);
    expect(none.ok).toBe(false);
    if (!none.ok) {
      expect(none.error.message).toContain('has none');
      expect(none.tables?.map((t) => t.name)).toEqual(['orders', 'shipments']);
    }
  });

  it('says that joinstep debugs joins when the query joins nothing', () => {
    const e = planErr(`${ORDERS}\nSELECT order_id FROM orders WHERE amount > 1;`);
    expect(e.message).toContain('joinstep debugs joins');
    expect(e.at).toBe('orders');
  });

  it('rejects aggregations', () => {
    const e = planErr(`${ORDERS}\n${SHIPMENTS}\nSELECT COUNT(*) FROM orders o JOIN shipments s ON o.order_id = s.order_id;`);
    expect(e.message).toContain('aggregate function COUNT');
  });
});

describe('catalog', () => {
  it('rejects a second table of the same name, unless IF NOT EXISTS', () => {
    const e = planErr(`${ORDERS}\n${ORDERS}\n${SHIPMENTS}\n${JOIN}`);
    expect(e.message).toBe("Table or view 'orders' already exists");
    const ok = planText(`${ORDERS}\n${ORDERS.replace('CREATE TABLE orders', 'CREATE TABLE IF NOT EXISTS orders')}\n${SHIPMENTS}\n${JOIN}`);
    expect(ok.ok).toBe(true);
  });
});

describe('CAST', () => {
  it('rejects a cast Flink does not have', () => {
    const e = planErr(`${ORDERS}\n${SHIPMENTS}\nSELECT CAST(o.order_time AS INT) FROM orders o JOIN shipments s ON o.order_id = s.order_id;`);
    expect(e.message).toBe('Cast function cannot convert value of type TIMESTAMP(3) to type INTEGER');
    expect(e.at).toBe('CAST(o.order_time AS INT)');
  });
});
