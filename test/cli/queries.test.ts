import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT, SPEC_EXAMPLES } from './helpers.js';

const SIDE = join(ROOT, 'scenarios/side-by-side-rate-change.yaml');

// Written by hand from Flink's semantics (see the scenario's description), not from joinstep's
// output; the order of o2 and o1 at the last rate change is what Flink 2.3 prints.
const REGULAR = [
  '+I[o1, 1.1000, 110.000000]',
  '-U[o1, 1.1000, 110.000000]',
  '+U[o1, 1.2000, 120.000000]',
  '+I[o2, 1.2000, 120.000000]',
  '-U[o2, 1.2000, 120.000000]',
  '-U[o1, 1.2000, 120.000000]',
  '+U[o2, 1.1500, 115.000000]',
  '+U[o1, 1.1500, 115.000000]',
];
const TEMPORAL = ['+I[o1, 1.1000, 110.000000]', '+I[o2, 1.1000, 110.000000]'];
const LOOKUP = ['+I[o1, 1.1000, 110.000000]', '+I[o2, 1.2000, 120.000000]'];

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-queries-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('joinstep run on a file with named queries', () => {
  it('prints each query under -- NAME, a blank line between blocks', () => {
    const r = cli(['run', SIDE]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(['-- regular', ...REGULAR, '', '-- temporal', ...TEMPORAL, '', '-- lookup', ...LOOKUP].join('\n') + '\n');
  });

  it('prints one query exactly as a single-query file with --query', () => {
    const r = cli(['run', SIDE, '--query', 'lookup']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(LOOKUP.join('\n') + '\n');
  });

  it('prints the results per query with --result', () => {
    const r = cli(['run', SIDE, '--result']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe([
      '-- regular', '[o1, 1.1500, 115.000000]', '[o2, 1.1500, 115.000000]', '',
      '-- temporal', '[o1, 1.1000, 110.000000]', '[o2, 1.1000, 110.000000]', '',
      '-- lookup', '[o1, 1.1000, 110.000000]', '[o2, 1.2000, 120.000000]',
    ].join('\n') + '\n');
  });

  it('adds "query" to each JSON object, for multi-query files only', () => {
    const all = cli(['run', SIDE, '--format', 'json']);
    expect(all.status).toBe(0);
    const objects = all.stdout.trim().split('\n').map((l) => JSON.parse(l) as { query?: string; op: string; row: Record<string, string | null> });
    expect(objects.map((o) => o.query)).toEqual([...REGULAR.map(() => 'regular'), ...TEMPORAL.map(() => 'temporal'), ...LOOKUP.map(() => 'lookup')]);
    expect(objects[1]).toMatchObject({ op: '-U', row: { order_id: 'o1', usd_rate: '1.1000', amount_usd: '110.000000' } });
    const one = cli(['run', SIDE, '--format', 'json', '--query', 'temporal']);
    expect(one.stdout.trim().split('\n').map((l) => 'query' in (JSON.parse(l) as object))).toEqual([false, false]);
    const single = cli(['run', join(SPEC_EXAMPLES, 'manual-watermarks-epoch.yaml'), '--format', 'json']);
    expect(single.stdout).not.toContain('"query"');
  });

  it('names the queries when --query names none of them', () => {
    const r = cli(['run', SIDE, '--query', 'interval']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("no query named 'interval'");
    expect(r.stderr).toContain('the queries are: regular, temporal, lookup');
  });

  it('reports a planning error inside one query as FILE:LINE:COL with exit 2', () => {
    // `\n    JOIN`: the query's line, not the description's mention of it.
    const text = readFileSync(SIDE, 'utf8').replace('\n    JOIN rates_db FOR', '\n    JOIN rates_dbx FOR');
    expect(text).toContain('rates_dbx');
    const path = tempFile('bad.yaml', text);
    const r = cli(['run', path]);
    expect(r.status).toBe(2);
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('rates_dbx FOR')) + 1;
    const col = lines[line - 1]!.indexOf('rates_dbx') + 1;
    expect(r.stderr.startsWith(`${path}:${line}:${col}: error: `)).toBe(true);
  });
});

describe('joinstep test on a file with named queries', () => {
  it('passes the bundled side-by-side scenario', () => {
    const r = cli(['test', SIDE]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`PASS ${SIDE}\n1 passed, 0 failed\n`);
  });

  it('reports a failure under the failing query, and the file once', () => {
    const text = readFileSync(SIDE, 'utf8').replace(/(temporal:\n {6}changelog:\n {8}- "\+I\[o1, 1\.1000, 110\.000000\]"\n {8}- )"\+I\[o2, 1\.1000, 110\.000000\]"/, '$1"+I[o2, 1.2000, 120.000000]"');
    expect(text).toContain('"+I[o2, 1.2000, 120.000000]"\n    lookup:');
    const path = tempFile('wrong.yaml', text);
    const r = cli(['test', path]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`FAIL ${path}\n  query temporal:\n    changelog (- expected, + actual):`);
    expect(r.stdout).toContain('- +I[o2, 1.2000, 120.000000]');
    expect(r.stdout).toContain('+ +I[o2, 1.1000, 110.000000]');
    expect(r.stdout).not.toContain('query regular:');
    expect(r.stdout).not.toContain('query lookup:');
    expect(r.stdout.endsWith('0 passed, 1 failed\n')).toBe(true);
  });

  it('passes a per-query error expectation only when that query fails with that text', () => {
    const base = readFileSync(SIDE, 'utf8');
    const start = base.indexOf('expect:');
    // The lookup query over the versioned Kafka table: Flink refuses a processing-time temporal join on it.
    const broken = base.slice(0, start).replace('\n    JOIN rates_db FOR SYSTEM_TIME AS OF o.proc_time', '\n    JOIN rates FOR SYSTEM_TIME AS OF o.proc_time')
      .replace(/^ {2}- \{ to: rates_db.*\n/gm, '');
    expect(broken).not.toContain('to: rates_db');
    const pass = tempFile('err.yaml', `${broken}expect:\n  queries:\n    lookup: { error: "Processing-time temporal join is not supported yet" }\n`);
    const ok = cli(['test', pass]);
    expect(ok.stdout).toContain(`PASS ${pass}`);
    expect(ok.status).toBe(0);
    const fail = tempFile('err2.yaml', `${broken}expect:\n  queries:\n    lookup: { error: "some other reason" }\n    regular: { changelog: [] }\n`);
    const bad = cli(['test', fail]);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('query lookup:\n    expected planning to fail with: some other reason');
    expect(bad.stdout).toContain('query regular:\n    not run: the file does not load');
  });
});

describe('joinstep explain on a file with named queries', () => {
  it('explains every query under its name', () => {
    const r = cli(['explain', SIDE]);
    expect(r.status).toBe(0);
    const blocks = r.stdout.split('\n\n-- ');
    expect(blocks).toHaveLength(3);
    expect(blocks[0]!.startsWith('-- regular\n')).toBe(true);
    expect(blocks[0]).toMatch(/family: regular/);
    expect(blocks[1]!.startsWith('temporal\n')).toBe(true);
    expect(blocks[1]).toMatch(/family: temporal/);
    expect(blocks[2]!.startsWith('lookup\n')).toBe(true);
    expect(blocks[2]).toMatch(/family: lookup/);
  });

  it('explains one query without a header with --query', () => {
    const r = cli(['explain', SIDE, '--query', 'temporal']);
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith('Side by side: does the converted amount follow a rate change?\n')).toBe(true);
    expect(r.stdout).toMatch(/family: temporal/);
    expect(r.stdout).not.toMatch(/family: (regular|lookup)/);
  });
});
