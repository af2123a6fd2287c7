import type { Expr, FromItem, Script, Select, Span, Statement } from '../../src/sql/ast.js';
import { parseSql } from '../../src/sql/parser.js';

/** Parses `sql`, failing the test with the error if it does not parse. */
export function parseOk(sql: string): Script {
  const r = parseSql(sql);
  if (!r.ok) throw new Error(`expected to parse, got ${JSON.stringify(r.error)}`);
  return r.script;
}

export function onlyStatement(sql: string): Statement {
  const { statements } = parseOk(sql);
  if (statements.length !== 1) throw new Error(`expected one statement, got ${statements.length}`);
  return statements[0] as Statement;
}

/** The query of a single `SELECT ...` statement. */
export function query(sql: string): Select {
  const st = onlyStatement(sql);
  if (st.kind !== 'query') throw new Error(`expected a query, got ${st.kind}`);
  return st.query;
}

/** The WHERE expression of `SELECT * FROM t WHERE <expr>`. */
export function whereOf(exprSql: string): { expr: Expr; sql: string } {
  const sql = `SELECT * FROM t WHERE ${exprSql}`;
  const where = query(sql).where;
  if (where === undefined) throw new Error('no WHERE');
  return { expr: where, sql };
}

/** The source text a node covers. */
export function src(sql: string, node: Span): string {
  return sql.slice(node.start, node.end);
}

/**
 * A compact prefix form for checking tree shapes: `(+ a (* b c))`. Written by hand here so that
 * expected strings in tests follow from SQL rules, not from the parser's own output.
 */
export function show(e: Expr): string {
  switch (e.kind) {
    case 'column':
      return e.qualifier ? `${e.qualifier.value}.${e.name.value}` : e.name.value;
    case 'literal':
      return e.type === 'string' ? `'${e.text}'` : e.text;
    case 'interval':
      return `(interval '${e.value}' ${e.unit}${e.toUnit ? ` ${e.toUnit}` : ''})`;
    case 'typedLiteral':
      return `(${e.typeName} '${e.text}')`;
    case 'binary':
      return `(${e.op} ${show(e.left)} ${show(e.right)})`;
    case 'unary':
      return `(${e.op} ${show(e.operand)})`;
    case 'isNull':
      return `(is${e.negated ? '-not' : ''}-null ${show(e.operand)})`;
    case 'isBool':
      return `(is${e.negated ? '-not' : ''}-${e.value.toLowerCase()} ${show(e.operand)})`;
    case 'isDistinct':
      return `(is${e.negated ? '-not' : ''}-distinct ${show(e.left)} ${show(e.right)})`;
    case 'between':
      return `(${e.negated ? 'not-' : ''}between${e.symmetric ? '-sym' : ''} ${show(e.operand)} ${show(e.low)} ${show(e.high)})`;
    case 'in':
      return `(${e.negated ? 'not-' : ''}in ${show(e.operand)} ${e.list ? `[${e.list.map(show).join(' ')}]` : 'subquery'})`;
    case 'exists':
      return '(exists subquery)';
    case 'like':
      return `(${e.negated ? 'not-' : ''}like ${show(e.operand)} ${show(e.pattern)})`;
    case 'call':
      return `(${e.name}${e.distinct ? ' distinct' : ''}${e.star ? ' *' : ''}${e.args.map((a) => ` ${show(a)}`).join('')}${e.over ? ' over' : ''})`;
    case 'cast':
      return `(${e.try ? 'try-cast' : 'cast'} ${show(e.operand)} ${e.type.name}${e.type.args.length ? `(${e.type.args.join(',')})` : ''})`;
    case 'case':
      return `(case${e.operand ? ` ${show(e.operand)}` : ''}${e.whens.map((w) => ` [${show(w.when)} ${show(w.then)}]`).join('')}${e.else ? ` else ${show(e.else)}` : ''})`;
    case 'subquery':
      return '(subquery)';
  }
}

/** The FROM tree as `(LEFT orders@o rates@r)`. */
export function showFrom(f: FromItem): string {
  switch (f.kind) {
    case 'table':
      return `${f.name.value}${f.alias ? `@${f.alias.value}` : ''}`;
    case 'subquery':
      return `(select)${f.alias ? `@${f.alias.value}` : ''}`;
    case 'join':
      return `(${f.joinType} ${showFrom(f.left)} ${showFrom(f.right)})`;
  }
}
