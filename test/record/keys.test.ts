/** The key script: tokens, typed text, pauses and the demo field's bare-word form. */
import { describe, expect, it } from 'vitest';
import { defaultKeyScript, parseKeyScript } from '../../src/record/keys.js';
import { lookupKey } from '../../src/ui/keymap.js';

const names = (script: string): string[] => {
  const r = parseKeyScript(script);
  if (!r.ok) throw new Error(r.message);
  return r.items.map((i) => (i.kind === 'key' ? i.name : `wait ${i.ms}`));
};

describe('key script', () => {
  it('reads named keys, single characters and pauses', () => {
    expect(names('n p space enter tab left right wait:2s G')).toEqual(['n', 'p', 'space', 'enter', 'tab', 'left', 'right', 'wait 2000', 'G']);
    expect(names('  n   wait:250ms  ')).toEqual(['n', 'wait 250']);
  });

  it('reads a bare word as one key per character (the demo: field form)', () => {
    expect(names('nnnn')).toEqual(['n', 'n', 'n', 'n']);
    expect(names(':12')).toEqual([':', '1', '2']);
  });

  it('types quoted text character by character, spaces included', () => {
    expect(names('/ "o1 x" enter')).toEqual(['/', 'o', '1', 'space', 'x', 'enter']);
  });

  it('sends the bytes a terminal sends', () => {
    const r = parseKeyScript('right shift-tab esc');
    expect(r.ok && r.items.map((i) => (i.kind === 'key' ? i.bytes : ''))).toEqual(['\u001b[C', '\u001b[Z', '\u001b']);
  });

  it('every named key of the script is a key the app binds or a prompt uses', () => {
    for (const k of ['space', 'enter', 'tab', 'shift-tab', 'left', 'right', 'up', 'down', 'pageup', 'pagedown']) {
      expect(lookupKey(k), k).toBeDefined();
    }
  });

  it('rejects an unterminated quote and a bad pause', () => {
    expect(parseKeyScript('n "abc').ok).toBe(false);
    expect(parseKeyScript('wait:soon').ok).toBe(false);
  });

  it('the default script is one n per step', () => {
    expect(names(defaultKeyScript(3))).toEqual(['n', 'n', 'n']);
  });
});
