/**
 * Times in messages, as a user wrote them: `09:30` on the scenario's `date`, else the full form
 * (src/values/time.ts `formatClock`, the same text the app shows).
 */
import { formatClock } from '../values/time.js';

/** The largest instant JavaScript dates can hold; beyond it the text would be garbage. */
const MAX_DATE_MS = 8.64e15;

export function clockText(ms: number, dateMs: number): string {
  // The loader rejects times beyond years 0001-9999; never print nonsense if one slips through.
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) return `${ms} ms`;
  return formatClock(ms, dateMs);
}
