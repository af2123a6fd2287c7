/**
 * The spec's conformance examples must load; the planner-rejection example must fail with a
 * diagnostic inside its `sql` block that matches its own `expect.error`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { SPEC_EXAMPLES_DIR } from '../paths.js';

const EXAMPLES = SPEC_EXAMPLES_DIR;
const day = Date.UTC(2026, 9, 1);
const hm = (h: number, m: number) => day + (h * 60 + m) * 60_000;

describe('spec examples', () => {
  it('loads eur-order-0930.yaml with typed rows in column order', async () => {
    const r = await loadScenarioFile(join(EXAMPLES, 'eur-order-0930.yaml'));
    if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
    const s = r.scenario;
    expect(s.name).toBe('EUR order at 09:30 converted at the rate valid then');
    expect(s.date).toBe(day);
    expect(s.watermarks).toBe('manual');
    expect(s.flinkVersion).toBe('2.3');
    expect(s.partitions).toEqual({ orders: 1, rates: 1 });
    expect(s.queries).toHaveLength(1);
    expect(s.events.map((e) => e.kind)).toEqual(['row', 'row', 'row', 'note', 'watermark', 'watermark']);
    expect(s.events[0]).toMatchObject({ kind: 'row', table: 'rates', partition: 0, op: '+I', row: ['EUR', '1.1000', hm(9, 0)] });
    expect(s.events[2]).toMatchObject({ kind: 'row', table: 'orders', row: ['o1', 'EUR', '100.00', hm(9, 30)] });
    expect(s.events[3]).toMatchObject({ kind: 'note', note: "Nothing yet: the order waits until the join's watermark passes 09:30." });
    expect(s.events[4]).toEqual({ kind: 'watermark', table: 'orders', to: hm(10, 0), pos: { line: 31, col: 5 } });
    expect(s.events[4]).not.toHaveProperty('partition');
    expect(s.expect?.changelog).toEqual(['+I[o1, 2026-10-01T09:30, 110.000000]']);
  });

  it('loads manual-watermarks-epoch.yaml, leaving computed columns null', async () => {
    const r = await loadScenarioFile(join(EXAMPLES, 'manual-watermarks-epoch.yaml'));
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    const ev = r.scenario.events;
    expect(r.scenario.date).toBe(0);
    expect(ev[0]).toMatchObject({ kind: 'watermark', table: 'l', to: 0 });
    expect(ev[2]).toMatchObject({ kind: 'row', table: 'r', row: [2, 'k1', 'v2', null] });
    expect(ev[4]).toMatchObject({ kind: 'watermark', table: 'l', to: 5 });
  });

  it('loads print-format.yaml with every type', async () => {
    const r = await loadScenarioFile(join(EXAMPLES, 'print-format.yaml'));
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    const rows = r.scenario.events.filter((e) => e.kind === 'row').map((e) => (e.kind === 'row' ? e.row : []));
    expect(rows[0]).toEqual(['x', null]);
    expect(rows[1]).toEqual(['x', 7, 9000000000, '1.50', true, 0.1, hm(9, 30), hm(9, 30) + 15_250]);
    expect(rows[2]).toEqual(['x', -7, 0, '12.34', false, 1.0e10, hm(9, 30) + 15_250, hm(9, 30)]);
    expect(rows[3]).toEqual(['y', 1, null, null, null, null, null, null]);
  });

  it('fails error-no-primary-key.yaml with a planner diagnostic matching its expect.error', async () => {
    const path = join(EXAMPLES, 'error-no-primary-key.yaml');
    const r = await loadScenarioFile(path);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.name).toBe('Temporal join against a table without a primary key');
    expect(r.expect?.error).toBe('Temporal Table Join requires primary key in versioned table');
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0]!;
    expect(d.message).toContain(r.expect!.error!);
    // The planner points into the SQL block (file lines 5..16), never at 1:1.
    const lines = readFileSync(path, 'utf8').split('\n');
    const sqlFirst = lines.findIndex((l) => l.startsWith('sql:')) + 2;
    const sqlLast = lines.findIndex((l) => l.startsWith('events:'));
    expect(d.line).toBeGreaterThanOrEqual(sqlFirst);
    expect(d.line).toBeLessThanOrEqual(sqlLast);
    expect(d.col).toBeGreaterThanOrEqual(3);
  });
});
