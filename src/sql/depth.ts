/**
 * How deep SQL may nest. Flink's parser has no fixed limit, but joinstep's parser, planner and
 * evaluator are recursive: a few thousand levels (`((((...))))`, `NOT NOT ... x`, or a chain of
 * `a + a + ... + a`, which parses into a tree as deep as it is long) would exhaust the JavaScript
 * stack and end in a stack trace. Real queries stay far below this limit.
 */
import type { Span } from './ast.js';
import type { Cursor } from './cursor.js';

export const MAX_DEPTH = 256;

const MESSAGE = `joinstep does not support SQL nested more than ${MAX_DEPTH} levels deep`;
const HINT = 'drop brackets that group nothing, split the expression up (e.g. into a CREATE TEMPORARY VIEW), or write a long chain as IN (...) or CASE';

/** Runs a recursive parse step one level deeper; fails at the current token past the limit. */
export function nested<T>(c: Cursor, parse: () => T): T {
  if (c.depth >= MAX_DEPTH) c.failWith(MESSAGE, HINT, c.tok);
  c.depth++;
  try {
    return parse();
  } finally {
    c.depth--;
  }
}

function isNode(x: object): x is Span {
  return 'start' in x && 'end' in x && typeof (x as Span).start === 'number';
}

/**
 * The first node, in breadth-first (so left-to-right) order, deeper than the limit, if any: the
 * tree's depth, not the parser's recursion, since a left-deep chain is built in a loop. For a chain
 * it is the node that spans from the chain's start. Iterative, so it cannot overflow itself.
 */
export function tooDeep(root: object): Span | undefined {
  const queue: [unknown, number][] = [[root, 0]];
  for (let i = 0; i < queue.length; i++) {
    const [x, d] = queue[i]!;
    if (x === null || typeof x !== 'object') continue;
    if (Array.isArray(x)) {
      for (const item of x) queue.push([item, d]);
      continue;
    }
    const depth = isNode(x) ? d + 1 : d;
    if (depth > MAX_DEPTH && isNode(x)) return x;
    for (const v of Object.values(x)) if (v !== null && typeof v === 'object') queue.push([v, depth]);
  }
  return undefined;
}

/** Fails at the too-deep node of a parsed statement. */
export function checkDepth(c: Cursor, root: object): void {
  const deep = tooDeep(root);
  if (deep !== undefined) c.failWith(MESSAGE, HINT, deep);
}
