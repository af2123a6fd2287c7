/**
 * Line tables for positions in big texts: a scenario whose events block was cut out before YAML
 * parsing (fast-events.ts), and data files. A table is built when a position is first asked
 * for: a load without a problem never needs one.
 */
import { LineCounter } from 'yaml';

/**
 * Positions in the reduced text (the events block cut out), reported as positions in the whole
 * text: offsets past the cut map to their place in the original.
 */
export function shiftedLines(text: string, block: { readonly suffixStart: number; readonly shift: number }): LineCounter {
  const whole = lazyLines(text);
  const lc = new LineCounter();
  lc.linePos = (offset) => whole.linePos(offset >= block.suffixStart ? offset + block.shift : offset);
  return lc;
}

/** The whole text's line starts, found when a position is first asked for (most loads never ask). */
export function lazyLines(text: string): LineCounter {
  const lc = new LineCounter();
  const linePos = lc.linePos;
  let ready = false;
  lc.linePos = (offset) => {
    if (!ready) {
      lc.addNewLine(0);
      for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) lc.addNewLine(k + 1);
      ready = true;
    }
    return linePos(offset);
  };
  return lc;
}
