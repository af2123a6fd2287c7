/** Regular joins whose condition Calcite folds to FALSE, and predicates RexSimplify folds to TRUE. */
import { describe, expect, it } from 'vitest';
import { planErr, planOk } from './helpers.js';

const L_UPSERT = `CREATE TABLE l (k STRING NOT NULL, v INT, PRIMARY KEY (k) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'topic' = 'l', 'key.format' = 'json', 'value.format' = 'json');`;
const L_APPEND = `CREATE TABLE l (id STRING, k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'l', 'format' = 'json');`;
const R_CDC = `CREATE TABLE r (id STRING, k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'r', 'format' = 'debezium-json');`;
const R_UPSERT = `CREATE TABLE r (k STRING NOT NULL, v INT, PRIMARY KEY (k) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'topic' = 'r', 'key.format' = 'json', 'value.format' = 'json');`;
const APPEND_SINK = `CREATE TABLE snk (a STRING, b INT) WITH ('connector' = 'kafka', 'topic' = 's', 'format' = 'json');`;
const BLACKHOLE = `CREATE TABLE snk (a STRING, b INT) WITH ('connector' = 'blackhole');`;

describe('a regular join on FALSE', () => {
  it('plans an INNER join as an empty insert-only Values, which an append sink takes', () => {
    const plan = planOk(`${L_APPEND}\n${R_CDC}\n${APPEND_SINK}\nINSERT INTO snk SELECT l.id, r.v FROM l JOIN r ON l.k = r.k AND l.v = r.v AND l.v <> r.v;`, { flinkVersion: '2.3' });
    expect(plan.alwaysFalse).toBe(true);
    expect(plan.output.changelogMode).toEqual(['+I']);
    expect(plan.output.upsertKeys).toEqual([]);
  });

  it('still rejects updates into an append sink when the condition can hold', () => {
    const err = planErr(`${L_APPEND}\n${R_CDC}\n${APPEND_SINK}\nINSERT INTO snk SELECT l.id, r.v FROM l JOIN r ON l.k = r.k AND l.v <> r.v;`, { flinkVersion: '2.3' });
    expect(err.message).toContain("doesn't support consuming update and delete changes");
  });

  it('folds IS NULL and a comparison over the same column in an inner join (WHERE included)', () => {
    const plan = planOk(`${L_APPEND}\n${R_CDC}\n${APPEND_SINK}\nINSERT INTO snk SELECT l.id, r.v FROM l JOIN r ON l.k = r.k AND l.v <> r.v WHERE r.v IS NULL;`, { flinkVersion: '2.3' });
    expect(plan.alwaysFalse).toBe(true);
    expect(plan.output.changelogMode).toEqual(['+I']);
  });

  it('does not fold a LEFT join whose WHERE, above the join, says IS NULL', () => {
    const plan = planOk(`${L_APPEND}\n${R_CDC}\nSELECT l.id, r.v FROM l LEFT JOIN r ON l.k = r.k AND l.v <> r.v WHERE r.v IS NULL;`, { flinkVersion: '2.3' });
    expect(plan.alwaysFalse).toBeUndefined();
  });

  it('plans a LEFT / RIGHT join as a Calc over the preserved side: its kinds and upsert key', () => {
    const left = planOk(`${L_APPEND}\n${R_CDC}\n${APPEND_SINK}\nINSERT INTO snk SELECT l.id, r.v FROM l LEFT JOIN r ON l.k = r.k AND l.v = r.v AND l.v <> r.v;`, { flinkVersion: '2.3' });
    expect(left.alwaysFalse).toBe(true);
    expect(left.output.changelogMode).toEqual(['+I']);
    const right = planOk(`${L_APPEND}\n${R_UPSERT}\nSELECT l.id, r.k, r.v FROM l RIGHT JOIN r ON l.k = r.k AND l.v = r.v AND l.v <> r.v;`, { flinkVersion: '2.3' });
    expect(right.output.changelogMode).toEqual(['+I', '-U', '+U', '-D']);
    expect(right.output.upsertKeys).toEqual([[1]]);
  });

  it('passes an upsert sink\'s update kind to the preserved upsert input, which loses its ChangelogNormalize from 2.1', () => {
    const sql = `${L_UPSERT}\n${R_CDC}\n${BLACKHOLE}\nINSERT INTO snk SELECT l.k, l.v FROM l LEFT JOIN r ON l.k = r.k AND l.v = r.v AND l.v <> r.v;`;
    const p23 = planOk(sql, { flinkVersion: '2.3' });
    expect(p23.inputs[0].changelogNormalize).toBeUndefined();
    expect(p23.inputs[0].rawUpsert).toEqual({ key: [0] });
    const p20 = planOk(sql, { flinkVersion: '2.0' });
    expect(p20.inputs[0].changelogNormalize).toBeDefined();
    expect(p20.output.changelogMode).not.toContain('-U');
  });
});

describe('IS NOT NULL over a NOT NULL column', () => {
  it('leaves no filter, so an upsert input under an upsert sink stays raw from 2.1', () => {
    const sink = `CREATE TABLE snk (a STRING NOT NULL, b INT, PRIMARY KEY (a) NOT ENFORCED)
      WITH ('connector' = 'upsert-kafka', 'topic' = 's', 'key.format' = 'json', 'value.format' = 'json');`;
    const plan = planOk(`${L_UPSERT}\n${R_UPSERT}\n${sink}\nINSERT INTO snk SELECT l.k, r.v FROM l JOIN r ON l.k = r.k WHERE l.k IS NOT NULL;`, { flinkVersion: '2.3' });
    expect(plan.inputs[0].filter).toBeUndefined();
    expect(plan.inputs[1].filter).toBeUndefined();
    expect(plan.inputs[0].rawUpsert).toEqual({ key: [0] });
  });

  it('keeps IS NOT NULL over a nullable column', () => {
    const plan = planOk(`${L_APPEND}\n${R_CDC}\nSELECT l.id, r.v FROM l JOIN r ON l.k = r.k WHERE l.v IS NOT NULL;`, { flinkVersion: '2.3' });
    expect(plan.inputs[0].filter).toBeDefined();
  });
});

describe('a key predicate inferred across the join key', () => {
  it('takes the other side\'s column type, so onto a NOT NULL key it is no filter', () => {
    const plan = planOk(`${L_APPEND}\n${R_UPSERT}\n${BLACKHOLE}\nINSERT INTO snk SELECT l.id, r.v FROM l RIGHT JOIN r ON l.k = r.k WHERE l.k IS NOT NULL;`, { flinkVersion: '2.3' });
    expect(plan.joinType).toBe('inner');
    expect(plan.inputs[0].filter).toBeDefined();
    expect(plan.inputs[1].filter).toBeUndefined();
    expect(plan.inputs[1].rawUpsert).toEqual({ key: [0] });
  });

  // Which inputs Flink 2.3 filters, from its own optimized plans of these queries (the harness's
  // explain): onto an outer join's null-generating side only comparisons are inferred.
  const R_APPEND = `CREATE TABLE r (id STRING, k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'r', 'format' = 'json');`;
  const filtered = (from: string): string => {
    const plan = planOk(`${L_APPEND}\n${R_APPEND}\n${BLACKHOLE}\nINSERT INTO snk SELECT l.id, r.v FROM ${from};`, { flinkVersion: '2.3' });
    return `${plan.inputs[0].filter === undefined ? '-' : 'L'}${plan.inputs[1].filter === undefined ? '-' : 'R'}`;
  };
  it.each([
    ['l LEFT JOIN r ON l.k = r.k WHERE l.k IS NOT NULL', 'L-'],
    ['l FULL OUTER JOIN r ON l.k = r.k WHERE l.k IS NOT NULL', 'L-'],
    ['l RIGHT JOIN r ON l.k = r.k WHERE r.k IS NOT NULL', '-R'],
    ["l LEFT JOIN r ON l.k = r.k WHERE l.k LIKE 'c%'", 'L-'],
    ["l LEFT JOIN r ON l.k = r.k WHERE l.k = 'c'", 'LR'],
    ["l LEFT JOIN r ON l.k = r.k WHERE l.k <> 'x'", 'LR'],
    ["l LEFT JOIN r ON l.k = r.k WHERE l.k > 'b'", 'LR'],
    ["l LEFT JOIN r ON l.k = r.k WHERE UPPER(l.k) = 'C'", 'LR'],
    ["l FULL OUTER JOIN r ON l.k = r.k WHERE l.k = 'c'", 'LR'],
    ['l JOIN r ON l.k = r.k WHERE l.k IS NOT NULL', 'LR'],
    ["l JOIN r ON l.k = r.k WHERE l.k LIKE 'c%'", 'LR'],
    ['l LEFT JOIN r ON l.k = r.k WHERE r.k IS NOT NULL', 'LR'],
    ['l LEFT JOIN r ON l.k = r.k WHERE l.v > 1', 'L-'],
    ['l JOIN r ON l.k = r.k', '--'],
  ])('%s: filters %s, as Flink 2.3 plans it', (from, expected) => {
    expect(filtered(from)).toBe(expected);
  });
});
