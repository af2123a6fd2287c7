/**
 * Regression tests for the bugs the fuzzers found in src/values, each at the unit and at the
 * scenario level (what a user would see).
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/engine/run.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import { isCastSupported } from '../../src/values/cast.js';
import { parseValue } from '../../src/values/literal.js';
import { resolveZone } from '../../src/values/zone.js';
import { compileExpr } from '../../src/values/eval.js';
import { SqlRuntimeError } from '../../src/values/sql-error.js';
import { parseDuration, parseTimeLiteral } from '../../src/values/time.js';
import { call, cast, col, INT, lit, STR, T, TS } from '../values/texpr.js';
import { checkScenarioText } from './check.js';

const CTX = { dateMs: 0, timeZone: 'UTC' };

function scenario(select: string, events: readonly string[]): string {
  return [
    'name: regression',
    'sql: |',
    "  CREATE TABLE a (k STRING, n INT, ts TIMESTAMP(3)) WITH ('connector' = 'kafka');",
    "  CREATE TABLE b (k STRING) WITH ('connector' = 'kafka');",
    `  SELECT ${select} FROM a JOIN b ON a.k = b.k;`,
    'events:',
    ...events.map((e) => `  - ${e}`),
    '',
  ].join('\n');
}

describe('non-finite YAML numbers in time and duration messages', () => {
  // `at: .inf` reached the message as "Infinity", `.nan` as "NaN": JavaScript's text, not the file's
  it.each([
    [Infinity, '.inf'],
    [-Infinity, '-.inf'],
    [NaN, '.nan'],
  ])('parseTimeLiteral(%s) names it %s', (n, shown) => {
    const r = parseTimeLiteral(n, CTX);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toContain(`"${shown}"`);
    expect(r.message).not.toMatch(/Infinity|NaN/);
  });

  it.each([
    [Infinity, '.inf'],
    [NaN, '.nan'],
  ])('parseDuration(%s) names it %s', (n, shown) => {
    const r = parseDuration(n);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message.startsWith(`${shown} is not a duration`)).toBe(true);
  });

  it('finite numbers keep their text', () => {
    const r = parseTimeLiteral(1.5, CTX);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('"1.5"');
  });

  it.each(['{ at: .inf, note: x }', '{ at: -.inf, note: x }', '{ at: .nan, note: x }', '{ advance: .inf }', '{ advance: .nan }'])(
    'the loader reports %s at the value with the YAML spelling',
    (event) => {
      const text = scenario('a.k', [event]);
      const r = loadScenarioText('f.yaml', text);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      const d = r.diagnostics[0]!;
      expect(d.line).toBe(7);
      expect(d.message).not.toMatch(/Infinity|NaN/);
      expect(d.message).toMatch(/\.inf|\.nan/);
      expect(checkScenarioText(text, true).problems).toEqual([]);
    },
  );
});

describe('text functions given a value of another type', () => {
  const row = [7, 'x', 0];
  const run = (e: ReturnType<typeof call>) => compileExpr(e)(row, { procTime: 0, timeZone: 'UTC' });

  // TO_TIMESTAMP(INT) crashed with "s.trim is not a function"; CHAR_LENGTH(7) was 0
  it.each([
    ['TO_TIMESTAMP', [col(0, INT)], 'TO_TIMESTAMP(<NUMERIC>)'],
    ['TO_TIMESTAMP', [col(2, TS)], 'TO_TIMESTAMP(<TIMESTAMP>)'],
    ['UNIX_TIMESTAMP', [col(2, TS)], 'UNIX_TIMESTAMP(<TIMESTAMP>)'],
    ['CHAR_LENGTH', [col(0, INT)], 'CHAR_LENGTH(<NUMERIC>)'],
    ['SUBSTRING', [col(0, INT), lit(1, INT)], 'SUBSTRING(<NUMERIC>, <NUMERIC>)'],
    ['UPPER', [col(0, INT)], 'UPPER(<NUMERIC>)'],
    ['DATE_FORMAT', [col(0, INT), lit('yyyy', STR)], 'DATE_FORMAT(<NUMERIC>, <CHARACTER>)'],
    ['DATE_FORMAT', [col(2, TS), col(0, INT)], 'DATE_FORMAT(<TIMESTAMP>, <NUMERIC>)'],
  ] as const)('%s(%s) is refused with Calcite\'s wording', (fn, args, signature) => {
    const e = call(fn, STR, ...args);
    expect(() => compileExpr(e)).toThrow(SqlRuntimeError);
    expect(() => compileExpr(e)).toThrow(`No match found for function signature ${signature}`);
  });

  it('the signatures Flink accepts still evaluate', () => {
    expect(run(call('CHAR_LENGTH', INT, col(1, STR)))).toBe(1);
    expect(run(call('UPPER', STR, col(1, STR)))).toBe('X');
    expect(run(call('DATE_FORMAT', STR, col(2, TS), lit('yyyy', STR)))).toBe('1970');
    expect(run(call('DATE_FORMAT', STR, lit(0, T('DATE')), lit('yyyy', STR)))).toBe('1970');
    expect(run(call('TO_TIMESTAMP', TS, lit('2026-10-01 09:30:00', STR)))).toBe(Date.UTC(2026, 9, 1, 9, 30));
    expect(run(call('TO_TIMESTAMP', TS, lit(null, T('NULL'))))).toBe(null);
  });

  it('a scenario using TO_TIMESTAMP on an INT fails as a user error, never a TypeError', () => {
    const text = scenario('TO_TIMESTAMP(a.n) AS t', ['{ to: b, row: { k: x } }', '{ to: a, row: { k: x, n: 1 } }']);
    const loaded = loadScenarioText('f.yaml', text);
    if (!loaded.ok) {
      // once the planner rejects the call itself, this is where it shows
      expect(loaded.diagnostics[0]!.message).toContain('TO_TIMESTAMP');
      return;
    }
    expect(() => runScenario(loaded.scenario)).toThrow(SqlRuntimeError);
    expect(checkScenarioText(text, true).problems).toEqual([]);
  });
});

describe('SUBSTRING at the edges, as Flink\'s BinaryStringDataUtil.substringSQL', () => {
  const ev = (...args: ReturnType<typeof lit>[]) => compileExpr(call('SUBSTRING', STR, ...args))([], { procTime: 0, timeZone: 'UTC' });
  const s = lit('abc', STR);

  // a start before the first character was clamped to 1: SUBSTRING('abc', -5, 2) gave 'ab'
  it('a negative start before the beginning gives the empty string', () => {
    expect(ev(s, lit(-5, INT), lit(2, INT))).toBe('');
    expect(ev(s, lit(-4, INT))).toBe('');
  });

  it('a negative length gives NULL', () => {
    expect(ev(s, lit(2, INT), lit(-1, INT))).toBe(null);
  });

  it('the ordinary cases are unchanged', () => {
    expect(ev(s, lit(-3, INT))).toBe('abc');
    expect(ev(s, lit(-2, INT), lit(1, INT))).toBe('b');
    expect(ev(s, lit(0, INT), lit(2, INT))).toBe('ab');
    expect(ev(s, lit(4, INT))).toBe('');
    expect(ev(s, lit(3, INT), lit(99, INT))).toBe('c');
    expect(ev(s, lit(1, INT), lit(0, INT))).toBe('');
    expect(ev(lit('a😀b', STR), lit(2, INT), lit(1, INT))).toBe('😀');
  });
});

describe('isCastSupported: for the planner to reject impossible casts at plan time', () => {
  it('knows the casts Flink has and the ones it has not', () => {
    expect(isCastSupported(T('BOOLEAN'), TS)).toBe(false);
    expect(isCastSupported(TS, INT)).toBe(false);
    expect(isCastSupported(T('BIGINT'), T('DATE'))).toBe(false);
    expect(isCastSupported(STR, INT)).toBe(true);
    expect(isCastSupported(INT, STR)).toBe(true);
    expect(isCastSupported(T('DECIMAL', 10, 2), T('BOOLEAN'))).toBe(true);
    expect(isCastSupported(STR, TS)).toBe(true);
  });
});

describe('invisible characters in value messages are escaped', () => {
  const RAW = /[\p{Cc}\p{Cf}\p{Cs}]/u;
  const scalar = (text: string) => ({ text, yamlType: 'string' as const, quoted: true });
  const shown = (r: { ok: true } | { ok: false; message: string; hint?: string }) => (r.ok ? '' : `${r.message}\n${r.hint ?? ''}`);

  // "column `ts`: "\x1b[2J" is not a time" cleared the terminal when printed
  it('parseValue, parseTimeLiteral, parseDuration, resolveZone', () => {
    const texts = [
      shown(parseValue(TS, scalar('\x1b[2J'), CTX)),
      shown(parseValue(T('DECIMAL', 10, 2), scalar('\u202e1'), CTX)),
      shown(parseValue(INT, scalar('\u0000'), CTX)),
      shown(parseTimeLiteral('09:\u200b30', CTX)),
      shown(parseDuration('5 \x07s')),
      shown(resolveZone('Europe/\x1b')),
    ];
    for (const t of texts) {
      expect(t).not.toBe('');
      expect(t.split('\n')[0]).not.toMatch(RAW);
      expect(t).toMatch(/\\u(001b|202e|0000|200b|0007)/);
    }
  });

  it('a failed CAST of a row value', () => {
    const f = compileExpr(cast(col(0, STR), INT));
    expect(() => f(['\x1b[2J'], { procTime: 0, timeZone: 'UTC' })).toThrow("Cannot cast '\\u001b[2J' to INT");
  });

  it('visible text is unchanged', () => {
    expect(shown(parseValue(INT, scalar('é😀'), CTX))).toContain('"é😀"');
  });
});
