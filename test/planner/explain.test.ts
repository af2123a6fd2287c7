/** `explain` names what spec §7 promises: family word, join type, key columns, each input's changelog mode. */
import { describe, expect, it } from 'vitest';
import { formatExplain } from '../../src/planner/explain.js';
import { CUSTOMERS_JDBC, ORDERS, planOk, RATES_CDC, RATES_UPSERT, SHIPMENTS } from './helpers.js';

describe('formatExplain', () => {
  it('explains an event-time temporal join: family, type, keys, modes, time attributes, watermarks, planner steps', () => {
    const text = formatExplain(planOk(`${ORDERS}\n${RATES_CDC}\nSELECT o.order_id, o.amount * r.usd_rate AS usd
      FROM orders AS o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;`), 'EUR orders');
    expect(text.split('\n')[0]).toBe('EUR orders');
    expect(text).toContain('family: temporal');
    expect(text).toContain('join type: left');
    expect(text).toContain('join key: o.currency = r.currency');
    expect(text).toContain("watermark order_time - INTERVAL '5' SECOND");
    expect(text).toContain('changelog: [+I] (append-only)');
    expect(text).toContain('changelog: [+I, +U, -D] (upsert changelog)');
    expect(text).toContain('DropUpdateBefore');
    expect(text).toContain('usd DECIMAL(21, 6)');
    expect(text).toContain('Flink 2.3');
  });

  it('explains interval bounds and the cleanup rule', () => {
    const text = formatExplain(planOk(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o JOIN shipments s ON o.order_id = s.order_id
      AND o.order_time BETWEEN s.ship_time - INTERVAL '30' MINUTE AND s.ship_time;`), 'x');
    expect(text).toContain('family: interval');
    expect(text).toContain('bounds: o.order_time BETWEEN s.ship_time - 30 min AND s.ship_time + 0 ms');
    expect(text).toContain('watermark passes t + 30 min');
  });

  it('explains a regular join state layout, TTL and ChangelogNormalize', () => {
    const text = formatExplain(planOk(`${ORDERS}\n${RATES_UPSERT}\nSELECT o.order_id FROM orders o JOIN rates r ON o.currency = r.currency;`, { config: { stateTtlMs: 60000 } }), 'x');
    expect(text).toContain('family: regular');
    expect(text).toContain('join type: inner');
    expect(text).toContain('JoinKeyContainsUniqueKey');
    expect(text).toContain('InputSideHasNoUniqueKey');
    expect(text).toContain('ChangelogNormalize');
    expect(text).toContain('expires 1 min after its last write (table.exec.state.ttl');
    expect(text).toContain('changelog: [+I, -U, +U, -D] (retract changelog)');
  });

  it('explains a lookup join and its cache', () => {
    const dim = CUSTOMERS_JDBC.replace("'table-name' = 'customers'", "'table-name' = 'customers', 'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.expire-after-write' = '5 min'");
    const text = formatExplain(planOk(`${ORDERS}\n${dim}\nSELECT o.order_id, c.tier FROM orders AS o JOIN customers FOR SYSTEM_TIME AS OF o.proc AS c ON o.customer_id = c.customer_id;`), 'x');
    expect(text).toContain('family: lookup');
    expect(text).toContain('lookup key: c.customer_id = o.customer_id');
    expect(text).toContain('expire 5 min after write');
    expect(text).toContain('proc TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*');
  });

  it('explains semi and anti joins and an upsert sink', () => {
    const semi = formatExplain(planOk(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o WHERE o.order_id IN (SELECT s.order_id FROM shipments s);`), 'x');
    expect(semi).toContain('family: semi');
    const anti = formatExplain(planOk(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.order_id);`), 'x');
    expect(anti).toContain('family: anti');
  });
});
