/**
 * `run` writes into a file with one synchronous write (src/cli/output.ts writeWhole). A write to
 * a file that fills the disk during it takes part of the bytes and says nothing; the next one
 * fails with ENOSPC. These writers act as such a file does, so that output cut short is never
 * taken for output written.
 */
import { describe, expect, it } from 'vitest';
import { writeWhole, type WriteSync } from '../../src/cli/output.js';

/** A file of `room` bytes: writes take what fits, then fail as a full disk does. */
function fileWithRoom(room: number): { write: WriteSync; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  let used = 0;
  const write = ((_fd: number, data: string | Uint8Array, offset: number = 0) => {
    const all = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data).subarray(offset);
    if (used >= room) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const took = all.subarray(0, room - used);
    chunks.push(took);
    used += took.length;
    return took.length;
  }) as WriteSync;
  return { write, bytes: () => Buffer.concat(chunks) };
}

describe('writeWhole', () => {
  it.each([
    ['ASCII', '+I[k1, 10, o1]\n'.repeat(100)],
    ['multi-byte', '+I[k1, 10, ö1, 東京]\n'.repeat(100)],
  ])('writes all of a %s text when the file has room', (_name, text) => {
    const f = fileWithRoom(1 << 20);
    writeWhole(1, text, f.write);
    expect(f.bytes().toString('utf8')).toBe(text);
  });

  it.each([
    ['ASCII', '+I[k1, 10, o1]\n'.repeat(100)],
    ['multi-byte', '+I[k1, 10, ö1, 東京]\n'.repeat(100)],
  ])('a %s text cut short by a full disk ends in the disk’s error, not in a shorter file taken as whole', (_name, text) => {
    const f = fileWithRoom(777);
    expect(() => writeWhole(1, text, f.write)).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    expect(f.bytes().length).toBe(777);
  });

  it('a write that takes part and then the rest (a slow device) leaves the whole text', () => {
    const text = 'ab東京cd\n'.repeat(50);
    const out: Buffer[] = [];
    let first = true;
    const write = ((_fd: number, data: string | Uint8Array, offset: number = 0) => {
      const all = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data).subarray(offset);
      const took = first ? all.subarray(0, 13) : all.subarray(0, 100);
      first = false;
      out.push(took);
      return took.length;
    }) as WriteSync;
    writeWhole(1, text, write);
    expect(Buffer.concat(out).toString('utf8')).toBe(text);
  });

  it('a device that takes nothing and says nothing ends in an error, not a loop', () => {
    let calls = 0;
    const write = ((_fd: number, data: string | Uint8Array) => {
      calls++;
      return typeof data === 'string' ? 3 : 0;
    }) as WriteSync;
    expect(() => writeWhole(1, 'abcdef', write)).toThrow(expect.objectContaining({ code: 'EIO' }));
    expect(calls).toBe(2);
  });
});
