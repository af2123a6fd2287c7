/**
 * A safety net under the planner: functions that read their arguments as text (or as a time)
 * refuse, when compiled, an argument of another type, with Calcite's "No match found for function
 * signature" wording. The planner should reject such calls first, pointing at the call; without
 * this check a call it lets through would crash on a JavaScript method of the wrong value type
 * (`s.trim is not a function`) or silently compute nonsense (CHAR_LENGTH(7) = 0).
 */
import type { TExpr } from '../planner/plan.js';
import { SqlRuntimeError } from './sql-error.js';
import type { TypeKind } from './types.js';
import { isCharKind } from './value-kinds.js';

type Call = Extract<TExpr, { k: 'call' }>;
type Family = 'text' | 'time-or-text';

/** Per function: the family of each checked argument position. */
const SIGNATURES: Readonly<Record<string, readonly Family[]>> = {
  UPPER: ['text'],
  LOWER: ['text'],
  TRIM: ['text'],
  LTRIM: ['text'],
  RTRIM: ['text'],
  CHAR_LENGTH: ['text'],
  SUBSTRING: ['text'],
  TO_TIMESTAMP: ['text', 'text'],
  UNIX_TIMESTAMP: ['text', 'text'],
  DATE_FORMAT: ['time-or-text', 'text'],
};

const TIME_KINDS: ReadonlySet<TypeKind> = new Set(['TIMESTAMP', 'TIMESTAMP_LTZ', 'DATE']);

function fits(family: Family, kind: TypeKind): boolean {
  if (kind === 'NULL' || isCharKind(kind)) return true;
  return family === 'time-or-text' && TIME_KINDS.has(kind);
}

/** Calcite's operand family name, as in its "No match found" message. */
function familyName(kind: TypeKind): string {
  if (isCharKind(kind)) return '<CHARACTER>';
  if (kind === 'TIMESTAMP' || kind === 'TIMESTAMP_LTZ') return '<TIMESTAMP>';
  if (['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'DECIMAL', 'FLOAT', 'DOUBLE'].includes(kind)) return '<NUMERIC>';
  return `<${kind}>`;
}

/** Throws SqlRuntimeError if an argument of `e` has a type the function cannot read. */
export function checkArgumentTypes(e: Call): void {
  const families = SIGNATURES[e.fn];
  if (families === undefined) return;
  const bad = e.args.some((a, i) => families[i] !== undefined && !fits(families[i]!, a.type.kind));
  if (!bad) return;
  throw new SqlRuntimeError(
    `No match found for function signature ${e.fn}(${e.args.map((a) => familyName(a.type.kind)).join(', ')})`,
    'the argument has the wrong type for this function; CAST it first (e.g. CAST(x AS STRING))',
  );
}
