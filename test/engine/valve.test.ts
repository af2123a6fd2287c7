// Cases after Flink's StatusWatermarkValveTest and CombinedWatermarkStatus (notes §1.2, §1.3).
import { describe, expect, it } from 'vitest';
import { combineWatermarks, newValve, valveHeldBy, valveStatus, valveWatermark, type ValveState } from '../../src/engine/valve.js';
import { WM_MIN } from '../../src/engine/types.js';

type Out = number | 'IDLE' | 'ACTIVE';

function harness(n: number) {
  const v: ValveState = newValve(n);
  let seen: Out[] = [];
  const out = { watermark: (x: number) => seen.push(x), status: (idle: boolean) => seen.push(idle ? 'IDLE' : 'ACTIVE') };
  return {
    v,
    wm: (ch: number, x: number) => valveWatermark(v, ch, x, out),
    idle: (ch: number) => valveStatus(v, ch, true, out),
    active: (ch: number) => valveStatus(v, ch, false, out),
    pop(): Out[] {
      const s = seen;
      seen = [];
      return s;
    },
  };
}

describe('StatusWatermarkValve', () => {
  it('single input: increasing watermarks pass, decreasing ones are ignored', () => {
    const h = harness(1);
    h.wm(0, 25);
    expect(h.pop()).toEqual([25]);
    h.wm(0, 18);
    expect(h.pop()).toEqual([]);
    h.wm(0, 42);
    expect(h.pop()).toEqual([42]);
  });

  it('single input: status toggles only on change', () => {
    const h = harness(1);
    h.active(0);
    expect(h.pop()).toEqual([]);
    h.idle(0);
    expect(h.pop()).toEqual(['IDLE']);
    h.idle(0);
    expect(h.pop()).toEqual([]);
    h.active(0);
    expect(h.pop()).toEqual(['ACTIVE']);
  });

  it('an idle channel ignores watermarks and keeps its old value', () => {
    const h = harness(1);
    h.wm(0, 25);
    h.idle(0);
    h.pop();
    h.wm(0, 50);
    expect(h.pop()).toEqual([]);
    expect(h.v.channels[0]!.wm).toBe(25);
    h.active(0);
    expect(h.pop()).toEqual(['ACTIVE']);
    h.wm(0, 50);
    expect(h.pop()).toEqual([50]);
  });

  it('emits only once every channel has a watermark, then the minimum', () => {
    const h = harness(3);
    h.wm(0, 0);
    h.wm(1, 0);
    expect(h.pop()).toEqual([]);
    h.wm(2, 0);
    expect(h.pop()).toEqual([0]);
    h.wm(0, 12);
    h.wm(2, 8);
    h.wm(2, 10);
    expect(h.pop()).toEqual([]);
    h.wm(1, 15);
    expect(h.pop()).toEqual([10]);
    h.wm(2, 17);
    expect(h.pop()).toEqual([12]);
    expect(valveHeldBy(h.v)).toBe(0);
  });

  it('idle channels are left out of the minimum', () => {
    const h = harness(3);
    h.wm(0, 25);
    h.wm(1, 10);
    h.wm(2, 17);
    expect(h.pop()).toEqual([10]);
    h.idle(1);
    expect(h.pop()).toEqual([17]);
    h.idle(2);
    expect(h.pop()).toEqual([25]);
  });

  it('flushes the maximum when the channel holding the output is the last to go idle', () => {
    const h = harness(3);
    h.wm(0, 10);
    h.wm(1, 5);
    h.wm(2, 3);
    expect(h.pop()).toEqual([3]);
    h.idle(0);
    h.idle(1);
    expect(h.pop()).toEqual([]);
    h.idle(2);
    expect(h.pop()).toEqual([10, 'IDLE']);
  });

  it('flushes nothing when the last channel to go idle does not hold the output (StatusWatermarkValve checks its watermark against the last output)', () => {
    const h = harness(3);
    h.wm(0, 100);
    h.wm(1, 50);
    h.wm(2, 70);
    expect(h.pop()).toEqual([50]);
    h.idle(1);
    expect(h.pop()).toEqual([70]);
    h.active(1);
    expect(h.v.channels[1]!.aligned).toBe(false);
    h.wm(1, 60);
    expect(h.v.channels[1]!.wm).toBe(60);
    expect(h.v.channels[1]!.aligned).toBe(false);
    h.idle(0);
    h.idle(2);
    expect(h.pop()).toEqual([]);
    h.idle(1);
    // channel 1 (60, unaligned) is not at the output (70): Flink 2.3.0's valve skips the flush
    expect(h.pop()).toEqual(['IDLE']);
  });

  it('a re-activated channel must catch up before it counts again', () => {
    const h = harness(3);
    h.wm(0, 10);
    h.wm(1, 7);
    h.wm(2, 3);
    expect(h.pop()).toEqual([3]);
    h.idle(2);
    expect(h.pop()).toEqual([7]);
    h.active(2);
    expect(h.v.channels[2]!.aligned).toBe(false);
    h.wm(2, 5);
    expect(h.pop()).toEqual([]);
    h.wm(2, 9);
    expect(h.v.channels[2]!.aligned).toBe(true);
    expect(h.pop()).toEqual([]);
    h.wm(1, 12);
    expect(h.pop()).toEqual([9]);
  });

  it('emits nothing when every active channel is unaligned', () => {
    const h = harness(3);
    h.wm(0, 10);
    h.wm(1, 7);
    h.idle(2);
    expect(h.pop()).toEqual([7]);
    h.active(2);
    h.idle(0);
    h.idle(1);
    expect(h.pop()).toEqual([]);
  });

  // The expectations of the next two cases are what Flink 2.3.0's (and 2.0.2's, the same bytecode)
  // StatusWatermarkValve emitted when driven with these calls.
  it('a channel realigned by ACTIVE emits nothing until a watermark arrives, even as the only aligned one', () => {
    const h = harness(3);
    h.wm(0, 10);
    h.wm(1, 7);
    h.idle(2);
    expect(h.pop()).toEqual([7]);
    h.active(2);
    h.idle(0);
    h.idle(1);
    expect(h.pop()).toEqual([]);
    h.active(0);
    expect(h.v.channels[0]!.aligned).toBe(true);
    expect(h.pop()).toEqual([]);
    h.wm(0, 11);
    expect(h.pop()).toEqual([11]);
    h.idle(2);
    expect(h.pop()).toEqual([]);
  });

  it('does not emit the flushed maximum twice', () => {
    const h = harness(3);
    h.wm(0, 10);
    h.wm(1, 20);
    h.wm(2, 30);
    expect(h.pop()).toEqual([10]);
    h.idle(2);
    expect(h.pop()).toEqual([]);
    h.idle(0);
    expect(h.pop()).toEqual([20]);
    h.active(0);
    h.idle(1);
    expect(h.pop()).toEqual([]);
    h.active(2);
    expect(h.pop()).toEqual([]);
    h.wm(2, 31);
    expect(h.pop()).toEqual([31]);
    h.idle(0);
    h.idle(2);
    expect(h.pop()).toEqual(['IDLE']);
  });
});

describe('CombinedWatermarkStatus', () => {
  it('is the minimum over active inputs', () => {
    expect(combineWatermarks([{ wm: 5, idle: false }, { wm: 9, idle: false }])).toBe(5);
    expect(combineWatermarks([{ wm: 5, idle: true }, { wm: 9, idle: false }])).toBe(9);
  });
  it('is the maximum when every input is idle', () => {
    expect(combineWatermarks([{ wm: 5, idle: true }, { wm: 9, idle: true }])).toBe(9);
  });
  it('does not move when every input is idle before 2.2 (FLINK-38454)', () => {
    expect(combineWatermarks([{ wm: 5, idle: true }, { wm: 9, idle: true }], false)).toBe(WM_MIN);
    expect(combineWatermarks([{ wm: 5, idle: true }, { wm: 9, idle: false }], false)).toBe(9);
  });
  it('is held at MIN by an input that has no watermark yet', () => {
    expect(combineWatermarks([{ wm: WM_MIN, idle: false }, { wm: 9, idle: false }])).toBe(WM_MIN);
  });
});
