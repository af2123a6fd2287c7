import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../src/scenario/yaml-doc.js';

function firstError(text: string) {
  const r = parseYaml('f.yaml', text);
  if (r.ok) throw new Error('parsed, but should not');
  return r.diagnostic;
}

describe('YAML errors', () => {
  it('reports a duplicate key at the second occurrence, naming it', () => {
    const d = firstError('name: a\nsql: x\nname: b\n');
    expect(d).toMatchObject({ file: 'f.yaml', line: 3, col: 1, message: 'duplicate key `name`: YAML map keys must be unique' });
  });
  it('reports tab indentation where the tab is', () => {
    expect(firstError('a:\n  b: 1\n\tc: 2\n')).toMatchObject({ line: 3, col: 1, hint: 'indent with spaces' });
  });
  it('reports the first error in file order and only that one', () => {
    const d = firstError('a: 1\n  b: 2\nc: "open\n');
    expect(d.line).toBe(1);
    expect(d.message).toMatch(/^YAML syntax error: /);
  });
  it('rejects several documents', () => {
    expect(firstError('a: 1\n---\nb: 2\n')).toMatchObject({ line: 2, col: 1 });
  });
  it('parses a good file with a line counter', () => {
    const r = parseYaml('f.yaml', 'a: 1\nb: [1, 2]\n');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.ctx.lineCounter.linePos(5)).toEqual({ line: 2, col: 1 });
  });
});
