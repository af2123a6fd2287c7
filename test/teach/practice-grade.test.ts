/** Grading a predicted step: values compared by meaning with the column's type, order counted. */
import { describe, expect, it } from 'vitest';
import type { Emitted } from '../../src/engine/types.js';
import { gradeStep, sameValue, type AnswerRow } from '../../src/teach/practice-grade.js';
import { parseRowText } from '../../src/ui/practice-entry.js';
import type { SqlType } from '../../src/values/types.js';

const CTX = { dateMs: Date.UTC(2026, 9, 1), timeZone: 'UTC' };
const STRING: SqlType = { kind: 'STRING', nullable: true } as SqlType;
const TS: SqlType = { kind: 'TIMESTAMP', nullable: true, precision: 3 } as SqlType;
const DEC: SqlType = { kind: 'DECIMAL', nullable: true, precision: 21, scale: 6 } as SqlType;
const TYPES = [STRING, TS, DEC];
const at0930 = Date.UTC(2026, 9, 1, 9, 30);

function emitted(kind: Emitted['kind'], row: Emitted['row']): Emitted {
  return { kind, row, step: 1, why: { rule: 'match', text: '' } };
}

describe('sameValue', () => {
  it('reads the typed text with the column type', () => {
    expect(sameValue(DEC, '110', '110.000000', CTX)).toBe(true);
    expect(sameValue(DEC, '110.0', '110.000000', CTX)).toBe(true);
    expect(sameValue(DEC, '120', '110.000000', CTX)).toBe(false);
    expect(sameValue(TS, '09:30', at0930, CTX)).toBe(true);
    expect(sameValue(TS, '2026-10-01T09:30', at0930, CTX)).toBe(true);
    expect(sameValue(TS, '09:31', at0930, CTX)).toBe(false);
    expect(sameValue(STRING, ' o1 ', 'o1', CTX)).toBe(true);
    expect(sameValue(STRING, 'O1', 'o1', CTX)).toBe(false);
  });

  it('takes null only for null', () => {
    expect(sameValue(STRING, 'null', null, CTX)).toBe(true);
    expect(sameValue(STRING, 'NULL', null, CTX)).toBe(true);
    expect(sameValue(STRING, 'null', 'null-ish', CTX)).toBe(false);
    expect(sameValue(DEC, '0', null, CTX)).toBe(false);
  });
});

describe('gradeStep', () => {
  const real = [emitted('-D', ['o1', at0930, null]), emitted('+I', ['o1', at0930, '110.000000'])];
  const row = (kind: AnswerRow['kind'], ...values: string[]): AnswerRow => ({ kind, values });

  it('gives 1 for the rows in their order, 1/2 for another order, 0 otherwise', () => {
    expect(gradeStep([row('-D', 'o1', '09:30', 'null'), row('+I', 'o1', '09:30', '110')], real, TYPES, CTX)).toMatchObject({ verdict: 'right', points: 1 });
    expect(gradeStep([row('+I', 'o1', '09:30', '110'), row('-D', 'o1', '09:30', 'null')], real, TYPES, CTX)).toMatchObject({ verdict: 'order', points: 0.5 });
    const wrong = gradeStep([row('+I', 'o1', '09:30', '110')], real, TYPES, CTX);
    expect(wrong).toMatchObject({ verdict: 'wrong', points: 0, answerMatched: [true], realMatched: [false, true] });
    expect(gradeStep([row('+U', 'o1', '09:30', '110'), row('-D', 'o1', '09:30', 'null')], real, TYPES, CTX).verdict).toBe('wrong');
  });

  it('"nothing" is right for a step that emits nothing, and wrong for one that emits', () => {
    expect(gradeStep([], [], TYPES, CTX)).toMatchObject({ verdict: 'right', points: 1 });
    expect(gradeStep([], real, TYPES, CTX)).toMatchObject({ verdict: 'wrong', points: 0 });
  });

  it('matches each real row once (a duplicate answer is not two hits)', () => {
    const one = [emitted('+I', ['o1', at0930, '110.000000'])];
    const g = gradeStep([row('+I', 'o1', '09:30', '110'), row('+I', 'o1', '09:30', '110')], one, TYPES, CTX);
    expect(g.answerMatched).toEqual([true, false]);
    expect(g.verdict).toBe('wrong');
  });
});

describe('a whole row typed in the print form', () => {
  it('reads kind and values, and says what is wrong', () => {
    expect(parseRowText('+i[o1, 09:30, 110]', 3)).toEqual({ kind: '+I', values: ['o1', '09:30', '110'] });
    expect(parseRowText('-D[]', 0)).toEqual({ kind: '-D', values: [] });
    expect(parseRowText('+I[o1]', 3)).toBe('1 values, but the output has 3 columns');
    expect(parseRowText('+X[o1]', 1)).toBe('unknown row kind +X');
    expect(parseRowText('+I', 1)).toBeUndefined();
  });
});
