/**
 * The STATE_TTL query hint: per-input state retention by alias or table/view name, validated as
 * Flink's QueryHintsResolver does ("cannot match the name of input tables or views").
 */
import type { Hint } from '../sql/ast.js';
import { parseDuration } from '../values/duration.js';
import { fail } from './errors.js';
import type { InputSource } from './input.js';

export interface TtlChoice {
  readonly ms: number;
  readonly source: 'config' | 'hint' | 'none';
}

/** The TTL per input (0 = left, 1 = right) from the STATE_TTL hints, else table.exec.state.ttl. */
export function stateTtls(hints: readonly Hint[], inputs: readonly [InputSource, InputSource], configTtlMs: number): [TtlChoice, TtlChoice] {
  const out: [TtlChoice, TtlChoice] = [
    { ms: configTtlMs, source: 'config' },
    { ms: configTtlMs, source: 'config' },
  ];
  const unknown: string[] = [];
  let firstUnknown: Hint['options'][number] | undefined;
  for (const h of hints.filter((x) => x.name === 'STATE_TTL')) {
    for (const o of h.options) {
      const i = inputs.findIndex((s) => s.alias === o.key || s.refName === o.key);
      if (i < 0) {
        unknown.push(o.key);
        firstUnknown ??= o;
        continue;
      }
      const d = parseDuration(o.value);
      if (!d.ok) fail(`Invalid STATE_TTL value '${o.value}' for '${o.key}'`, o.span, d.hint ?? "write a duration such as '1d', '12h' or '30 min'");
      out[i as 0 | 1] = { ms: d.ms, source: 'hint' };
    }
  }
  if (firstUnknown) {
    const names = inputs.map((s) => (s.alias === s.refName ? s.alias : `${s.alias} (${s.refName})`)).join(', ');
    fail(`The options of following hints cannot match the name of input tables or views: \n\`${unknown.join(', ')}\` in \`STATE_TTL\``,
      firstUnknown.span, `STATE_TTL keys name the join's inputs by alias or table name: ${names}`);
  }
  return out;
}
