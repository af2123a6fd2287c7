/**
 * Whether a stream gets colours, the same rule for every command and the app: FORCE_COLOR=0
 * (or `false`) never; FORCE_COLOR set to anything else (not empty) always, even into a pipe
 * (https://force-color.org; it wins over NO_COLOR, as in Node itself: it is the more specific
 * request); NO_COLOR set and not empty never (https://no-color.org); otherwise only on a terminal.
 */
export type ColorEnv = Readonly<Record<string, string | undefined>>;

export function colorEnabled(isTTY: boolean, env: ColorEnv): boolean {
  const force = env['FORCE_COLOR'];
  if (force === '0' || force === 'false') return false;
  if (force !== undefined && force !== '') return true;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return isTTY;
}

export interface Paint {
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly bold: (text: string) => string;
}

const wrap = (open: string, close: string) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const same = (text: string): string => text;

/** SGR codes when colour is on, the text unchanged when it is off. */
export function paint(on: boolean): Paint {
  return on ? { red: wrap('31', '39'), green: wrap('32', '39'), cyan: wrap('36', '39'), bold: wrap('1', '22') } : { red: same, green: same, cyan: same, bold: same };
}

/** The paint for stdout or stderr of this process. */
export function paintFor(stream: 'stdout' | 'stderr'): Paint {
  return paint(colorEnabled(process[stream].isTTY === true, process.env));
}

/**
 * A diagnostic (`FILE:LINE:COL: error: MESSAGE`, `hint: ...`) with `error:` in bold red and
 * `hint:` in cyan. Only those fixed words are painted; the text around them is left as it is.
 */
export function paintDiagnostic(text: string, p: Paint): string {
  return text
    .split('\n')
    .map((line) => line.replace(/^(.*?:\d+:\d+: )error:/, (_m, at: string) => `${at}${p.bold(p.red('error:'))}`).replace(/^(\s*)hint:/, (_m, pad: string) => `${pad}${p.cyan('hint:')}`))
    .join('\n');
}
