/**
 * `table.local-time-zone`, validated as Flink validates it (TableConfigUtils.validateTimeZone
 * refuses `UTC+8`-style ids and Java's three-letter short ids), then resolved by the values
 * module, which evaluates it later.
 */
import { resolveZone } from '../values/zone.js';

/** Java's ZoneId.SHORT_IDS keys, which Flink refuses. */
const SHORT_IDS = new Set([
  'ACT', 'AET', 'AGT', 'ART', 'AST', 'BET', 'BST', 'CAT', 'CNT', 'CST', 'CTT', 'EAT', 'ECT', 'EST', 'HST', 'IET', 'IST',
  'JST', 'MIT', 'MST', 'NET', 'NST', 'PLT', 'PNT', 'PRT', 'PST', 'SST', 'VST',
]);

const HINT = "use a region such as 'Europe/Berlin', 'UTC', or an offset such as 'GMT-08:00'";

export function checkTimeZone(zone: string): { message: string; hint?: string } | undefined {
  const upper = zone.trim().toUpperCase();
  if (upper.startsWith('UTC+') || upper.startsWith('UTC-') || SHORT_IDS.has(upper)) {
    return {
      message: `'${zone}' is not supported: Flink accepts a full zone name such as 'America/Los_Angeles' or a custom id such as 'GMT-08:00'`,
      hint: HINT,
    };
  }
  const r = resolveZone(zone);
  return r.ok ? undefined : { message: `'${zone}' is not a known time zone`, hint: r.hint ?? HINT };
}
