/**
 * The one place colours are chosen. Panes name a tone ("insert", "late", ...); the theme turns it
 * into an Ink colour, or into nothing in monochrome mode (NO_COLOR or the `c` key). Monochrome
 * still tells row kinds apart because every changelog row carries its kind text (+I -U +U -D).
 */
import { colorEnabled } from '../cli/color.js';
import type { RowKind } from '../values/types.js';

export type Tone =
  | 'insert'
  | 'updateBefore'
  | 'updateAfter'
  | 'delete'
  | 'late'
  | 'changed'
  | 'removed'
  | 'title'
  | 'focus'
  | 'muted'
  | 'key'
  | 'warn'
  | 'error'
  | 'note'
  | 'wm';

export interface Theme {
  readonly mono: boolean;
  color(tone: Tone | undefined): string | undefined;
}

const PALETTE: Readonly<Record<Tone, string>> = {
  insert: 'green',
  updateBefore: 'yellow',
  updateAfter: 'cyan',
  delete: 'red',
  late: 'red',
  changed: 'yellow',
  removed: 'red',
  title: 'blue',
  focus: 'cyan',
  muted: 'gray',
  key: 'magenta',
  warn: 'yellow',
  error: 'red',
  note: 'magenta',
  wm: 'blue',
};

export function makeTheme(mono: boolean): Theme {
  return { mono, color: (tone) => (mono || tone === undefined ? undefined : PALETTE[tone]) };
}

/**
 * Monochrome by the environment: NO_COLOR (https://no-color.org) present and not empty, unless
 * FORCE_COLOR asks for colour; or FORCE_COLOR=0. The rule every command follows (cli/color.ts).
 */
export function monoFromEnv(env: NodeJS.ProcessEnv): boolean {
  return !colorEnabled(true, env);
}

export function kindTone(kind: RowKind): Tone {
  switch (kind) {
    case '+I':
      return 'insert';
    case '-U':
      return 'updateBefore';
    case '+U':
      return 'updateAfter';
    case '-D':
      return 'delete';
  }
}
