/**
 * Plan-time argument type checks, with Calcite's "Cannot apply" wording, pointing at the call.
 * The per-function rules live in src/values/eval-arg-check.ts (the compile-time safety net);
 * here they are asked first, so that a call Flink's validator rejects never reaches a run.
 */
import type { Span } from '../sql/ast.js';
import { checkArgumentTypes } from '../values/eval-arg-check.js';
import { SqlRuntimeError } from '../values/sql-error.js';
import type { SqlType } from '../values/types.js';
import { fail } from './errors.js';
import type { TExpr } from './plan.js';
import { calciteTypeName } from './type-names.js';

const operand = (x: SqlType): string => `<${calciteTypeName(x)}>`;

/** `Cannot apply 'F' to arguments of type 'F(<A>, <B>)'. Supported form(s): ...` */
export function cannotApply(fn: string, types: string, forms: string, span: Span, hint?: string): never {
  fail(`Cannot apply '${fn}' to arguments of type '${types}'. Supported form(s): ${forms}`, span,
    hint ?? 'an argument has the wrong type for this function; CAST it first (e.g. CAST(x AS STRING))');
}

/** Rejects a call whose arguments the function cannot read (the rules of eval-arg-check.ts). */
export function checkCallArgs(call: TExpr, span: Span): void {
  if (call.k !== 'call') return;
  try {
    checkArgumentTypes(call);
  } catch (error) {
    if (!(error instanceof SqlRuntimeError)) throw error;
    const types = `${call.fn}(${call.args.map((a) => operand(a.type)).join(', ')})`;
    cannotApply(call.fn, types, FORMS[call.fn] ?? `'${call.fn}(<CHARACTER>)'`, span, error.hint);
  }
}

/** The forms each checked function accepts, as Calcite lists them after "Supported form(s):". */
const FORMS: Readonly<Record<string, string>> = {
  TO_TIMESTAMP: "'TO_TIMESTAMP(<CHARACTER>)' 'TO_TIMESTAMP(<CHARACTER>, <CHARACTER>)'",
  UNIX_TIMESTAMP: "'UNIX_TIMESTAMP()' 'UNIX_TIMESTAMP(<CHARACTER>)' 'UNIX_TIMESTAMP(<CHARACTER>, <CHARACTER>)'",
  DATE_FORMAT: "'DATE_FORMAT(<TIMESTAMP>, <CHARACTER>)' 'DATE_FORMAT(<CHARACTER>, <CHARACTER>)'",
  SUBSTRING: "'SUBSTRING(<CHARACTER> FROM <INTEGER>)' 'SUBSTRING(<CHARACTER> FROM <INTEGER> FOR <INTEGER>)'",
  CHAR_LENGTH: "'CHAR_LENGTH(<CHARACTER>)'",
};

/** `x LIKE p`: both sides must be character strings. */
export function checkLike(arg: TExpr, pattern: TExpr, span: Span): void {
  const text = (x: SqlType): boolean => ['CHAR', 'VARCHAR', 'STRING', 'NULL'].includes(x.kind);
  if (text(arg.type) && text(pattern.type)) return;
  cannotApply('LIKE', `${operand(arg.type)} LIKE ${operand(pattern.type)}`, "'<STRING> LIKE <STRING>'", span,
    'LIKE matches character strings; CAST a non-string operand first (e.g. CAST(n AS STRING) LIKE ...)');
}

/** `IF(c, a, b)`: the condition must be BOOLEAN. */
export function checkIfCondition(args: readonly TExpr[], span: Span): void {
  const c = args[0];
  if (!c || c.type.kind === 'BOOLEAN' || c.type.kind === 'NULL') return;
  cannotApply('IF', `IF(${args.map((a) => operand(a.type)).join(', ')})`, "'IF(<BOOLEAN>, <ANY>, <ANY>)'", span,
    'the first argument of IF is a condition; compare it (e.g. IF(n > 0, 1, 2))');
}
