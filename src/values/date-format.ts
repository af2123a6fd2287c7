/**
 * Java DateTimeFormatter-style patterns for DATE_FORMAT / FROM_UNIXTIME over a wall-clock time
 * (ms read as UTC): y, M (MMM / MMMM names), d, D, H, h, k, K, m, s, S (fraction digits), a, E,
 * quoted 'text' and '' for a quote. Letters outside that set are copied as they are.
 */
import { civilFromDays, daysFromCivil, MS_PER_DAY } from './zone.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

type Part = string | { letter: string; n: number };

const compiled = new Map<string, Part[]>();

function tokenize(pattern: string): Part[] {
  const out: Part[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === "'") {
      if (pattern[i + 1] === "'") {
        out.push("'");
        i += 2;
        continue;
      }
      // quoted text up to the closing quote; a doubled quote inside stands for one quote
      let text = '';
      i++;
      while (i < pattern.length) {
        if (pattern[i] === "'") {
          if (pattern[i + 1] === "'") {
            text += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += pattern[i];
        i++;
      }
      out.push(text);
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (pattern[j] === c) j++;
      out.push({ letter: c, n: j - i });
      i = j;
    } else {
      out.push(c);
      i++;
    }
  }
  return out;
}

const pad = (v: number, n: number): string => String(v).padStart(n, '0');

function field(letter: string, n: number, wall: number): string {
  const days = Math.floor(wall / MS_PER_DAY);
  const tod = wall - days * MS_PER_DAY;
  const [y, mo, d] = civilFromDays(days);
  const h = Math.floor(tod / 3_600_000);
  switch (letter) {
    case 'y':
    case 'u':
      return n === 2 ? pad(((y % 100) + 100) % 100, 2) : pad(y, n);
    case 'M':
    case 'L':
      return n >= 4 ? (MONTHS[mo - 1] as string) : n === 3 ? (MONTHS[mo - 1] as string).slice(0, 3) : pad(mo, n);
    case 'd':
      return pad(d, n);
    case 'D':
      return pad(days - daysFromCivil(y, 1, 1) + 1, n);
    case 'H':
      return pad(h, n);
    case 'k':
      return pad(h === 0 ? 24 : h, n);
    case 'h':
      return pad(h % 12 === 0 ? 12 : h % 12, n);
    case 'K':
      return pad(h % 12, n);
    case 'm':
      return pad(Math.floor(tod / 60_000) % 60, n);
    case 's':
      return pad(Math.floor(tod / 1000) % 60, n);
    case 'S':
      return pad(tod % 1000, 3).padEnd(n, '0').slice(0, n);
    case 'a':
      return h < 12 ? 'AM' : 'PM';
    case 'E': {
      const name = DAYS[(((days + 3) % 7) + 7) % 7] as string; // 1970-01-01 was a Thursday
      return n >= 4 ? name : name.slice(0, 3);
    }
    default:
      return letter.repeat(n);
  }
}

export function formatPattern(wallMs: number, pattern: string): string {
  let parts = compiled.get(pattern);
  if (!parts) {
    parts = tokenize(pattern);
    compiled.set(pattern, parts);
  }
  let out = '';
  for (const p of parts) out += typeof p === 'string' ? p : field(p.letter, p.n, wallMs);
  return out;
}
