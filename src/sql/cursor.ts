import type { Ident, Span, SqlSyntaxError } from './ast.js';
import { IDENTIFIER, quotedImage, syntaxErrorMessage, TOKEN_CLASS } from './expected.js';
import { isClauseWord, isReserved } from './keywords.js';
import type { Token, TokenKind } from './lexer.js';

/** Thrown inside the parser only; `parseSql` turns it into a `SqlSyntaxError` result. */
export class SqlParseError extends Error {
  constructor(readonly detail: SqlSyntaxError) {
    super(detail.message);
  }
}

/** Flink wraps Calcite's parser errors with this prefix. */
export const PARSE_FAILED = 'SQL parse failed.';

/**
 * A position in the token list with the small vocabulary the recursive-descent functions share:
 * look at the current token, accept it if it matches, or fail pointing at it.
 */
export class Cursor {
  pos = 0;
  /** Nesting of recursive parse steps (expressions, queries): see depth.ts. */
  depth = 0;
  /** End offset of the last consumed token: where a node that ends here ends. */
  lastEnd = 0;
  /** The furthest token the grammar has tested, and every token it would have accepted there. */
  private expectedAt = -1;
  private readonly expected = new Set<string>();
  /** Tokens that would continue what came before (an infix operator after an expression): listed last, as Calcite lists its lookahead. */
  private readonly continuations = new Set<string>();

  constructor(
    readonly text: string,
    private readonly tokens: readonly Token[],
  ) {}

  get tok(): Token {
    return this.tokens[this.pos] as Token;
  }

  peek(ahead = 1): Token {
    const i = Math.min(this.pos + ahead, this.tokens.length - 1);
    return this.tokens[i] as Token;
  }

  /** The token before the current one (for hints that say what came before). */
  prev(): Token | undefined {
    return this.pos > 0 ? this.tokens[this.pos - 1] : undefined;
  }

  next(): Token {
    const t = this.tok;
    if (t.kind !== 'eof') {
      this.pos++;
      this.lastEnd = t.end;
    }
    return t;
  }

  /**
   * Records that the grammar would accept `images` (Calcite's token images: `"FROM"`, `"("`,
   * `<IDENTIFIER>`) at the current token: what a syntax error here lists as expected. The tests
   * below record themselves; a choice made by a `switch` or a table says what it accepts here.
   */
  expect(...images: string[]): void {
    this.expectInto(this.expected, images);
  }

  /** Like expect, for tokens that would continue the construct just read (listed after the others). */
  expectContinuation(...images: string[]): void {
    this.expectInto(this.continuations, images);
  }

  private expectInto(set: Set<string>, images: readonly string[]): void {
    if (this.pos > this.expectedAt) {
      this.expectedAt = this.pos;
      this.expected.clear();
      this.continuations.clear();
    }
    if (this.pos === this.expectedAt) for (const image of images) set.add(image);
  }

  /** True if the token `ahead` is the unquoted keyword `kw` (upper case). */
  isWord(kw: string, ahead = 0): boolean {
    if (ahead === 0) this.expect(quotedImage(kw));
    const t = ahead === 0 ? this.tok : this.peek(ahead);
    return t.kind === 'word' && t.value === kw;
  }

  isOp(op: string, ahead = 0): boolean {
    if (ahead === 0) this.expect(quotedImage(op));
    const t = ahead === 0 ? this.tok : this.peek(ahead);
    return t.kind === 'op' && t.text === op;
  }

  /** Token-kind test as a method call, so TypeScript does not narrow `tok` across `next()`. */
  at(kind: TokenKind): boolean {
    if (kind === 'hintStart') this.expect(quotedImage('/*+'));
    else if (kind === 'hintEnd') this.expect(quotedImage('*/'));
    else if (kind !== 'error' && kind !== 'op') this.expect(TOKEN_CLASS[kind]);
    return this.tok.kind === kind;
  }

  acceptWord(kw: string): Token | undefined {
    return this.isWord(kw) ? this.next() : undefined;
  }

  acceptOp(op: string): Token | undefined {
    return this.isOp(op) ? this.next() : undefined;
  }

  expectWord(kw: string, hint?: string): Token {
    return this.acceptWord(kw) ?? this.fail(hint ?? `${kw} is expected here`);
  }

  expectOp(op: string, hint?: string): Token {
    return this.acceptOp(op) ?? this.fail(hint ?? (op === ')' ? "a ')' is missing" : `'${op}' is expected here`));
  }

  /** True if the current token can be read as an identifier (quoted, or a non-reserved word). */
  atIdent(): boolean {
    this.expect(...IDENTIFIER);
    const t = this.tok;
    return t.kind === 'quoted' || (t.kind === 'word' && !isReserved(t.value));
  }

  /** Reads an identifier; a reserved word gets a hint to quote it. */
  ident(what: string): Ident {
    this.expect(...IDENTIFIER);
    const t = this.tok;
    if (t.kind === 'quoted') {
      this.next();
      return { value: t.value, start: t.start, end: t.end };
    }
    if (t.kind === 'word') {
      if (isReserved(t.value)) {
        this.fail(isClauseWord(t.value) ? `${what} is expected here` : reservedWordHint(t));
      }
      this.next();
      return { value: t.text, start: t.start, end: t.end };
    }
    return this.fail(`${what} is expected here`);
  }

  /**
   * Fails at the current token with Flink's "Encountered ... Was expecting one of" message (or
   * the lexer's message), listing what the grammar tried at that token.
   */
  fail(hint: string, tok: Token = this.tok): never {
    if (tok.kind === 'error') {
      throw new SqlParseError({ message: `${PARSE_FAILED} ${tok.text}`, hint: tok.hint ?? hint, start: tok.start, end: tok.end });
    }
    const span = tok.kind === 'eof' ? this.eofSpan() : tok;
    // What was tried applies only where it was tried: a failure pointing elsewhere lists nothing.
    const here = tok === this.tok && this.expectedAt === this.pos;
    const message = syntaxErrorMessage(this.text, tok, here ? this.expected : [], here ? this.continuations : []);
    throw new SqlParseError({ message: `${PARSE_FAILED} ${message}`, hint, start: span.start, end: span.end });
  }

  /** Fails with a message of our own (not Flink's parser wording), e.g. for unsupported syntax. */
  failWith(message: string, hint: string | undefined, span: Span): never {
    throw new SqlParseError(hint === undefined ? { message, start: span.start, end: span.end } : { message, hint, start: span.start, end: span.end });
  }

  /** Unsupported syntax that Flink accepts: say so plainly instead of pretending Flink rejects it. */
  unsupported(what: string, tok: Token = this.tok): never {
    if (tok.kind === 'error') this.fail('', tok);
    return this.failWith(`joinstep does not support ${what}`, 'see the scenario format (section 2) for the SQL joinstep understands', tok);
  }

  /** End of input points just after the last real token, so it stays on the last SQL line. */
  private eofSpan(): Span {
    const last = this.tokens.length >= 2 ? (this.tokens[this.tokens.length - 2] as Token) : undefined;
    const at = last ? last.end : 0;
    return { start: at, end: at };
  }
}

/** The hint for a reserved word written where a name belongs. */
export function reservedWordHint(t: Token): string {
  return `${t.value} is a reserved word in Flink SQL; to use it as a name, quote it with backticks: \`${t.text}\``;
}
