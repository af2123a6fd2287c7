/**
 * Grading a predicted step: the candidate's rows (kind and values as typed) against the rows the
 * step really emitted. Values are compared by meaning, not spelling: a typed value is read with
 * the column's type as a scenario value would be, so `110` matches DECIMAL `110.000000` and
 * `09:30` matches the TIMESTAMP `2026-10-01T09:30`.
 *
 * A step scores 1 when the rows and their order are right, 1/2 when the same rows come in another
 * order (in a changelog the order is part of the answer), and 0 otherwise.
 */
import type { Emitted } from '../engine/types.js';
import { parseValue, type ValueContext } from '../values/literal.js';
import { formatValue } from '../values/format.js';
import type { RowKind, SqlType, Value } from '../values/types.js';

export const KINDS: readonly RowKind[] = ['+I', '-U', '+U', '-D'];

export interface AnswerRow {
  readonly kind: RowKind;
  /** One typed value per output column. */
  readonly values: readonly string[];
}

export type Verdict = 'right' | 'order' | 'wrong';

export interface StepGrade {
  readonly verdict: Verdict;
  readonly points: number;
  /** Per answered row: whether it is one of the real rows (each real row matches once). */
  readonly answerMatched: readonly boolean[];
  /** Per real row: whether the answer has it. */
  readonly realMatched: readonly boolean[];
}

function printed(type: SqlType | undefined, v: Value): string {
  return v === null ? 'null' : type === undefined ? String(v) : formatValue(type, v);
}

/** Whether the typed text means the value `actual` of a column of type `type`. */
export function sameValue(type: SqlType | undefined, typed: string, actual: Value, ctx: ValueContext): boolean {
  const text = typed.trim();
  if (text.toLowerCase() === 'null') return actual === null;
  if (actual === null) return false;
  const real = printed(type, actual);
  if (text === real) return true;
  if (type === undefined) return false;
  const numeric = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text);
  const bool = /^(true|false)$/i.test(text);
  const parsed = parseValue(type, { text, yamlType: numeric ? 'number' : bool ? 'boolean' : 'string', quoted: false }, ctx);
  return parsed.ok && parsed.value !== null && printed(type, parsed.value) === real;
}

export function sameRow(answer: AnswerRow, real: Emitted, types: readonly SqlType[], ctx: ValueContext): boolean {
  if (answer.kind !== real.kind || answer.values.length !== real.row.length) return false;
  return real.row.every((v, i) => sameValue(types[i], answer.values[i] ?? '', v, ctx));
}

export function gradeStep(answer: readonly AnswerRow[], real: readonly Emitted[], types: readonly SqlType[], ctx: ValueContext): StepGrade {
  const realMatched = real.map(() => false);
  const answerMatched = answer.map((a) => {
    const k = real.findIndex((r, i) => !realMatched[i] && sameRow(a, r, types, ctx));
    if (k >= 0) realMatched[k] = true;
    return k >= 0;
  });
  const allMatched = answer.length === real.length && answerMatched.every((m) => m);
  const inOrder = allMatched && answer.every((a, i) => sameRow(a, real[i]!, types, ctx));
  const verdict: Verdict = inOrder ? 'right' : allMatched ? 'order' : 'wrong';
  return { verdict, points: verdict === 'right' ? 1 : verdict === 'order' ? 0.5 : 0, answerMatched, realMatched };
}

/** An answered row as the candidate wrote it, in the print connector's shape: `+I[o1, 110]`. */
export function answerText(a: AnswerRow): string {
  return `${a.kind}[${a.values.map((v) => v.trim()).join(', ')}]`;
}
