/**
 * Replayed data files end to end, through the built CLI: the bundled capture passes `joinstep
 * test`, and a bad line in a data file exits 2 with FILE:LINE:COL in that file (no progress
 * line when stderr is not a terminal).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'joinstep-replay-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCENARIO = `name: replay cli
sql: |
  CREATE TABLE orders (id STRING, n INT) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
  CREATE TABLE rates (id STRING) WITH ('connector' = 'kafka', 'topic' = 'rates', 'format' = 'json');
  SELECT o.id, o.n FROM orders AS o JOIN rates AS r ON o.id = r.id;
events:
  - { to: rates, row: { id: a } }
  - { replay: data/orders.jsonl, to: orders }
`;

describe('replay through the CLI', () => {
  it('joinstep test passes on the bundled capture', () => {
    const r = cli(['test', 'scenarios/kafka-capture-replay.yaml']);
    expect(r.stdout).toContain('PASS scenarios/kafka-capture-replay.yaml');
    expect(r.stdout).toContain('1 passed, 0 failed');
    expect(r.status).toBe(0);
  });

  it('run prints the rows of a data file, and a bad line exits 2 at its place in the data file', () => {
    const file = join(dir, 's.yaml');
    writeFileSync(file, SCENARIO);
    const data = join(dir, 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'orders.jsonl'), '{"id": "a", "n": 1}\n{"id": "b", "n": 2}\n');
    const ok = cli(['run', file]);
    expect(ok.stdout).toBe('+I[a, 1]\n');
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    writeFileSync(join(data, 'orders.jsonl'), '{"id": "a", "n": 1}\n{"id": "b", "n": "two"}\n');
    const bad = cli(['run', file]);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(new RegExp(`^${join(data, 'orders.jsonl').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:18: error: column \`n\`: `));
  });
});
