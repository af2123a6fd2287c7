/** The one colour rule (cli/color.ts), and the app's monochrome switch following it. */
import { describe, expect, it } from 'vitest';
import { colorEnabled, paint, paintDiagnostic } from '../../src/cli/color.js';
import { monoFromEnv } from '../../src/ui/theme.js';

describe('colorEnabled', () => {
  it.each([
    [true, {}, true],
    [false, {}, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true],
    [false, { FORCE_COLOR: '1' }, true],
    [false, { FORCE_COLOR: '3' }, true],
    [false, { FORCE_COLOR: '' }, false],
    [true, { FORCE_COLOR: '0' }, false],
    [true, { FORCE_COLOR: 'false' }, false],
    [false, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
    [true, { FORCE_COLOR: '0', NO_COLOR: '' }, false],
  ])('on a terminal: %s, env %j → %s', (tty, env, expected) => {
    expect(colorEnabled(tty, env)).toBe(expected);
  });

  it('the app is monochrome exactly when a terminal would get no colour', () => {
    expect(monoFromEnv({ FORCE_COLOR: '0' })).toBe(true);
    expect(monoFromEnv({ NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
    expect(monoFromEnv({})).toBe(false);
  });
});

describe('paintDiagnostic', () => {
  it('paints only the fixed words error: and hint:, never the message', () => {
    const text = 'a b.yaml:3:7: error: unknown key `error:`\nhint: did you mean `hint:`?\n';
    expect(paintDiagnostic(text, paint(true))).toBe('a b.yaml:3:7: \x1b[1m\x1b[31merror:\x1b[39m\x1b[22m unknown key `error:`\n\x1b[36mhint:\x1b[39m did you mean `hint:`?\n');
    expect(paintDiagnostic(text, paint(false))).toBe(text);
  });
});
