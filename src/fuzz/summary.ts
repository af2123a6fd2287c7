/**
 * The fuzz run's table: family × flink-version → scenarios, agree, differ, not expressible, plus the
 * seeds that differ. Every scenario lands in exactly one column; nothing is skipped silently.
 */
import type { Family } from './model.js';

export type Verdict =
  /** joinstep and the reference agree (or, joinstep-only: it loaded, planned and ran cleanly). */
  | 'agree'
  /** Both rejected the query at planning time (joinstep-only: joinstep rejected it cleanly). */
  | 'rejected'
  | 'differ'
  /** The reference cannot run it (harness `notExpressible`): counted, with its reason. */
  | 'not-expressible'
  /** joinstep crashed or the generator wrote an invalid file: always a bug. */
  | 'crash';

export interface Tally {
  scenarios: number;
  agree: number;
  rejected: number;
  differ: number;
  notExpressible: number;
  crash: number;
  seeds: number[];
}

export class Summary {
  private readonly rows = new Map<string, Tally>();

  add(family: Family, version: string, verdict: Verdict, seed: number): void {
    const key = `${family}\t${version}`;
    const t = this.rows.get(key) ?? { scenarios: 0, agree: 0, rejected: 0, differ: 0, notExpressible: 0, crash: 0, seeds: [] };
    t.scenarios++;
    if (verdict === 'agree') t.agree++;
    else if (verdict === 'rejected') t.rejected++;
    else if (verdict === 'not-expressible') t.notExpressible++;
    else {
      if (verdict === 'differ') t.differ++;
      else t.crash++;
      t.seeds.push(seed);
    }
    this.rows.set(key, t);
  }

  tally(family: Family, version: string): Tally | undefined {
    return this.rows.get(`${family}\t${version}`);
  }

  get failures(): number {
    let n = 0;
    for (const t of this.rows.values()) n += t.differ + t.crash;
    return n;
  }

  /** A plain-text table, one row per family and version, sorted, with a total line. */
  format(): string {
    const head = ['family', 'version', 'scenarios', 'agree', 'both reject', 'differ', 'not expressible', 'crash', 'seeds that differ or crash'];
    const body = [...this.rows.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, t]) => {
      const [family, version] = key.split('\t');
      const seeds = t.seeds.slice(0, 8).join(' ') + (t.seeds.length > 8 ? ` (+${t.seeds.length - 8})` : '');
      return [family ?? '', version ?? '', t.scenarios, t.agree, t.rejected, t.differ, t.notExpressible, t.crash, seeds].map(String);
    });
    const total = [...this.rows.values()].reduce(
      (s, t) => ({ n: s.n + t.scenarios, a: s.a + t.agree, r: s.r + t.rejected, d: s.d + t.differ, x: s.x + t.notExpressible, c: s.c + t.crash }),
      { n: 0, a: 0, r: 0, d: 0, x: 0, c: 0 });
    body.push(['total', '', total.n, total.a, total.r, total.d, total.x, total.c, ''].map(String));
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
    const line = (cells: readonly string[]) => cells.map((c, i) => (i >= 2 && i <= 7 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
    return [line(head), ...body.map(line)].join('\n');
  }
}
