/** Arguments of `joinstep record`, after the command table (command-registry.ts) parsed its options. */
import type { OptionValues } from './command-registry.js';
import { parseDuration } from '../values/duration.js';

export interface RecordCommand {
  readonly name: 'record';
  readonly file: string;
  readonly out: string;
  readonly keys?: string;
  readonly columns: number;
  readonly rows: number;
  readonly paceMs: number;
  readonly frames?: string;
  readonly svg?: string;
  readonly mono: boolean;
}

type Parsed = { readonly ok: true; readonly command: RecordCommand } | { readonly ok: false; readonly message: string; readonly hint?: string };

/** The largest --size on either side: a terminal wider or taller than any screen shows. */
const MAX_SIDE = 1000;

const EXAMPLE = 'joinstep record scenarios/temporal-eur-rate.yaml --out demo.cast';

export function recordFromValues(values: OptionValues, positionals: readonly string[]): Parsed {
  if (positionals.length !== 1) return { ok: false, message: '`record` takes exactly one scenario file', hint: EXAMPLE };
  const out = values.out;
  if (typeof out !== 'string') return { ok: false, message: '`record` needs --out FILE (the .cast to write)', hint: EXAMPLE };
  const size = /^(\d+)x(\d+)$/.exec(typeof values.size === 'string' ? values.size : '100x30');
  const columns = Number(size?.[1]);
  const rows = Number(size?.[2]);
  // The recorder draws every frame as a full grid: 99999x99999 ran out of memory after 30 s.
  if (size === null || columns < 40 || rows < 10 || columns > MAX_SIDE || rows > MAX_SIDE) {
    return { ok: false, message: `bad --size '${String(values.size)}'`, hint: `write COLUMNSxROWS, from 40x10 to ${MAX_SIDE}x${MAX_SIDE}, e.g. --size 100x30` };
  }
  const pace = parseDuration(typeof values.pace === 'string' ? values.pace : '700ms');
  if (!pace.ok || pace.ms <= 0) return { ok: false, message: `bad --pace '${String(values.pace)}'`, hint: 'a duration per key, e.g. --pace 700ms or --pace 1s' };
  const opt = (k: string): string | undefined => (typeof values[k] === 'string' ? values[k] : undefined);
  const keys = opt('keys');
  const frames = opt('frames');
  const svg = opt('svg');
  return {
    ok: true,
    command: {
      name: 'record',
      file: positionals[0]!,
      out,
      ...(keys !== undefined ? { keys } : {}),
      columns,
      rows,
      paceMs: pace.ms,
      ...(frames !== undefined ? { frames } : {}),
      ...(svg !== undefined ? { svg } : {}),
      mono: values.mono === true,
    },
  };
}
