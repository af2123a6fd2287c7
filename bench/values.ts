/**
 * Micro-benchmarks of the value layer, for `npm run bench` (bench/run.ts calls benchValues()).
 * Targets: ≥ 5M simple expression evaluations/s; DECIMAL multiply+rescale about 50-150 ms per 1e6.
 */
import type { TExpr } from '../src/planner/plan.js';
import * as D from '../src/values/decimal.js';
import { compileExpr, type EvalContext } from '../src/values/eval.js';
import { formatRow } from '../src/values/format.js';
import type { Row, SqlType } from '../src/values/types.js';

export interface BenchResult {
  readonly name: string;
  readonly ops: number;
  readonly ms: number;
  readonly opsPerSec: number;
}

const T = (kind: SqlType['kind'], precision?: number, scale?: number): SqlType => ({ kind, nullable: true, precision, scale });
const col = (index: number, type: SqlType): TExpr => ({ k: 'col', type, index, name: `c${index}` });
const call = (fn: string, type: SqlType, ...args: TExpr[]): TExpr => ({ k: 'call', fn, type, args });

function time(name: string, ops: number, body: () => void): BenchResult {
  body(); // warm-up run, also lets the JIT settle
  const t0 = performance.now();
  body();
  const ms = performance.now() - t0;
  return { name, ops, ms, opsPerSec: Math.round((ops / ms) * 1000) };
}

export function benchValues(n = 1_000_000): BenchResult[] {
  const ctx: EvalContext = { procTime: 0, timeZone: 'UTC' };
  const rows: Row[] = [];
  for (let i = 0; i < 1000; i++) {
    rows.push([i, i % 7 === 0 ? null : i * 3, `k${i % 50}`, (i % 997 + 0.25).toFixed(2), ((i * 7) % 10007 / 10000).toFixed(4), i * 1000]);
  }
  const INT = T('INT');
  const BOOL = T('BOOLEAN');
  const filter = compileExpr(
    call('AND', BOOL, call('>', BOOL, col(0, INT), col(1, INT)), call('=', BOOL, col(2, T('STRING')), { k: 'lit', type: T('STRING'), value: 'k3' })),
  );
  const mul = compileExpr(call('*', T('DECIMAL', 21, 6), col(3, T('DECIMAL', 10, 2)), col(4, T('DECIMAL', 10, 4))));
  const a = D.parseDec('123.45') as D.Dec;
  const b = D.parseDec('1.1000') as D.Dec;
  const types = [INT, INT, T('STRING'), T('DECIMAL', 10, 2), T('DECIMAL', 10, 4), T('TIMESTAMP', 3)];
  let sink = 0;
  const results = [
    time('eval: a > b AND k = literal', n, () => {
      for (let i = 0; i < n; i++) if (filter(rows[i % 1000] as Row, ctx) === true) sink++;
    }),
    time('eval: DECIMAL(10,2) * DECIMAL(10,4) → (21,6) from row text', n, () => {
      for (let i = 0; i < n; i++) if (mul(rows[i % 1000] as Row, ctx) !== null) sink++;
    }),
    time('decimal: multiply + rescale (pre-parsed)', n, () => {
      for (let i = 0; i < n; i++) if (D.toType(D.multiply(a, b), 21, 6) !== null) sink++;
    }),
    time('format: +I row of 6 values', n / 10, () => {
      for (let i = 0; i < n / 10; i++) sink += formatRow('+I', rows[i % 1000] as Row, types).length;
    }),
  ];
  if (sink < 0) throw new Error('unreachable');
  return results;
}
