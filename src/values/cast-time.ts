/** CAST into DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ (the session zone converts between the last two). */
import { failCast, unsupported, zoneOf, type CastFn } from './cast-util.js';
import { parseDateText, parseTimeLiteral, parseTimeOfDay, truncateToPrecision } from './time.js';
import type { SqlType } from './types.js';
import { isCharKind } from './value-kinds.js';
import { instantToWall, MS_PER_DAY, wallToInstant } from './zone.js';

const floorDiv = (a: number, b: number): number => Math.floor(a / b);
const floorMod = (a: number, b: number): number => a - Math.floor(a / b) * b;

function parseWall(v: string, to: SqlType): number {
  const r = parseTimeLiteral(v.trim(), { dateMs: 0, timeZone: 'UTC' }, false);
  if (!r.ok || !/^\s*-?\d{4,}-/.test(v)) failCast(v, to);
  return r.ms;
}

export function toTemporalFn(from: SqlType, to: SqlType): CastFn {
  const f = from.kind;
  const p = to.precision ?? (to.kind === 'TIME' ? 0 : 3);
  const trunc = (ms: number): number => truncateToPrecision(ms, p);
  switch (to.kind) {
    case 'DATE':
      if (isCharKind(f)) {
        return (v) => {
          const d = parseDateText((v as string).trim().split(/[ T]/)[0] ?? '');
          return typeof d === 'number' ? d : failCast(v, to);
        };
      }
      if (f === 'TIMESTAMP') return (v) => floorDiv(v as number, MS_PER_DAY);
      if (f === 'TIMESTAMP_LTZ') return (v, ctx) => floorDiv(instantToWall(v as number, zoneOf(ctx)), MS_PER_DAY);
      break;
    case 'TIME':
      if (isCharKind(f)) {
        return (v) => {
          const t = parseTimeOfDay((v as string).trim());
          return typeof t === 'number' ? trunc(t) : failCast(v, to);
        };
      }
      if (f === 'TIMESTAMP') return (v) => trunc(floorMod(v as number, MS_PER_DAY));
      if (f === 'TIMESTAMP_LTZ') return (v, ctx) => trunc(floorMod(instantToWall(v as number, zoneOf(ctx)), MS_PER_DAY));
      break;
    case 'TIMESTAMP':
      if (isCharKind(f)) return (v) => trunc(parseWall(v as string, to));
      if (f === 'DATE') return (v) => (v as number) * MS_PER_DAY;
      if (f === 'TIME') return (v) => trunc(v as number);
      if (f === 'TIMESTAMP_LTZ') return (v, ctx) => trunc(instantToWall(v as number, zoneOf(ctx)));
      break;
    case 'TIMESTAMP_LTZ':
      if (isCharKind(f)) return (v, ctx) => trunc(wallToInstant(parseWall(v as string, to), zoneOf(ctx)));
      if (f === 'DATE') return (v, ctx) => wallToInstant((v as number) * MS_PER_DAY, zoneOf(ctx));
      if (f === 'TIMESTAMP') return (v, ctx) => trunc(wallToInstant(v as number, zoneOf(ctx)));
      break;
  }
  return unsupported(from, to);
}

