/**
 * Which changes travel without UPDATE_BEFORE (FlinkChangelogModeInferenceProgram's UpdateKindTrait),
 * when 2.1+ drops the ChangelogNormalize, and which columns a ChangelogNormalize keeps
 * (PushCalcPastChangelogNormalizeRule). Each expectation was checked against real Flink's plan
 * (`joinstep explain FILE --flink`).
 */
import { describe, expect, it } from 'vitest';
import { planOk } from './helpers.js';

const L_UPSERT = `CREATE TABLE l (k STRING NOT NULL, v INT, w INT, PRIMARY KEY (k) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'topic' = 'l', 'key.format' = 'json', 'value.format' = 'json');`;
const L_CDC = `CREATE TABLE l (k STRING NOT NULL, v INT, w INT, PRIMARY KEY (k) NOT ENFORCED)
  WITH ('connector' = 'kafka', 'topic' = 'l', 'format' = 'debezium-json');`;
const R_APPEND = `CREATE TABLE r (id STRING, k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'r', 'format' = 'json');`;
const SNK_UPSERT = `CREATE TABLE snk (k STRING NOT NULL, v INT, PRIMARY KEY (k) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'topic' = 'snk', 'key.format' = 'json', 'value.format' = 'json');`;
const SNK_PRINT = `CREATE TABLE snk (k STRING NOT NULL, v INT) WITH ('connector' = 'print');`;
const SEMI = 'SELECT l.k, l.v FROM l WHERE EXISTS (SELECT 1 FROM r WHERE r.k = l.k)';

describe('update kinds of regular and semi/anti joins', () => {
  it('2.1+: an upsert sink keyed like the output needs no -U, so the ChangelogNormalize goes', () => {
    const plan = planOk(`${L_UPSERT}\n${R_APPEND}\n${SNK_UPSERT}\nINSERT INTO snk ${SEMI};`, { flinkVersion: '2.3' });
    expect(plan.inputs[0].changelogNormalize).toBeUndefined();
    expect(plan.inputs[0].rawUpsert).toEqual({ key: [0] });
    expect(plan.output.changelogMode).toEqual(['+I', '+U', '-D']);
    expect(plan.notes.join('\n')).toContain('no ChangelogNormalize on l');
    expect(plan.notes.join('\n')).not.toContain('ChangelogNormalize on l (key');
  });

  it('2.0 keeps the ChangelogNormalize, sending +U alone', () => {
    const plan = planOk(`${L_UPSERT}\n${R_APPEND}\n${SNK_UPSERT}\nINSERT INTO snk ${SEMI};`, { flinkVersion: '2.0' });
    expect(plan.inputs[0].changelogNormalize).toMatchObject({ key: [0] });
    expect(plan.inputs[0].rawUpsert).toBeUndefined();
    expect(plan.inputs[0].changelogMode).toEqual(['+I', '+U', '-D']);
    expect(plan.output.changelogMode).toEqual(['+I', '+U', '-D']);
  });

  it('a SELECT and a print sink want every -U', () => {
    for (const sql of [`${SEMI};`, `${SNK_PRINT}\nINSERT INTO snk ${SEMI};`]) {
      const plan = planOk(`${L_UPSERT}\n${R_APPEND}\n${sql}`);
      expect(plan.inputs[0].changelogNormalize).toMatchObject({ key: [0] });
      expect(plan.output.changelogMode).toEqual(['+I', '-U', '+U', '-D']);
    }
  });

  it('a CDC input gets DropUpdateBefore, unless a filter (a Calc with a condition) sits on it', () => {
    const plan = planOk(`${L_CDC}\n${R_APPEND}\n${SNK_UPSERT}\nINSERT INTO snk ${SEMI};`);
    expect(plan.inputs[0].dropUpdateBefore).toBe(true);
    expect(plan.inputs[0].changelogMode).toEqual(['+I', '+U', '-D']);
    const filtered = planOk(`${L_CDC}\n${R_APPEND}\n${SNK_UPSERT}\nINSERT INTO snk ${SEMI} AND l.w > 1;`);
    expect(filtered.inputs[0].dropUpdateBefore).toBe(false);
    expect(filtered.output.changelogMode).toEqual(['+I', '-U', '+U', '-D']);
  });

  it('an updating input whose upsert key does not contain its join key keeps every -U', () => {
    const sql = 'SELECT l.k, l.v FROM l WHERE EXISTS (SELECT 1 FROM r WHERE r.v = l.v)';
    const blackhole = `CREATE TABLE snk (k STRING NOT NULL, v INT) WITH ('connector' = 'blackhole');`;
    expect(planOk(`${L_UPSERT}\n${R_APPEND}\n${blackhole}\nINSERT INTO snk ${SEMI};`).output.changelogMode).toEqual(['+I', '+U', '-D']);
    const plan = planOk(`${L_UPSERT}\n${R_APPEND}\n${blackhole}\nINSERT INTO snk ${sql};`);
    expect(plan.inputs[0].changelogNormalize).toMatchObject({ key: [0] });
    expect(plan.output.changelogMode).toEqual(['+I', '-U', '+U', '-D']);
  });

  it('a ChangelogNormalize keeps only the columns the query reads, and the key', () => {
    const plan = planOk(`${L_UPSERT}\n${R_APPEND}\nSELECT r.id FROM r WHERE r.k IN (SELECT l.k FROM l);`);
    expect(plan.inputs[1].changelogNormalize).toEqual({ key: [0], columns: [0] });
    const wide = planOk(`${L_UPSERT}\n${R_APPEND}\n${SEMI};`);
    expect(wide.inputs[0].changelogNormalize).toEqual({ key: [0], columns: [0, 1] });
  });
});
