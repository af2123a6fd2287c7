/**
 * How a changelog's rows are laid out (changelog.ts): segments of value chunks and int32 meta
 * arrays, and the code each row's meta starts with (its kind, the pair flag, its rule). Written by
 * changelog-write.ts, read back by changelog-read.ts.
 */
import type { RowKind } from '../values/types.js';
import { RuleTable } from './rule-table.js';

/**
 * Slots per value chunk. Measured with an operator that emits one row per event: 4096 (32 KB, an
 * ordinary heap object) ran at ~0.92M events/s, 65536 (the large-object space, fresh pages for
 * every chunk) at ~0.72M, the pvec of 32-slot leaves at ~0.6M. A row never straddles two chunks.
 */
export const CHUNK_BITS = 12;
export const CHUNK_SLOTS = 1 << CHUNK_BITS;
/** Rows per meta chunk (3 int32s a row: 12 KB). */
export const META_BITS = 10;
export const META_ROWS = 1 << META_BITS;

export interface Segment {
  readonly parent: Segment | null;
  /** Rows before this segment's first row (read from the parent chain). */
  readonly base: number;
  /** Rows held here. */
  rows: number;
  /** Value slots used here (chunk c holds slots c * CHUNK_SLOTS ..). */
  fill: number;
  readonly chunks: unknown[][];
  /** Per row: code (kind, pair flag, rule), step, first slot; META_ROWS rows per array. */
  readonly metas: Int32Array[];
}

export function newSegment(parent: Segment | null, base: number): Segment {
  return { parent, base, rows: 0, fill: 0, chunks: [], metas: [] };
}

/** Rules get small numbers in the order first seen (process-wide; codes never leave the process). */
export const RULES: string[] = [];
const RULE_CODES = new RuleTable<number>((rule) => RULES.push(rule) - 1);

export function ruleCode(rule: string): number {
  return RULE_CODES.get(rule);
}

export function kindCode(kind: RowKind): number {
  return kind === '+I' ? 0 : kind === '-U' ? 1 : kind === '+U' ? 2 : 3;
}

export const PAIR = 4;
