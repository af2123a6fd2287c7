/**
 * Times in messages, as a user wrote them: `09:30` on the scenario's `date`, else the full form.
 */
const DAY_MS = 86_400_000;

export function clockText(ms: number, dateMs: number): string {
  const d = new Date(ms);
  // the loader rejects times beyond years 0001-9999; never print NaN if one slips through
  if (Number.isNaN(d.getTime())) return `${ms} ms`;
  const hh = pad(d.getUTCHours());
  const mi = pad(d.getUTCMinutes());
  const ss = d.getUTCSeconds();
  const mss = d.getUTCMilliseconds();
  let time = `${hh}:${mi}`;
  if (ss !== 0 || mss !== 0) time += `:${pad(ss)}`;
  if (mss !== 0) time += `.${String(mss).padStart(3, '0')}`;
  if (ms >= dateMs && ms < dateMs + DAY_MS) return time;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${time}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
