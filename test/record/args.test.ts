/** `joinstep record` arguments, and the other commands' parsing left as it was. */
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';

describe('record arguments', () => {
  it('parses the options with their defaults', () => {
    expect(parseCli(['record', 'a.yaml', '--out', 'a.cast'])).toEqual({
      ok: true,
      command: { name: 'record', file: 'a.yaml', out: 'a.cast', columns: 100, rows: 30, paceMs: 700, mono: false },
    });
    const r = parseCli(['record', 'a.yaml', '-o', 'a.cast', '--keys', 'n p', '--size', '120x40', '--pace', '1s', '--frames', 'f.txt', '--svg', 'a.svg']);
    expect(r).toMatchObject({ ok: true, command: { keys: 'n p', columns: 120, rows: 40, paceMs: 1000, frames: 'f.txt', svg: 'a.svg' } });
  });

  it('rejects a missing --out, a bad size, a bad pace, two files', () => {
    expect(parseCli(['record', 'a.yaml'])).toMatchObject({ ok: false, message: expect.stringContaining('--out') });
    expect(parseCli(['record', 'a.yaml', '--out', 'x', '--size', '100'])).toMatchObject({ ok: false, message: expect.stringContaining('--size') });
    for (const size of ['39x30', '100x9', '1001x30', '100x1001', '99999x99999']) {
      expect(parseCli(['record', 'a.yaml', '--out', 'x', '--size', size])).toMatchObject({ ok: false, message: `bad --size '${size}'`, hint: expect.stringContaining('from 40x10 to 1000x1000') });
    }
    expect(parseCli(['record', 'a.yaml', '--out', 'x', '--size', '1000x1000'])).toMatchObject({ ok: true, command: { columns: 1000, rows: 1000 } });
    expect(parseCli(['record', 'a.yaml', '--out', 'x', '--pace', 'fast'])).toMatchObject({ ok: false, message: expect.stringContaining('--pace') });
    expect(parseCli(['record', 'a.yaml', 'b.yaml', '--out', 'x'])).toMatchObject({ ok: false });
  });

  it('record options stay unknown to the other commands', () => {
    expect(parseCli(['run', 'a.yaml', '--out', 'x'])).toMatchObject({ ok: false, message: expect.stringContaining("Unknown option '--out'") });
    expect(parseCli(['a.yaml', '--keys', 'n'])).toMatchObject({ ok: false });
  });
});
