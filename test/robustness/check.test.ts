/** The invariant checker itself: it must catch what it claims to, or the fuzzers prove nothing. */
import { describe, expect, it } from 'vitest';
import { diagnosticProblems, FILE } from './check.js';

const TEXT = 'name: x\nsql: |\n  SELECT 1\n';
const d = (line: number, col: number, message: string, hint?: string) => ({ file: FILE, line, col, message, ...(hint ? { hint } : {}) });

describe('diagnosticProblems', () => {
  it('accepts a clean diagnostic, including one just past the end of a line', () => {
    expect(diagnosticProblems(TEXT, d(3, 3, 'SQL parse failed.'))).toEqual([]);
    expect(diagnosticProblems(TEXT, d(1, 8, 'missing value'))).toEqual([]);
    expect(diagnosticProblems(TEXT, d(4, 1, 'end of file'))).toEqual([]);
  });

  it.each([
    [d(0, 1, 'm'), 'line 0'],
    [d(5, 1, 'm'), 'line 5'],
    [d(1, 0, 'm'), 'col 0'],
    [d(1, 9, 'm'), 'col 9'],
    [d(1, 1, ' '), 'empty message'],
    [d(1, 1, 'value undefined is wrong'), 'undefined'],
    [d(1, 1, 'got [object Object]'), '[object Object]'],
    [d(1, 1, 'time NaN-NaN'), 'NaN'],
    [d(1, 1, 'oops', 'TypeError: x is not a function\n    at f (/a/b.js:1:2)'), 'stack trace'],
  ])('flags %j', (diag, what) => {
    const problems = diagnosticProblems(TEXT, diag);
    expect(problems.join('\n')).toContain(what);
  });

  it('does not flag a word the user wrote', () => {
    expect(diagnosticProblems('name: undefined\n', d(1, 7, 'unknown value `undefined`'))).toEqual([]);
  });
});
