/** Helpers shared by the cast rules. */
import type { EvalContext } from './eval-types.js';
import { SqlRuntimeError } from './sql-error.js';
import { typeName } from './type-name.js';
import type { SqlType, Value } from './types.js';
import { resolveZone, type OffsetFn } from './zone.js';

/** Converts a non-null value; may throw SqlRuntimeError (caught by TRY_CAST). */
export type CastFn = (v: Value, ctx: EvalContext) => Value;

/** The session zone's offset function; an unknown zone is a runtime error. */
export function zoneOf(ctx: EvalContext): OffsetFn {
  const z = resolveZone(ctx.timeZone);
  if (!z.ok) throw new SqlRuntimeError(z.message, z.hint);
  return z.offsetAt;
}

export function failCast(v: Value, to: SqlType, why = ''): never {
  throw new SqlRuntimeError(`Cannot cast '${String(v)}' to ${typeName(to)}${why ? ': ' + why : ''}`, 'use TRY_CAST to get NULL instead of an error');
}

export function unsupported(from: SqlType, to: SqlType): never {
  throw new SqlRuntimeError(`Cast function cannot convert value of type ${typeName(from)} to type ${typeName(to)}`);
}

