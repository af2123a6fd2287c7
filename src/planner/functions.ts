/**
 * Scalar functions: argument checks and result types as Flink's function definitions give them
 * (TO_TIMESTAMP_LTZ(x, 3) → TIMESTAMP_LTZ(3), PROCTIME() → TIMESTAMP_LTZ(3) NOT NULL, ...).
 */
import type { CallExpr, Expr } from '../sql/ast.js';
import type { SqlType } from '../values/types.js';
import { checkCallArgs, checkIfCondition } from './arg-types.js';
import { fail } from './errors.js';
import type { TExpr } from './plan.js';
import {
  arithmeticType, commonType, concatType, isCharacter, isInteger, isNumeric, roundDecimalType,
  STRING_LENGTH, t, withNullable,
} from './type-rules.js';

const AGGREGATES = new Set(['COUNT', 'SUM', 'MIN', 'MAX', 'AVG', 'LISTAGG', 'COLLECT', 'FIRST_VALUE', 'LAST_VALUE']);

const anyNullable = (args: readonly TExpr[]): boolean => args.some((a) => a.type.nullable);
const STRING = (nullable: boolean): SqlType => t('STRING', nullable, STRING_LENGTH);

/** Calcite's family name of an operand in "No match found for function signature" messages. */
function family(x: SqlType): string {
  if (isNumeric(x)) return '<NUMERIC>';
  if (isCharacter(x)) return '<CHARACTER>';
  if (x.kind === 'TIMESTAMP' || x.kind === 'TIMESTAMP_LTZ') return '<TIMESTAMP>';
  if (x.kind === 'INTERVAL') return '<INTERVAL_DAY_TIME>';
  return `<${x.kind}>`;
}

function noMatch(e: CallExpr, args: readonly TExpr[]): never {
  fail(`No match found for function signature ${e.name}(${args.map((a) => family(a.type)).join(', ')})`, e.nameSpan,
    'joinstep knows the scalar functions the example scenarios use: TO_TIMESTAMP_LTZ, PROCTIME, COALESCE, CONCAT, UPPER, LOWER, ROUND, ABS, ...');
}

function arity(e: CallExpr, args: readonly TExpr[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : `${min} to ${max}`;
    fail(`Invalid number of arguments to function '${e.name}'. Was expecting ${want} arguments`, e.nameSpan);
  }
}

function intLiteral(x: TExpr | undefined): number | undefined {
  return x && x.k === 'lit' && typeof x.value === 'number' && Number.isInteger(x.value) ? x.value : undefined;
}

export function callToTExpr(e: CallExpr, typeOf: (x: Expr) => TExpr): TExpr {
  const out = typedCall(e, typeOf);
  // Flink's validator rejects wrongly typed arguments before the job runs, pointing at the call
  checkCallArgs(out, e);
  return out;
}

function typedCall(e: CallExpr, typeOf: (x: Expr) => TExpr): TExpr {
  if (e.over) fail(`joinstep supports ${e.name}() OVER (...) only in the deduplication view pattern`, e.nameSpan,
    "write it as SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY t DESC) AS rn FROM x) WHERE rn = 1");
  if (AGGREGATES.has(e.name)) fail(`joinstep debugs joins: the aggregate function ${e.name} is not supported`, e.nameSpan,
    'remove the aggregation; joinstep shows the join\'s own changelog');
  const args = e.args.map(typeOf);
  const mk = (type: SqlType, fn = e.name, a: readonly TExpr[] = args): TExpr => ({ k: 'call', fn, type, args: a });
  switch (e.name) {
    case 'PROCTIME':
      arity(e, args, 0);
      return mk(t('TIMESTAMP_LTZ', false, 3));
    case 'NOW':
    case 'CURRENT_TIMESTAMP':
    case 'CURRENT_ROW_TIMESTAMP':
      arity(e, args, 0);
      return mk(t('TIMESTAMP_LTZ', false, 3));
    case 'LOCALTIMESTAMP':
      arity(e, args, 0);
      return mk(t('TIMESTAMP', false, 3));
    case 'CURRENT_DATE':
      return mk(t('DATE', false));
    case 'TO_TIMESTAMP_LTZ': {
      arity(e, args, 1, 2);
      const p = args.length === 2 ? intLiteral(args[1]) : 3;
      if (p === undefined) fail('The precision of TO_TIMESTAMP_LTZ must be an integer literal', e);
      if (!isNumeric(args[0]?.type ?? t('NULL')) && !isCharacter(args[0]?.type ?? t('NULL'))) noMatch(e, args);
      return mk(t('TIMESTAMP_LTZ', anyNullable(args.slice(0, 1)), p === 0 ? 0 : 3));
    }
    case 'TO_TIMESTAMP':
      arity(e, args, 1, 2);
      return mk(t('TIMESTAMP', true, 3));
    case 'UNIX_TIMESTAMP':
      return mk(t('BIGINT', anyNullable(args)));
    case 'FROM_UNIXTIME':
    case 'DATE_FORMAT':
      arity(e, args, 1, 2);
      return mk(STRING(anyNullable(args)));
    case 'UPPER':
    case 'LOWER':
    case 'TRIM':
    case 'LTRIM':
    case 'RTRIM':
      arity(e, args, 1);
      if (!isCharacter((args[0] as TExpr).type)) noMatch(e, args);
      return mk((args[0] as TExpr).type);
    case 'CONCAT':
      if (args.length < 1) noMatch(e, args);
      return mk(withNullable(concatType(args.map((a) => (a.type.kind === 'CHAR' ? t('VARCHAR', a.type.nullable, a.type.precision) : a.type))), anyNullable(args)));
    case 'SUBSTRING':
    case 'SUBSTR':
      arity(e, args, 2, 3);
      return mk(t('VARCHAR', anyNullable(args), (args[0] as TExpr).type.precision ?? STRING_LENGTH), 'SUBSTRING');
    case 'CHAR_LENGTH':
    case 'CHARACTER_LENGTH':
      arity(e, args, 1);
      return mk(t('INT', anyNullable(args)), 'CHAR_LENGTH');
    case 'ABS':
      arity(e, args, 1);
      if (!isNumeric((args[0] as TExpr).type)) noMatch(e, args);
      return mk((args[0] as TExpr).type);
    case 'ROUND':
      return round(e, args);
    case 'FLOOR':
    case 'CEIL':
    case 'CEILING': {
      arity(e, args, 1);
      const a = args[0] as TExpr;
      if (a.type.kind === 'DECIMAL') return mk(roundDecimalType(a.type.precision ?? 10, a.type.scale ?? 0, 0, a.type.nullable), e.name === 'CEILING' ? 'CEIL' : e.name);
      if (!isNumeric(a.type)) noMatch(e, args);
      return mk(a.type, e.name === 'CEILING' ? 'CEIL' : e.name);
    }
    case 'MOD': {
      arity(e, args, 2);
      const type = arithmeticType('%', (args[0] as TExpr).type, (args[1] as TExpr).type);
      if (!type) noMatch(e, args);
      return mk(type, '%');
    }
    case 'POWER':
    case 'SQRT':
    case 'EXP':
    case 'LN':
    case 'LOG10':
      if (!args.every((a) => isNumeric(a.type))) noMatch(e, args);
      return mk(t('DOUBLE', anyNullable(args)));
    case 'COALESCE':
    case 'IFNULL': {
      if (args.length < 1 || (e.name === 'IFNULL' && args.length !== 2)) noMatch(e, args);
      const common = commonType(args.map((a) => a.type));
      if (!common) fail('Illegal mixing of types in CASE or COALESCE statement', e);
      return mk(withNullable(common, args.every((a) => a.type.nullable)));
    }
    case 'NULLIF': {
      arity(e, args, 2);
      return mk(withNullable((args[0] as TExpr).type, true));
    }
    case 'IF': {
      arity(e, args, 3);
      checkIfCondition(args, e);
      const common = commonType([(args[1] as TExpr).type, (args[2] as TExpr).type]);
      if (!common) fail('Illegal mixing of types in CASE or COALESCE statement', e);
      return { k: 'case', type: common, whens: [{ when: args[0] as TExpr, then: args[1] as TExpr }], else: args[2] as TExpr };
    }
    case 'CURRENT_WATERMARK':
      return mk(t('TIMESTAMP', true, 3));
    default:
      return noMatch(e, args);
  }
}

function round(e: CallExpr, args: readonly TExpr[]): TExpr {
  arity(e, args, 1, 2);
  const a = args[0] as TExpr;
  const r = args.length === 2 ? intLiteral(args[1]) : 0;
  if (r === undefined) fail('The second argument of ROUND must be an integer literal', e);
  if (!isNumeric(a.type)) noMatch(e, args);
  const type = a.type.kind === 'DECIMAL'
    ? roundDecimalType(a.type.precision ?? 10, a.type.scale ?? 0, r, a.type.nullable)
    : isInteger(a.type) ? a.type : withNullable(a.type, a.type.nullable);
  return { k: 'call', fn: 'ROUND', type, args };
}
