/**
 * The syntax tree of joinstep's Flink SQL subset. Produced by `parseSql` (src/sql/parser.ts),
 * consumed by the planner. Every node carries `start`/`end`: character offsets into the SQL
 * text that was parsed (end exclusive), so errors can point at the exact token; the scenario
 * loader maps offsets back to file line:col.
 */

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** An identifier; `value` is unquoted (backticks removed) and keeps its case. */
export interface Ident extends Span {
  readonly value: string;
}

export interface Script {
  readonly statements: readonly Statement[];
}

export type Statement = CreateTable | CreateView | InsertStmt | QueryStmt;

export interface CreateTable extends Span {
  readonly kind: 'createTable';
  readonly name: Ident;
  readonly temporary: boolean;
  readonly ifNotExists: boolean;
  readonly columns: readonly ColumnDef[];
  readonly watermark?: WatermarkDef;
  readonly primaryKey?: PrimaryKeyDef;
  readonly options: readonly TableOption[];
}

export type ColumnDef = PhysicalColumn | ComputedColumn | MetadataColumn;

export interface PhysicalColumn extends Span {
  readonly kind: 'physical';
  readonly name: Ident;
  readonly type: TypeAst;
  /** An inline `PRIMARY KEY NOT ENFORCED` after the type. */
  readonly primaryKey?: Span;
}

export interface ComputedColumn extends Span {
  readonly kind: 'computed';
  readonly name: Ident;
  readonly expr: Expr;
}

export interface MetadataColumn extends Span {
  readonly kind: 'metadata';
  readonly name: Ident;
  readonly type: TypeAst;
  /** The key after `METADATA FROM '...'`, unquoted; absent means the column name is the key. */
  readonly from?: string;
  readonly virtual: boolean;
}

/** A type as written: `name` upper-cased (`DECIMAL`, `TIMESTAMP_LTZ`, `VARCHAR`, ...), `args` the numbers in parentheses. */
export interface TypeAst extends Span {
  readonly name: string;
  readonly args: readonly number[];
  /** false when written `NOT NULL`. */
  readonly nullable: boolean;
  /** `TIMESTAMP(3) WITH LOCAL TIME ZONE` is normalised to name `TIMESTAMP_LTZ`. */
}

export interface WatermarkDef extends Span {
  readonly column: Ident;
  readonly expr: Expr;
}

export interface PrimaryKeyDef extends Span {
  readonly columns: readonly Ident[];
  /** true only for `NOT ENFORCED` (Flink rejects ENFORCED; the planner reports it). */
  readonly notEnforced: boolean;
}

export interface TableOption extends Span {
  readonly key: string;
  readonly value: string;
  readonly keySpan: Span;
  readonly valueSpan: Span;
}

export interface CreateView extends Span {
  readonly kind: 'createView';
  readonly name: Ident;
  readonly temporary: boolean;
  readonly query: Select;
}

export interface InsertStmt extends Span {
  readonly kind: 'insert';
  readonly target: Ident;
  readonly query: Select;
  /** Flink 2.3 `ON CONFLICT DO DEDUPLICATE | NOTHING | ERROR`. */
  readonly onConflict?: 'DEDUPLICATE' | 'NOTHING' | 'ERROR';
}

export interface QueryStmt extends Span {
  readonly kind: 'query';
  readonly query: Select;
}

/** A query hint such as `/*+ STATE_TTL('o' = '1d', 'r' = '12h') *\/`. */
export interface Hint extends Span {
  /** Upper-cased hint name, e.g. `STATE_TTL`, `LOOKUP`. */
  readonly name: string;
  /** key/value options in order; positional options have key ''. */
  readonly options: readonly { readonly key: string; readonly value: string; readonly span: Span }[];
}

export interface Select extends Span {
  readonly kind: 'select';
  readonly hints: readonly Hint[];
  readonly distinct: boolean;
  readonly items: readonly SelectItem[];
  readonly from: FromItem;
  readonly where?: Expr;
  readonly groupBy?: readonly Expr[];
  readonly having?: Expr;
}

export type SelectItem = StarItem | ExprItem;

export interface StarItem extends Span {
  readonly kind: 'star';
  /** `o.*` has qualifier `o`. */
  readonly qualifier?: Ident;
}

export interface ExprItem extends Span {
  readonly kind: 'expr';
  readonly expr: Expr;
  readonly alias?: Ident;
}

export type FromItem = TableRef | SubqueryRef | JoinItem;

export interface TableRef extends Span {
  readonly kind: 'table';
  readonly name: Ident;
  readonly alias?: Ident;
  /** `FOR SYSTEM_TIME AS OF <expr>`; the span of the expression is where a planner rejection points. */
  readonly forSystemTime?: Expr;
  /** Table hints `t /*+ OPTIONS(...) *\/`. */
  readonly hints: readonly Hint[];
}

export interface SubqueryRef extends Span {
  readonly kind: 'subquery';
  readonly query: Select;
  readonly alias?: Ident;
}

export type JoinType = 'INNER' | 'LEFT' | 'RIGHT' | 'FULL' | 'CROSS' | 'COMMA';

export interface JoinItem extends Span {
  readonly kind: 'join';
  readonly joinType: JoinType;
  readonly left: FromItem;
  readonly right: FromItem;
  readonly on?: Expr;
  /** Span of the join keyword(s), e.g. `LEFT JOIN`, for errors about the join type. */
  readonly keywordSpan: Span;
}

export type BinaryOp =
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '||'
  | '='
  | '<>'
  | '<'
  | '<='
  | '>'
  | '>='
  | 'AND'
  | 'OR';

export type IntervalUnit = 'MILLISECOND' | 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY' | 'MONTH' | 'YEAR';

export type Expr =
  | ColumnRefExpr
  | LiteralExpr
  | IntervalExpr
  | TypedLiteralExpr
  | BinaryExpr
  | UnaryExpr
  | IsNullExpr
  | IsBoolExpr
  | IsDistinctExpr
  | BetweenExpr
  | InExpr
  | ExistsExpr
  | LikeExpr
  | CallExpr
  | CastExpr
  | CaseExpr
  | SubqueryExpr;

export interface ColumnRefExpr extends Span {
  readonly kind: 'column';
  readonly qualifier?: Ident;
  readonly name: Ident;
}

export interface LiteralExpr extends Span {
  readonly kind: 'literal';
  /** number: `text` is the literal as written (`1.10`, `42`, `1E3`); string: unquoted value. */
  readonly type: 'number' | 'string' | 'boolean' | 'null';
  readonly text: string;
}

/** `INTERVAL '5' SECOND`, `INTERVAL '1' DAY`, `INTERVAL '10:30' MINUTE TO SECOND`. */
export interface IntervalExpr extends Span {
  readonly kind: 'interval';
  /** The quoted text, may carry a sign: `'-5'`. */
  readonly value: string;
  readonly unit: IntervalUnit;
  readonly toUnit?: IntervalUnit;
}

/** `TIMESTAMP '2026-10-01 09:30:00'`, `DATE '2026-10-01'`, `TIME '09:30:00'`, `TIMESTAMP_LTZ '...'`. */
export interface TypedLiteralExpr extends Span {
  readonly kind: 'typedLiteral';
  readonly typeName: 'TIMESTAMP' | 'DATE' | 'TIME' | 'TIMESTAMP_LTZ';
  readonly text: string;
}

export interface BinaryExpr extends Span {
  readonly kind: 'binary';
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
  /** Span of the operator token. */
  readonly opSpan: Span;
}

export interface UnaryExpr extends Span {
  readonly kind: 'unary';
  readonly op: '-' | '+' | 'NOT';
  readonly operand: Expr;
}

export interface IsNullExpr extends Span {
  readonly kind: 'isNull';
  readonly operand: Expr;
  readonly negated: boolean;
}

/** `x IS [NOT] TRUE | FALSE | UNKNOWN`. */
export interface IsBoolExpr extends Span {
  readonly kind: 'isBool';
  readonly operand: Expr;
  readonly value: 'TRUE' | 'FALSE' | 'UNKNOWN';
  readonly negated: boolean;
}

/** `a IS [NOT] DISTINCT FROM b`. */
export interface IsDistinctExpr extends Span {
  readonly kind: 'isDistinct';
  readonly left: Expr;
  readonly right: Expr;
  readonly negated: boolean;
}

export interface BetweenExpr extends Span {
  readonly kind: 'between';
  readonly operand: Expr;
  readonly low: Expr;
  readonly high: Expr;
  readonly negated: boolean;
  readonly symmetric: boolean;
}

export interface InExpr extends Span {
  readonly kind: 'in';
  readonly operand: Expr;
  readonly negated: boolean;
  /** Exactly one of list / query. */
  readonly list?: readonly Expr[];
  readonly query?: Select;
}

export interface ExistsExpr extends Span {
  readonly kind: 'exists';
  readonly query: Select;
}

export interface LikeExpr extends Span {
  readonly kind: 'like';
  readonly operand: Expr;
  readonly pattern: Expr;
  readonly negated: boolean;
}

/** A function call; `name` upper-cased. `ROW_NUMBER() OVER (...)` carries `over`. */
export interface CallExpr extends Span {
  readonly kind: 'call';
  readonly name: string;
  readonly nameSpan: Span;
  readonly args: readonly Expr[];
  readonly distinct: boolean;
  /** `COUNT(*)` */
  readonly star: boolean;
  readonly over?: OverClause;
}

export interface OverClause extends Span {
  readonly partitionBy: readonly Expr[];
  readonly orderBy: readonly { readonly expr: Expr; readonly desc: boolean }[];
}

export interface CastExpr extends Span {
  readonly kind: 'cast';
  readonly operand: Expr;
  readonly type: TypeAst;
  /** TRY_CAST */
  readonly try: boolean;
}

export interface CaseExpr extends Span {
  readonly kind: 'case';
  /** `CASE x WHEN ...` (simple form) */
  readonly operand?: Expr;
  readonly whens: readonly { readonly when: Expr; readonly then: Expr }[];
  readonly else?: Expr;
}

/** A scalar subquery in an expression position: `(SELECT ...)`. */
export interface SubqueryExpr extends Span {
  readonly kind: 'subquery';
  readonly query: Select;
}

/** A syntax error: the offending token's span, Flink-like message, optional hint. */
export interface SqlSyntaxError {
  readonly message: string;
  readonly hint?: string;
  readonly start: number;
  readonly end: number;
}

/** Parse result: the script, or the first syntax error (in text order). */
export type ParseResult =
  | { readonly ok: true; readonly script: Script }
  | { readonly ok: false; readonly error: SqlSyntaxError };
