import type { Hint, Span } from './ast.js';
import type { Cursor } from './cursor.js';

type HintOption = Hint['options'][number];

/**
 * Zero or more hint comments at the cursor: `/*+ NAME(...), NAME2 *\/ /*+ ... *\/`.
 * Options are either key/value pairs (`'k' = 'v'`, the key may also be an identifier) or a
 * positional list of identifiers / string literals (key '').
 */
export function parseHints(c: Cursor): Hint[] {
  const hints: Hint[] = [];
  while (c.tok.kind === 'hintStart') {
    c.next();
    do {
      hints.push(parseHint(c));
    } while (c.acceptOp(','));
    if (!c.at('hintEnd')) c.fail("the hint must end with '*/'");
    c.next();
  }
  return hints;
}

function parseHint(c: Cursor): Hint {
  const nameTok = c.tok;
  if (nameTok.kind !== 'word' && nameTok.kind !== 'quoted') c.fail("a hint name is expected here, e.g. /*+ STATE_TTL('o' = '1d') */");
  c.next();
  const options: HintOption[] = [];
  if (c.acceptOp('(')) {
    if (!c.isOp(')')) {
      do {
        options.push(parseHintOption(c));
      } while (c.acceptOp(','));
    }
    c.expectOp(')');
  }
  return { name: nameTok.value.toUpperCase(), options, start: nameTok.start, end: c.lastEnd };
}

function parseHintOption(c: Cursor): HintOption {
  const first = c.tok;
  if (first.kind !== 'string' && first.kind !== 'word' && first.kind !== 'quoted' && first.kind !== 'number') {
    c.fail("a hint option is expected here, e.g. 'key' = 'value'");
  }
  c.next();
  const firstValue = first.kind === 'word' ? first.text : first.value;
  if (!c.acceptOp('=')) {
    return { key: '', value: firstValue, span: spanOf(first, first) };
  }
  const value = c.tok;
  if (value.kind !== 'string') c.fail("a hint option value is a quoted string, e.g. 'o' = '1d'");
  c.next();
  return { key: firstValue, value: value.value, span: spanOf(first, value) };
}

function spanOf(a: Span, b: Span): Span {
  return { start: a.start, end: b.end };
}
