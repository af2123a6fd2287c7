/** Interval-join detection and bounds, as Flink's IntervalJoinUtil computes them. */
import { describe, expect, it } from 'vitest';
import { ORDERS, planErr, planOk, RATES_UPSERT, SHIPMENTS } from './helpers.js';

const q = (cond: string, join = 'JOIN', where = '') =>
  `${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id, s.ship_id FROM orders o ${join} shipments s ON ${cond}${where ? ` WHERE ${where}` : ''};`;

describe('interval join', () => {
  it('reads BETWEEN bounds in milliseconds', () => {
    const plan = planOk(q("o.order_id = s.order_id AND o.order_time BETWEEN s.ship_time - INTERVAL '30' MINUTE AND s.ship_time"));
    expect(plan.family).toBe('interval');
    expect(plan.interval).toMatchObject({ lowerMs: -1_800_000, upperMs: 0, timeKind: 'rowtime', negativeWindow: false, minCleanupMs: 0 });
    expect(plan.inputs[0].timeAttr).toEqual({ index: 4, kind: 'rowtime' });
    expect(plan.inputs[1].timeAttr).toEqual({ index: 2, kind: 'rowtime' });
    expect(plan.output.changelogMode).toEqual(['+I']);
    expect(plan.residual).toBeUndefined();
  });

  it('moves a strict bound by 1 ms, in either operand order', () => {
    const plan = planOk(q("o.order_id = s.order_id AND o.order_time > s.ship_time - INTERVAL '10' SECOND AND s.ship_time + INTERVAL '20' SECOND > o.order_time"));
    expect(plan.interval).toMatchObject({ lowerMs: -9_999, upperMs: 19_999 });
  });

  it('mirrors bounds written from the right side', () => {
    const plan = planOk(q("o.order_id = s.order_id AND s.ship_time >= o.order_time AND s.ship_time <= o.order_time + INTERVAL '1' HOUR"));
    expect(plan.interval).toMatchObject({ lowerMs: -3_600_000, upperMs: 0 });
  });

  it('treats a single time equality as the window [0, 0]', () => {
    const plan = planOk(q('o.order_id = s.order_id AND o.order_time = s.ship_time'));
    expect(plan.family).toBe('interval');
    expect(plan.interval).toMatchObject({ lowerMs: 0, upperMs: 0 });
  });

  it('plans a regular join when only one bound is given (the comparison stays a condition)', () => {
    const plan = planOk(q('o.order_id = s.order_id AND o.order_time >= s.ship_time'));
    expect(plan.family).toBe('regular');
    expect(plan.residual).toMatchObject({ k: 'call', fn: '>=' });
    expect(plan.notes.join('\n')).toContain('not cleaned up by time');
  });

  it('plans a regular join when both bounds point the same way', () => {
    const plan = planOk(q("o.order_id = s.order_id AND o.order_time >= s.ship_time AND o.order_time > s.ship_time - INTERVAL '1' MINUTE"));
    expect(plan.family).toBe('regular');
  });

  it('keeps a negative window as Flink does: an interval plan with no possible match', () => {
    const plan = planOk(q("o.order_id = s.order_id AND o.order_time BETWEEN s.ship_time + INTERVAL '10' SECOND AND s.ship_time - INTERVAL '10' SECOND", 'LEFT JOIN'));
    expect(plan.family).toBe('interval');
    expect(plan.joinType).toBe('left');
    expect(plan.interval).toMatchObject({ lowerMs: 10_000, upperMs: -10_000, negativeWindow: true });
    expect(plan.notes.join('\n')).toContain('no join operator');
  });

  it('takes time bounds from WHERE for an inner join (comma syntax)', () => {
    const plan = planOk(`${ORDERS}\n${SHIPMENTS}\nSELECT o.order_id FROM orders o, shipments s
      WHERE o.order_id = s.order_id AND s.ship_time BETWEEN o.order_time AND o.order_time + INTERVAL '4' HOUR;`);
    expect(plan.family).toBe('interval');
    expect(plan.joinType).toBe('inner');
    expect(plan.interval).toMatchObject({ lowerMs: -14_400_000, upperMs: 0 });
    expect(plan.keys.left).toEqual([0]);
  });

  it('keeps extra non-equi conditions as the residual', () => {
    const plan = planOk(q("o.order_id = s.order_id AND o.order_time BETWEEN s.ship_time - INTERVAL '1' MINUTE AND s.ship_time AND o.amount > 10 + CHAR_LENGTH(s.ship_id)", 'LEFT JOIN'));
    expect(plan.family).toBe('interval');
    expect(plan.residual).toMatchObject({ fn: '>' });
  });

  it('supports processing-time bounds', () => {
    const plan = planOk(`${ORDERS}
      CREATE TABLE clicks (order_id STRING, cp AS PROCTIME()) WITH ('connector' = 'kafka', 'topic' = 'c', 'format' = 'json');
      SELECT o.order_id FROM orders o JOIN clicks c ON o.order_id = c.order_id AND o.proc BETWEEN c.cp - INTERVAL '5' SECOND AND c.cp;`);
    expect(plan.interval).toMatchObject({ timeKind: 'proctime', lowerMs: -5000, upperMs: 0 });
  });

  it('takes table.exec.interval-join.min-cleanup-interval', () => {
    const plan = planOk(q('o.order_id = s.order_id AND o.order_time = s.ship_time'), { config: { minCleanupIntervalMs: 5000 } });
    expect(plan.interval?.minCleanupMs).toBe(5000);
  });

  it('rejects a changelog input with Flink\'s changelog-mode message', () => {
    const e = planErr(`${ORDERS}\n${RATES_UPSERT}\nSELECT o.order_id FROM orders o JOIN rates r ON o.currency = r.currency
      AND o.order_time BETWEEN r.update_time - INTERVAL '1' MINUTE AND r.update_time;`);
    expect(e.message).toBe("StreamPhysicalIntervalJoin doesn't support consuming update and delete changes which is produced by node ChangelogNormalize(key=[currency])");
    expect(e.at).toBe('rates');
  });

  it('rejects rowtimes of different types', () => {
    const e = planErr(`${ORDERS}
      CREATE TABLE s2 (order_id STRING, st TIMESTAMP_LTZ(3), WATERMARK FOR st AS st) WITH ('connector' = 'kafka', 'topic' = 's', 'format' = 'json');
      SELECT o.order_id FROM orders o JOIN s2 ON o.order_id = s2.order_id AND o.order_time BETWEEN s2.st AND s2.st + INTERVAL '1' SECOND;`);
    expect(e.message).toContain('Interval join with rowtime attribute requires same rowtime types, but the types are TIMESTAMP(3) *ROWTIME* and TIMESTAMP_LTZ(3) *ROWTIME*.');
  });
});
