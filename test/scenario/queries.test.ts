import { describe, expect, it } from 'vitest';
import { loadScenarioFile, loadScenarioText } from '../../src/scenario/load.js';
import type { Diagnostic, LoadResult, Scenario } from '../../src/scenario/types.js';

const DDL = `sql: |
  CREATE TABLE orders (
    order_id STRING,
    currency STRING,
    amount DECIMAL(10, 2),
    order_time TIMESTAMP(3),
    proc_time AS PROCTIME(),
    WATERMARK FOR order_time AS order_time
  ) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
  CREATE TABLE rates (
    currency STRING,
    usd_rate DECIMAL(10, 4),
    update_time TIMESTAMP(3),
    WATERMARK FOR update_time AS update_time,
    PRIMARY KEY (currency) NOT ENFORCED
  ) WITH ('connector' = 'upsert-kafka', 'topic' = 'rates', 'key.format' = 'json', 'value.format' = 'json');
  CREATE TABLE rates_db (
    currency STRING,
    usd_rate DECIMAL(10, 4),
    PRIMARY KEY (currency) NOT ENFORCED
  ) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://db/fx', 'table-name' = 'rates');
`;

const REGULAR = 'SELECT o.order_id, r.usd_rate FROM orders AS o JOIN rates AS r ON o.currency = r.currency';
const TEMPORAL = 'SELECT o.order_id, r.usd_rate FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency';
const LOOKUP = 'SELECT o.order_id, r.usd_rate FROM orders AS o JOIN rates_db FOR SYSTEM_TIME AS OF o.proc_time AS r ON o.currency = r.currency';

function file(queries: string, rest = 'events: []\n', ddl = DDL): string {
  return `name: side by side\n${ddl}queries:\n${queries}${rest}`;
}

const THREE = `  regular: |\n    ${REGULAR}\n  temporal: |\n    ${TEMPORAL}\n  lookup: |\n    ${LOOKUP}\n`;

function ok(r: LoadResult): Scenario {
  if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
  return r.scenario;
}

function problems(r: LoadResult): Diagnostic[] {
  if (r.ok) throw new Error('loaded, but should have failed');
  return [...r.diagnostics];
}

/** 1-based line:col of the n-th occurrence of `needle` at or after `after` in `text`, found independently of the loader. */
function posOf(text: string, needle: string, after = ''): string {
  const from = after === '' ? 0 : text.indexOf(after);
  const at = text.indexOf(needle, from);
  if (from < 0 || at < 0) throw new Error(`${needle} not in text`);
  const before = text.slice(0, at).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

describe('named queries', () => {
  it('plans each query on the same DDL, in file order', () => {
    const s = ok(loadScenarioText('q.yaml', file(THREE)));
    expect(s.queries.map((q) => q.name)).toEqual(['regular', 'temporal', 'lookup']);
    expect(s.queries.map((q) => q.plan.family)).toEqual(['regular', 'temporal', 'lookup']);
    expect(s.namedQueries).toBe(true);
    expect(s.queries[1]!.sql).toContain('FOR SYSTEM_TIME AS OF o.order_time');
    expect(s.sql).not.toContain('SELECT');
  });

  it('keeps a single-query file as it was: one query named main', async () => {
    const r = await loadScenarioFile('scenarios/temporal-eur-rate.yaml');
    const s = ok(r);
    expect(s.queries.map((q) => q.name)).toEqual(['main']);
    expect(s.namedQueries).toBeUndefined();
  });

  it('points a syntax error inside a query at its file line and column', () => {
    const text = file(`  regular: |\n    ${REGULAR}\n  broken: |\n    SELECT o.order_id FROM orders AS o\n    JOIN rates AS r ON o.currency = = r.currency\n`);
    const d = problems(loadScenarioText('q.yaml', text));
    expect(d).toHaveLength(1);
    expect(`${d[0]!.line}:${d[0]!.col}`).toBe(posOf(text, '= r.currency', 'broken'));
    expect(d[0]!.query).toBe('broken');
  });

  it('points a planner rejection at the construct inside the query, for a double-quoted query too', () => {
    const text = file(`  regular: "SELECT o.order_id FROM orders AS o JOIN nope AS r ON o.currency = r.currency"\n`);
    const d = problems(loadScenarioText('q.yaml', text));
    expect(d.map((x) => `${x.line}:${x.col}`)).toEqual([posOf(text, 'nope')]);
    expect(d[0]!.query).toBe('regular');
  });

  it('maps a rejection in the second query of a plain multi-line scalar', () => {
    const text = file(`  a: ${REGULAR}\n  b: SELECT o.order_id FROM orders AS o\n    JOIN rates FOR SYSTEM_TIME AS OF o.amount AS r ON o.currency = r.currency\n`);
    const d = problems(loadScenarioText('q.yaml', text));
    expect(d).toHaveLength(1);
    expect(d[0]!.query).toBe('b');
    // The rejection is inside b's second line, never before b's key.
    const [line] = `${d[0]!.line}:${d[0]!.col}`.split(':').map(Number);
    expect(line).toBe(Number(posOf(text, 'JOIN rates FOR').split(':')[0]));
  });

  it('reports a DDL problem once, at the sql block, not once per query', () => {
    const ddl = DDL.replace("'connector' = 'kafka'", "'connector' = 'kafka', 'connector' = 'kafka'").replace('PRIMARY KEY (currency) NOT ENFORCED\n  ) WITH (\'connector\' = \'upsert', 'PRIMARY KEY (currency)\n  ) WITH (\'connector\' = \'upsert');
    const d = problems(loadScenarioText('q.yaml', file(THREE, 'events: []\n', ddl)));
    expect(d.length).toBeGreaterThanOrEqual(1);
    expect(d.every((x) => x.query === undefined)).toBe(true);
    expect(d.filter((x) => x.message === d[0]!.message)).toHaveLength(1);
    expect(d[0]!.line).toBeLessThan(25);
  });

  it('rejects a query left in the sql block', () => {
    const ddl = DDL + `  ${REGULAR};\n`;
    const text = file(`  temporal: |\n    ${TEMPORAL}\n`, 'events: []\n', ddl);
    const d = problems(loadScenarioText('q.yaml', text));
    expect(d[0]!.message).toContain('the sql block holds only CREATE TABLE and CREATE VIEW');
    expect(`${d[0]!.line}:${d[0]!.col}`).toBe(posOf(text, 'SELECT o.order_id'));
  });

  it('rejects a CREATE statement or two statements under one name', () => {
    const create = problems(loadScenarioText('q.yaml', file(`  t: CREATE TABLE x (a INT) WITH ('connector' = 'kafka')\n`)));
    expect(create[0]!.message).toContain('must be a SELECT or INSERT INTO');
    const two = problems(loadScenarioText('q.yaml', file(`  t: |\n    ${REGULAR};\n    ${TEMPORAL};\n`)));
    expect(two[0]!.message).toContain('more than one statement');
  });

  it('rejects bad names, empty queries and a non-map', () => {
    expect(problems(loadScenarioText('q.yaml', file(`  "two words": ${REGULAR}\n`)))[0]!.message).toContain('must be a word');
    expect(problems(loadScenarioText('q.yaml', file(`  a: ""\n`)))[0]!.message).toContain('must be the SQL text of one query');
    expect(problems(loadScenarioText('q.yaml', `name: x\n${DDL}queries: {}\nevents: []\n`))[0]!.message).toContain('at least one query');
    expect(problems(loadScenarioText('q.yaml', `name: x\n${DDL}queries: [a, b]\nevents: []\n`))[0]!.message).toContain('queries must map');
  });

  it('accepts events for a table only one query reads, and rejects a table none reads', () => {
    const events = 'events:\n  - { to: rates_db, row: { currency: EUR, usd_rate: 1.10 } }\n';
    expect(ok(loadScenarioText('q.yaml', file(THREE, events))).events).toHaveLength(1);
    const d = problems(loadScenarioText('q.yaml', file(`  regular: ${REGULAR}\n`, events)));
    expect(d[0]!.message).toContain('the query does not read table `rates_db`');
    const two = problems(loadScenarioText('q.yaml', file(`  regular: ${REGULAR}\n  again: ${REGULAR}\n`, events)));
    expect(two[0]!.message).toContain('no query reads table `rates_db`');
  });

  it('refuses events for a sink no query reads, and takes them when another query reads it', () => {
    const ddl = DDL + "  CREATE TABLE out_t (order_id STRING, usd_rate DECIMAL(10, 4)) WITH ('connector' = 'kafka', 'topic' = 'out', 'format' = 'json');\n";
    const write = `  w: INSERT INTO out_t ${TEMPORAL}\n`;
    const events = 'events:\n  - { to: out_t, row: { order_id: o1 } }\n';
    const d = problems(loadScenarioText('q.yaml', file(write, events, ddl)));
    expect(d[0]!.message).toContain('`out_t` is the sink of the INSERT INTO');
    const read = `  r: SELECT x.order_id, r.usd_rate FROM out_t AS x JOIN rates AS r ON x.order_id = r.currency\n`;
    expect(ok(loadScenarioText('q.yaml', file(write + read, events, ddl))).events).toHaveLength(1);
  });
});

describe('per-query expectations', () => {
  it('reads expect.queries by name', () => {
    const s = ok(loadScenarioText('q.yaml', file(THREE, 'events: []\nexpect:\n  queries:\n    regular: { changelog: ["+I[o1, 1.1000]"] }\n    lookup: { result: [] }\n')));
    expect(s.expect?.queries?.regular?.changelog).toEqual(['+I[o1, 1.1000]']);
    expect(s.expect?.queries?.lookup?.result).toEqual([]);
    expect(s.expect?.changelog).toBeUndefined();
  });

  it('rejects mixing the two forms', () => {
    const text = file(THREE, 'events: []\nexpect:\n  changelog: []\n  queries: { regular: { changelog: [] } }\n');
    const d = problems(loadScenarioText('q.yaml', text));
    expect(d[0]!.message).toBe('expect has both `queries` and `changelog`: use one form');
    expect(`${d[0]!.line}:${d[0]!.col}`).toBe(posOf(text, 'changelog: []'));
  });

  it('rejects the plain form in a file with named queries', () => {
    const d = problems(loadScenarioText('q.yaml', file(THREE, 'events: []\nexpect:\n  changelog: []\n')));
    expect(d[0]!.message).toContain('this file has named queries');
  });

  it('rejects the per-query form in a single-query file', async () => {
    const { readFile } = await import('node:fs/promises');
    const original = await readFile('scenarios/temporal-eur-rate.yaml', 'utf8');
    const text = original.slice(0, original.indexOf('expect:')) + 'expect:\n  queries:\n    main: { changelog: [] }\n';
    const d = problems(loadScenarioText('t.yaml', text));
    expect(d[0]!.message).toContain('expect.queries is for a file with named queries');
  });

  it('rejects an unknown query name with a did-you-mean hint', () => {
    const text = file(THREE, 'events: []\nexpect:\n  queries:\n    temporl: { changelog: [] }\n');
    const d = problems(loadScenarioText('q.yaml', text));
    expect(d[0]!.message).toBe('expect.queries: no query named `temporl`');
    expect(d[0]!.hint).toContain('temporal');
    expect(`${d[0]!.line}:${d[0]!.col}`).toBe(posOf(text, 'temporl'));
  });

  it('keeps the expectation on a failed load, with the failing query named', () => {
    const r = loadScenarioText('q.yaml', file(`  ok: ${REGULAR}\n  bad: SELECT o.order_id FROM orders AS o JOIN nope AS r ON o.currency = r.currency\n`,
      'events: []\nexpect:\n  queries:\n    bad: { error: "nope" }\n'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.expect?.queries?.bad?.error).toBe('nope');
    expect(r.diagnostics.map((d) => d.query)).toEqual(['bad']);
  });
});

describe('the bundled side-by-side scenario', () => {
  it('loads with a regular, a temporal and a lookup join', async () => {
    const s = ok(await loadScenarioFile('scenarios/side-by-side-rate-change.yaml'));
    expect(s.queries.map((q) => `${q.name}:${q.plan.family}`)).toEqual(['regular:regular', 'temporal:temporal', 'lookup:lookup']);
    expect(Object.keys(s.expect?.queries ?? {})).toEqual(['regular', 'temporal', 'lookup']);
  });
});
