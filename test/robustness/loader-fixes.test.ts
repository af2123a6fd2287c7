/**
 * Regression tests for the loader bugs the fuzzers found (src/scenario): times beyond what a Date
 * holds, a BOM on line 1, raw control characters in messages, huge partition counts, YAML alias
 * lists that loaded in quadratic time, the hint for `"x"#c`, and files that are not UTF-8 text.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Alias } from 'yaml';
import { formatDiagnostic } from '../../src/scenario/diagnostic.js';
import { loadScenarioFile, loadScenarioText } from '../../src/scenario/load.js';
import type { Diagnostic, Scenario } from '../../src/scenario/types.js';
import { checkScenarioText } from './check.js';

const SQL = [
  'sql: |',
  "  CREATE TABLE a (k STRING, ts TIMESTAMP(3), d DATE, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka');",
  "  CREATE TABLE b (k STRING) WITH ('connector' = 'kafka');",
  '  SELECT a.k FROM a JOIN b ON a.k = b.k;',
];

function file(events: readonly string[], top: readonly string[] = []): string {
  return ['name: r', ...top, ...SQL, 'events:', ...events.map((e) => `  - ${e}`), ''].join('\n');
}

function loaded(text: string): Scenario {
  const r = loadScenarioText('f.yaml', text);
  if (!r.ok) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
  return r.scenario;
}

function rejected(text: string): readonly Diagnostic[] {
  const r = loadScenarioText('f.yaml', text);
  if (r.ok) throw new Error('expected the file to be rejected, but it loaded');
  return r.diagnostics;
}

/** The 1-based line and column of the first `needle` in the text. */
function at(text: string, needle: string): { line: number; col: number } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  return { line: line + 1, col: lines[line]!.indexOf(needle) + 1 };
}

describe('integers past 2^53 are quoted as written, and said to be out of range', () => {
  it.each([
    ['a row timestamp', '{ to: a, row: { k: x, ts: 9223372036854775807 } }', 'column `ts`: "9223372036854775807" is not a time'],
    ['a watermark', '{ watermark: a, to: -9223372036854775808 }', 'watermark to: "-9223372036854775808" is not a time'],
    ['an at', '{ at: 9007199254740993, note: far }', 'at: "9007199254740993" is not a time'],
  ])('%s', (_what, event, start) => {
    const [d, ...rest] = rejected(file([event]));
    expect(rest).toEqual([]);
    expect(d!.message).toBe(`${start}: as epoch milliseconds it is far outside the years 0001 to 9999`);
  });

  it('a duration', () => {
    const text = file(['{ advance: 99999999999999999999 }'], ['config:', '  table.exec.state.ttl: 9223372036854775807']);
    expect(rejected(text).map((d) => d.message)).toEqual([
      'table.exec.state.ttl: 9223372036854775807 is too long a duration',
      'advance: 99999999999999999999 is too long a duration',
    ]);
  });
});

describe('times outside the years 0001-9999 (clock-text-nan)', () => {
  it('the fuzzer repro: a far-future `at` is rejected where it is written, never shown as NaN', () => {
    const text = file(['{ at: 9007199254740991, note: far }', '{ at: "10:00", note: back }']);
    const [d, ...rest] = rejected(text);
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ ...at(text, '9007199254740991'), message: 'at: 9007199254740991 ms is outside the years 0001 to 9999' });
    expect(d!.hint).toContain('9999-12-31');
    expect(formatDiagnostic(d!)).not.toContain('NaN');
    expect(checkScenarioText(text, true).problems).toEqual([]);
  });

  it('the first and last millisecond of the range are accepted, one past either is not', () => {
    expect(loaded(file(['{ at: "9999-12-31 23:59:59.999", note: n }'])).events[0]!.at).toBe(253_402_300_799_999);
    expect(loaded(file(['{ at: -62135596800000, note: n }'])).events[0]!.at).toBe(-62_135_596_800_000);
    expect(rejected(file(['{ at: 253402300800000, note: n }']))[0]!.message).toContain('outside the years');
    expect(rejected(file(['{ at: -62135596800001, note: n }']))[0]!.message).toContain('outside the years');
  });

  it('`advance` that pushes the clock past 9999 is rejected at the advance', () => {
    const text = file(['{ at: "9999-12-31 23:59", note: n }', '{ advance: 2 min }']);
    const [d] = rejected(text);
    expect(d).toMatchObject(at(text, '2 min'));
    expect(d!.message).toMatch(/^advance: .*past the year 9999/);
  });

  it('watermark `to` and row timestamps / dates out of range are rejected at the value', () => {
    const wm = file(['{ watermark: a, to: 9007199254740991 }']);
    expect(rejected(wm)[0]).toMatchObject({ ...at(wm, '9007199254740991'), message: 'watermark to: 9007199254740991 ms is outside the years 0001 to 9999' });
    const row = file(['{ to: a, row: { k: x, ts: 8640000000000000 } }']);
    expect(rejected(row)[0]).toMatchObject({ ...at(row, '8640000000000000'), message: 'column `ts`: 8640000000000000 is outside the years 0001 to 9999' });
    expect(loaded(file(['{ to: a, row: { k: x, ts: "2026-10-01 10:00", d: "9999-12-31" } }'])).events).toHaveLength(1);
    expect(loaded(file(['{ watermark: a, to: max }'])).events[0]).toMatchObject({ kind: 'watermark', to: 'max' });
  });
});

describe('a UTF-8 BOM on line 1', () => {
  it('is not a column: a mistake at the start of line 1 is at 1:1', () => {
    const [d] = rejected('\ufeffnmae: x\r\nsql: |\r\n  SELECT 1\r\nevents: []\r\n');
    expect(d).toMatchObject({ line: 1, col: 1 });
    expect(d!.message).toContain('nmae');
  });

  it('a valid file with a BOM loads as without it', () => {
    const text = file(['{ to: a, row: { k: x } }']);
    expect(loaded(`\ufeff${text}`).events).toEqual(loaded(text).events);
  });
});

describe('control and bidi characters in diagnostics (raw-control-characters)', () => {
  it('the fuzzer repro: an ESC in a table name is shown escaped, not sent to the terminal', () => {
    const text = file(['{ to: "a\\e[2J", row: { k: x } }']);
    const shown = rejected(text).map(formatDiagnostic).join('\n');
    expect(shown).toContain('a\\u001b[2J');
    expect(shown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(checkScenarioText(text, true).problems).toEqual([]);
  });

  it('formatDiagnostic escapes message and hint, keeps visible text and line breaks', () => {
    const d: Diagnostic = { file: 'f.yaml', line: 2, col: 3, message: 'unknown table `x\u202ey\u0007`\nsecond line é😀', hint: 'did you mean `\u001b[31m`?' };
    expect(formatDiagnostic(d)).toBe('f.yaml:2:3: error: unknown table `x\\u202ey\\u0007`\nsecond line é😀\nhint: did you mean `\\u001b[31m`?');
  });
});

describe('partition counts (huge-partitions)', () => {
  it('the fuzzer repro: 2147483648 partitions is rejected at the count, with a hint', () => {
    const text = file(['{ to: a, row: { k: x } }'], ['partitions: { a: 2147483648 }']);
    const [d] = rejected(text);
    expect(d).toMatchObject({ ...at(text, '2147483648'), message: 'partitions of a must be at most 256, not 2147483648' });
    expect(d!.hint).toBeTruthy();
  });

  it('256 is allowed, 257 is not', () => {
    expect(loaded(file(['{ to: a, row: { k: x }, partition: 255 }'], ['partitions: { a: 256 }'])).partitions['a']).toBe(256);
    expect(rejected(file([], ['partitions: { a: 257 }']))[0]!.message).toContain('at most 256');
  });
});

describe('YAML aliases', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a long list of aliases loads without resolving each alias by walking the document', () => {
    // Alias.resolve walks the whole document per call: 10,000 of them took about 10 s
    const resolve = vi.spyOn(Alias.prototype, 'resolve');
    const n = 2000;
    const s = loaded(file(['&e0 { to: a, row: { k: x } }', ...Array.from({ length: n }, () => '*e0')]));
    expect(s.events).toHaveLength(n + 1);
    expect(s.events.every((e) => e.kind === 'row' && e.row[0] === 'x')).toBe(true);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('an alias names the latest anchor of its name before it, as in YAML', () => {
    const s = loaded(file(['&e { to: a, row: { k: x } }', '*e', '&e { to: a, row: { k: y } }', '*e']));
    expect(s.events.map((e) => (e.kind === 'row' ? e.row[0] : undefined))).toEqual(['x', 'x', 'y', 'y']);
  });

  it('an alias to an unknown anchor is still reported', () => {
    expect(rejected(file(['*nope'])).length).toBeGreaterThan(0);
  });
});

describe('the hint for a comment with no space before it', () => {
  it('`name: "x"#c` says to put a space before `#`, not to close the quote', () => {
    const [d] = rejected('name: "x"#c\nevents: []\n');
    expect(d!.hint).toMatch(/space before `#`/);
    expect(d!.hint).not.toMatch(/close the quote/);
  });

  it('an unclosed quote still says to close it', () => {
    expect(rejected('name: "x\n')[0]!.hint).toMatch(/close the quote/);
  });
});

describe('files that are not UTF-8 text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-loader-fixes-'));
  const write = (name: string, bytes: Buffer): string => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const text = file(['{ to: a, row: { k: x } }']);

  it.each([
    ['UTF-16 LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), /UTF-16/],
    ['UTF-16 BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]), /UTF-16/],
    ['a NUL byte', Buffer.concat([Buffer.from(text), Buffer.from([0])]), /UTF-8/],
    ['invalid UTF-8 (Latin-1 é)', Buffer.from(`name: caf\xe9\n`, 'latin1'), /UTF-8/],
  ])('%s: "not a UTF-8 text file" at 1:1 with a hint', async (_name, bytes, hint) => {
    const path = write(`${_name.replace(/\W+/g, '-')}.yaml`, bytes);
    const r = await loadScenarioFile(path);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics).toEqual([{ file: path, line: 1, col: 1, message: 'not a UTF-8 text file', hint: expect.stringMatching(hint) }]);
  });

  it('UTF-8 with and without a BOM, and with non-ASCII text, loads', async () => {
    const plain = await loadScenarioFile(write('plain.yaml', Buffer.from(text.replace('name: r', 'name: café 😀'))));
    const bom = await loadScenarioFile(write('bom.yaml', Buffer.from(`\ufeff${text}`)));
    expect(plain.ok && plain.scenario.name).toBe('café 😀');
    expect(bom.ok).toBe(true);
  });
});
