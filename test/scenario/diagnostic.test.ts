import { describe, expect, it } from 'vitest';
import { dedupeDiagnostics, formatDiagnostic, sortDiagnostics } from '../../src/scenario/diagnostic.js';

describe('formatDiagnostic', () => {
  it('prints FILE:LINE:COL: error: MESSAGE', () => {
    expect(formatDiagnostic({ file: 'a.yaml', line: 3, col: 7, message: 'unknown top-level key `evnets`' })).toBe(
      'a.yaml:3:7: error: unknown top-level key `evnets`',
    );
  });
  it('adds the hint on a second line', () => {
    expect(formatDiagnostic({ file: 'a.yaml', line: 1, col: 1, message: 'm', hint: 'h' })).toBe('a.yaml:1:1: error: m\nhint: h');
  });
  it('prints no hint line for an empty hint', () => {
    expect(formatDiagnostic({ file: 'f', line: 2, col: 4, message: 'm', hint: '' })).toBe('f:2:4: error: m');
  });
});

describe('sorting diagnostics', () => {
  it('orders by line then column, keeping the report order for equal positions', () => {
    const d = (line: number, col: number, message: string) => ({ file: 'f', line, col, message });
    const sorted = sortDiagnostics([d(5, 1, 'e'), d(2, 9, 'b'), d(2, 3, 'a'), d(5, 1, 'f'), d(1, 1, 'z')]);
    expect(sorted.map((x) => x.message)).toEqual(['z', 'a', 'b', 'e', 'f']);
  });
  it('drops exact repeats', () => {
    const d = { file: 'f', line: 1, col: 1, message: 'x' };
    expect(dedupeDiagnostics([d, { ...d }, { ...d, message: 'y' }])).toHaveLength(2);
  });
});
