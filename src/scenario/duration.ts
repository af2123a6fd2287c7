/**
 * Durations in scenario files: spec §3's forms (through src/values/time.ts) plus the unit
 * spellings Flink's own configuration accepts (`5 m` is five minutes there).
 */
import { isScalar } from 'yaml';
import type { Node } from 'yaml';
import { parseDuration } from '../values/time.js';
import { scalarSource } from './context.js';

export type DurationResult = { ok: true; ms: number } | { ok: false; message: string; hint?: string };

/** Flink's TimeUtils reads `m` as minutes; the scenario format itself avoids it (ms or min?). */
const FLINK_UNITS: Readonly<Record<string, string>> = { m: 'min' };

const DURATION_HINT = 'write a duration such as `250 ms`, `5 s`, `30 min`, `2 h` or `1 d` (a bare integer is milliseconds)';

/** `flinkUnits`: also accept Flink's configuration spellings (config values only). */
export function readDuration(node: Node | null, flinkUnits = false): DurationResult {
  if (!isScalar(node) || node.value === null || typeof node.value === 'boolean' || typeof node.value === 'object') {
    return { ok: false, message: 'expected a duration', hint: DURATION_HINT };
  }
  const input: string | number = typeof node.value === 'number' ? Number(scalarSource(node)) : String(node.value);
  if (typeof input === 'number' && (!Number.isInteger(input) || Number.isNaN(input))) {
    return { ok: false, message: `${scalarSource(node)} is not a duration`, hint: DURATION_HINT };
  }
  if (typeof input === 'number' && input > Number.MAX_SAFE_INTEGER) {
    // Quoted as written: as a number it would be rounded (…775807 → …776000).
    return { ok: false, message: `${scalarSource(node)} is too long a duration`, hint: DURATION_HINT };
  }
  if (typeof input === 'number' && input < 0) {
    return { ok: false, message: `a duration cannot be negative (${input})`, hint: DURATION_HINT };
  }
  const first = parseDuration(input);
  if (first.ok || typeof input === 'number') return withHint(first, input);
  const m = /^\s*(\d+)\s*([a-zA-Z]+)\s*$/.exec(input);
  const unit = m && flinkUnits ? FLINK_UNITS[m[2]!.toLowerCase()] : undefined;
  if (m && unit !== undefined) {
    const second = parseDuration(`${m[1]} ${unit}`);
    if (second.ok) return second;
  }
  return withHint(first, input);
}

function withHint(r: DurationResult, input: string | number): DurationResult {
  if (r.ok) return r;
  const message = r.message && !r.message.includes('undefined') ? r.message : `"${input}" is not a duration`;
  return { ok: false, message, hint: r.hint ?? DURATION_HINT };
}
