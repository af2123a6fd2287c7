/** Plan expressions back to SQL-like text, for `explain` and the watermark strategy. */
import type { TExpr } from './plan.js';
import { flinkTypeName } from './type-names.js';

const INFIX = new Set(['+', '-', '*', '/', '%', '||', '=', '<>', '<', '<=', '>', '>=', 'AND', 'OR', 'LIKE', 'IS DISTINCT FROM', 'IS NOT DISTINCT FROM']);
const POSTFIX = new Set(['IS NULL', 'IS NOT NULL', 'IS TRUE', 'IS FALSE', 'IS NOT TRUE', 'IS NOT FALSE']);

function literal(e: Extract<TExpr, { k: 'lit' }>): string {
  if (e.value === null) return 'NULL';
  switch (e.type.kind) {
    case 'INTERVAL':
      return intervalText(e.value as number);
    case 'CHAR':
    case 'VARCHAR':
    case 'STRING':
      return `'${String(e.value).replace(/'/g, "''")}'`;
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return `${e.type.kind} '${new Date(e.value as number).toISOString().replace('T', ' ').replace('Z', '')}'`;
    default:
      return String(e.value);
  }
}

function intervalText(ms: number): string {
  const units: [number, string][] = [[86_400_000, 'DAY'], [3_600_000, 'HOUR'], [60_000, 'MINUTE'], [1000, 'SECOND']];
  for (const [size, unit] of units) if (ms % size === 0) return `INTERVAL '${ms / size}' ${unit}`;
  return `INTERVAL '${ms / 1000}' SECOND`;
}

export function exprText(e: TExpr, name: (index: number) => string = (i) => `$${i}`): string {
  const sub = (x: TExpr): string => {
    const s = exprText(x, name);
    return x.k === 'call' && (INFIX.has(x.fn) || POSTFIX.has(x.fn)) ? `(${s})` : s;
  };
  switch (e.k) {
    case 'col':
      return name(e.index);
    case 'lit':
      return literal(e);
    case 'cast':
      return `${e.try ? 'TRY_CAST' : 'CAST'}(${exprText(e.arg, name)} AS ${flinkTypeName({ ...e.type, nullable: true })})`;
    case 'case': {
      const whens = e.whens.map((w) => `WHEN ${exprText(w.when, name)} THEN ${exprText(w.then, name)}`).join(' ');
      return `CASE ${whens}${e.else ? ` ELSE ${exprText(e.else, name)}` : ''} END`;
    }
    case 'call':
      if (INFIX.has(e.fn) && e.args.length === 2) return `${sub(e.args[0] as TExpr)} ${e.fn} ${sub(e.args[1] as TExpr)}`;
      if (POSTFIX.has(e.fn)) return `${sub(e.args[0] as TExpr)} ${e.fn}`;
      if (e.fn === 'NOT') return `NOT ${sub(e.args[0] as TExpr)}`;
      if (e.fn === 'NEG') return `-${sub(e.args[0] as TExpr)}`;
      if (e.fn === 'IN') return `${sub(e.args[0] as TExpr)} IN (${e.args.slice(1).map((a) => exprText(a, name)).join(', ')})`;
      return `${e.fn}(${e.args.map((a) => exprText(a, name)).join(', ')})`;
  }
}

/** A duration for people: 3600000 → "1 h", 90000 → "90 s", 1500 → "1500 ms" (sign kept). */
export function fmtMs(ms: number): string {
  const a = Math.abs(ms);
  const units: [number, string][] = [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'min'], [1000, 's']];
  for (const [size, unit] of units) if (a !== 0 && a % size === 0) return `${ms / size} ${unit}`;
  return `${ms} ms`;
}
