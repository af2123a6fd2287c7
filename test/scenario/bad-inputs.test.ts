/**
 * Every file in test/fixtures/bad/ is a scenario that must fail to load. Its first line says
 * where and what: `# expect-error: LINE:COL: <substring of the message>`, and an optional second
 * line `# expect-hint: <substring of the hint>`. The planner's rejection fixtures share the folder.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/scenario/diagnostic.js';
import { loadScenarioFile } from '../../src/scenario/load.js';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'bad');

interface Header {
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly hint?: string;
}

function readHeader(text: string): Header | string {
  const [first = '', second = ''] = text.split('\n');
  const m = /^# expect-error: (\d+):(\d+): (.+)$/.exec(first.trimEnd());
  if (!m) return 'first line must be `# expect-error: LINE:COL: <message substring>`';
  const h = /^# expect-hint: (.+)$/.exec(second.trimEnd());
  const base = { line: Number(m[1]), col: Number(m[2]), message: m[3]! };
  return h ? { ...base, hint: h[1]! } : base;
}

const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
  .sort();

describe('bad-input fixtures', () => {
  it('has the fixtures this suite promises', () => {
    expect(files.length).toBeGreaterThanOrEqual(22);
  });

  it.each(files)('%s', async (name) => {
    const path = join(DIR, name);
    const header = readHeader(readFileSync(path, 'utf8'));
    if (typeof header === 'string') throw new Error(`${name}: ${header}`);
    const result = await loadScenarioFile(path);
    expect(result.ok, `${name} loaded, but it should fail`).toBe(false);
    if (result.ok) return;
    const first = result.diagnostics[0]!;
    const shown = result.diagnostics.map(formatDiagnostic).join('\n');
    expect(`${first.line}:${first.col}`, shown).toBe(`${header.line}:${header.col}`);
    expect(first.message, shown).toContain(header.message);
    if (header.hint !== undefined) expect(first.hint ?? '', shown).toContain(header.hint);
    for (const d of result.diagnostics) {
      expect(d.file).toBe(path);
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.col).toBeGreaterThanOrEqual(1);
      const text = formatDiagnostic(d);
      expect(text, 'no stack traces in user errors').not.toMatch(/\n\s+at |Error:|TypeError|\[object /);
      expect(text, 'no "undefined" in user errors').not.toMatch(/undefined|NaN/);
    }
  });
});
