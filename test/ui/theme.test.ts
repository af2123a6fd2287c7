/** Colours come from one theme; NO_COLOR and monochrome mode draw none, and row kinds stay apart by their text. */
import { describe, expect, it } from 'vitest';
import { kindTone, makeTheme, monoFromEnv } from '../../src/ui/theme.js';
import { plain } from '../../src/ui/lines.js';
import { renderPane } from '../../src/ui/panes/index.js';
import { stateAt } from './state-helpers.js';

describe('theme', () => {
  it('NO_COLOR (non-empty) means monochrome', () => {
    expect(monoFromEnv({ NO_COLOR: '1' })).toBe(true);
    expect(monoFromEnv({ NO_COLOR: '' })).toBe(false);
    expect(monoFromEnv({})).toBe(false);
  });

  it('gives each row kind its own colour, and none in monochrome', () => {
    const colour = makeTheme(false);
    const kinds = (['+I', '-U', '+U', '-D'] as const).map((k) => colour.color(kindTone(k)));
    expect(new Set(kinds).size).toBe(4);
    const mono = makeTheme(true);
    expect((['+I', '-U', '+U', '-D'] as const).map((k) => mono.color(kindTone(k)))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('the changelog tells kinds apart by their text alone', () => {
    const lines = renderPane(stateAt(7), 'changelog', 60, 4).map(plain);
    expect(lines.slice(1).map((l) => /([+-][IUD])\[/.exec(l)?.[1])).toEqual(['+I', '-U', '+U']);
  });
});
