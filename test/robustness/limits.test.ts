/**
 * Limits instead of stack overflows: YAML nesting, SQL nesting in FROM, one value's size and the
 * file's size each stop with `FILE:LINE:COL: error:` naming the limit, and a hint; at the limit
 * the file still loads. None ends as "maximum call stack size exceeded" or an internal error.
 */
import { closeSync, mkdtempSync, openSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { loadScenarioFile, loadScenarioText } from '../../src/scenario/load.js';
import { fileSizeProblem, MAX_FILE_BYTES, MAX_VALUE_CHARS } from '../../src/scenario/limits.js';
import { MAX_YAML_DEPTH, yamlTooDeep } from '../../src/scenario/yaml-depth.js';
import { MAX_DEPTH } from '../../src/sql/depth.js';
import type { Diagnostic } from '../../src/scenario/types.js';

const SQL = `sql: |
  CREATE TABLE l (k STRING, v STRING) WITH ('connector' = 'datagen');
  CREATE TABLE r (k STRING) WITH ('connector' = 'datagen');
  SELECT l.k, l.v FROM l JOIN r ON l.k = r.k;
`;

function diagnostics(text: string): readonly Diagnostic[] {
  const r = loadScenarioText('f.yaml', text);
  return r.ok ? [] : r.diagnostics;
}

const DEPTH_MESSAGE = `YAML nested more than ${MAX_YAML_DEPTH} levels deep`;
const depthError = (ds: readonly Diagnostic[]) => ds.find((d) => d.message.includes(DEPTH_MESSAGE));

/** Nesting forms, each `levels` deep counting the top-level map: the text and where level limit+1 opens. */
const FORMS: Record<string, (levels: number) => { text: string; deepest: { line: number; col: number } }> = {
  'flow lists': (n) => ({ text: `name: x\nevents: ${'['.repeat(n - 1)}${']'.repeat(n - 1)}\n`, deepest: { line: 2, col: 9 + MAX_YAML_DEPTH - 1 } }),
  'flow maps': (n) => ({ text: `name: x\nevents: ${'{a: '.repeat(n - 1)}1${'}'.repeat(n - 1)}\n`, deepest: { line: 2, col: 9 + 4 * (MAX_YAML_DEPTH - 1) } }),
  'block lists on one line': (n) => ({ text: `name: x\nevents:\n${'- '.repeat(n - 1)}x\n`, deepest: { line: 3, col: 1 + 2 * (MAX_YAML_DEPTH - 1) } }),
  'block maps by indentation': (n) => ({
    text: `name: x\n${Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1\n`,
    deepest: { line: 2 + MAX_YAML_DEPTH, col: 1 + MAX_YAML_DEPTH },
  }),
};

describe('YAML nesting', () => {
  for (const [form, make] of Object.entries(FORMS)) {
    it(`${form}: ${MAX_YAML_DEPTH} levels load past the YAML stage; one more is a clear error at the level that opens it`, () => {
      const at = make(MAX_YAML_DEPTH);
      expect(yamlTooDeep(at.text)).toBeUndefined();
      // At the limit the yaml library itself copes: no call-stack error, no depth error from us.
      expect(parseDocument(at.text).errors.map((e) => e.message).join()).not.toMatch(/call stack/i);
      expect(depthError(diagnostics(at.text))).toBeUndefined();
      const past = make(MAX_YAML_DEPTH + 1);
      const ds = diagnostics(past.text);
      expect(ds).toHaveLength(1);
      expect(ds[0]).toMatchObject({ ...past.deepest, message: expect.stringContaining(DEPTH_MESSAGE), hint: expect.stringContaining('never closed') });
    });
  }

  it('790, 2,000 and 20,000 levels: the same error, never a call stack or a crash', () => {
    for (const n of [790, 2000, 20_000]) {
      for (const make of Object.values(FORMS)) {
        const { text, deepest } = make(n);
        const ds = diagnostics(text);
        expect(ds).toHaveLength(1);
        expect(ds[0]).toMatchObject(deepest);
        expect(ds[0]!.message).toContain(DEPTH_MESSAGE);
      }
    }
  });

  it('brackets in quoted values, comments, notes and the SQL block do not count', () => {
    const many = '['.repeat(3 * MAX_YAML_DEPTH);
    const text = [
      'name: "' + many + '"',
      `description: '${many} it''s ${'{'.repeat(MAX_YAML_DEPTH * 2)}'`,
      `# ${many}`,
      'sql: |',
      `  -- ${many} ${'('.repeat(MAX_YAML_DEPTH * 2)}`,
      "  CREATE TABLE l (k STRING, v STRING) WITH ('connector' = 'datagen');",
      "  CREATE TABLE r (k STRING) WITH ('connector' = 'datagen');",
      '  SELECT l.k, l.v FROM l JOIN r ON l.k = r.k;',
      'events:',
      `  - { to: l, row: { k: a, v: "${many}" }, note: 'it''s ${many}' }  # ${many}`,
      `  - { to: r, row: { k: "a\\"${many}" } }`,
      `  - note: plain text with [brackets] and {braces} ${many}`,
      '',
    ].join('\n');
    expect(yamlTooDeep(text)).toBeUndefined();
    expect(diagnostics(text)).toEqual([]);
  });

  it('the bundled one-line event form is a few levels deep, however many events', () => {
    const events = Array.from({ length: 2000 }, (_, i) => `  - { to: l, row: { k: k${i}, v: "v[${i}]" }, note: "n {${i}}" }`).join('\n');
    // The top-level map, the events list, `- `, the event's map, its row's map: five.
    expect(yamlTooDeep(`name: x\n${SQL}events:\n${events}\n`, 5)).toBeUndefined();
    expect(yamlTooDeep(`name: x\n${SQL}events:\n${events}\n`, 4)).toBeDefined();
  });
});

describe('SQL nesting in FROM', () => {
  const file = (brackets: number) =>
    `name: x\nsql: |\n  CREATE TABLE t (a INT) WITH ('connector' = 'datagen');\n  SELECT t.a FROM ${'('.repeat(brackets)}t${')'.repeat(brackets)} JOIN t AS u ON t.a = u.a;\nevents: []\n`;
  const limit = `joinstep does not support SQL nested more than ${MAX_DEPTH} levels deep`;

  it(`a table inside ${MAX_DEPTH - 1} brackets plans (the query itself is one level)`, () => {
    expect(diagnostics(file(MAX_DEPTH - 1))).toEqual([]);
  });

  it(`${MAX_DEPTH} brackets, 1,900 and 20,000: the limit, at the bracket past it, never an internal error`, () => {
    for (const n of [MAX_DEPTH, 1900, 20_000]) {
      const ds = diagnostics(file(n));
      expect(ds).toHaveLength(1);
      expect(ds[0]!.message).toBe(limit);
      expect(ds[0]!.hint).toContain('brackets');
      // Line 4 of the file; the SQL line starts at column 3 and `SELECT t.a FROM ` is 16 characters;
      // the query is level 1, bracket k opens level k + 1: what follows bracket MAX_DEPTH is past it.
      expect(ds[0]).toMatchObject({ line: 4, col: 3 + 16 + MAX_DEPTH });
    }
  });
});

describe('value size', () => {
  const withValue = (v: string) => `name: x\n${SQL}events:\n  - { to: l, row: { k: a, v: "${v}" } }\n`;

  it(`a value of ${MAX_VALUE_CHARS.toLocaleString('en-US')} characters loads; one more is an error at the value, naming the limit`, () => {
    expect(diagnostics(withValue('x'.repeat(MAX_VALUE_CHARS)))).toEqual([]);
    const ds = diagnostics(withValue('x'.repeat(MAX_VALUE_CHARS + 1)));
    expect(ds).toEqual([
      {
        file: 'f.yaml',
        line: 7,
        col: 30,
        message: `column \`v\`: this value is 1,048,577 characters long, over joinstep's limit of 1,048,576 (1 MiB) for one value`,
        hint: expect.stringContaining('shorten it'),
      },
    ]);
  });

  it('a number too long for any column type is stopped by the same limit, not quoted in full', () => {
    const text = `name: x\nsql: |\n  CREATE TABLE l (k BIGINT) WITH ('connector' = 'datagen');\n  CREATE TABLE r (k BIGINT) WITH ('connector' = 'datagen');\n  SELECT l.k FROM l JOIN r ON l.k = r.k;\nevents:\n  - { to: l, row: { k: ${'9'.repeat(MAX_VALUE_CHARS + 1)} } }\n`;
    const ds = diagnostics(text);
    expect(ds).toHaveLength(1);
    expect(ds[0]!.message).toContain("over joinstep's limit of 1,048,576");
    expect(ds[0]!.message.length).toBeLessThan(200);
  });

  it('a note past the limit', () => {
    const ds = diagnostics(`name: x\n${SQL}events:\n  - { note: "${'n'.repeat(MAX_VALUE_CHARS + 1)}" }\n`);
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ line: 7, col: 13, message: expect.stringContaining("note: this value is 1,048,577 characters long, over joinstep's limit") });
  });
});

describe('file size', () => {
  it('the limit itself is allowed, one byte more is not', () => {
    expect(fileSizeProblem(MAX_FILE_BYTES)).toBeUndefined();
    expect(fileSizeProblem(MAX_FILE_BYTES + 1)?.message).toContain("over joinstep's limit of 268,435,456 bytes (256 MiB)");
  });

  it(`a file over ${MAX_FILE_BYTES / 1024 / 1024} MiB is refused at 1:1 before it is read`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-limits-'));
    const path = join(dir, 'huge.yaml');
    // A sparse file: its size is real, its blocks are never written, and joinstep never reads it.
    const fd = openSync(path, 'w');
    ftruncateSync(fd, MAX_FILE_BYTES + 1);
    closeSync(fd);
    const r = await loadScenarioFile(path);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics).toEqual([
      {
        file: path,
        line: 1,
        col: 1,
        message: "the file is 268,435,457 bytes (257 MiB), over joinstep's limit of 268,435,456 bytes (256 MiB) for a scenario file",
        hint: expect.stringContaining('split'),
      },
    ]);
  });
});
