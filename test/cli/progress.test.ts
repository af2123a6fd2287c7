/**
 * Progress on stderr (src/cli/progress.ts), with a fake clock: quiet for the first third of a
 * second, then a redrawn line with count, rate and estimate, erased when the stage is done.
 */
import { describe, expect, it } from 'vitest';
import { Progress, progressLine } from '../../src/cli/progress.js';

function setup() {
  let now = 0;
  const out: string[] = [];
  const p = new Progress({ write: (t) => out.push(t), now: () => now });
  return { p, out, at: (ms: number) => (now = ms) };
}

describe('progress', () => {
  it('stays quiet for a short stage and draws nothing', () => {
    const { p, out, at } = setup();
    const f = p.stage('loading', 'events read');
    for (let i = 1; i <= 4096; i++) {
      at(i * 0.05);
      f(i, 4096);
    }
    p.done();
    expect(out).toEqual([]);
  });

  it('after a third of a second shows count, rate and an estimate, at most ten times a second, then erases the line', () => {
    const { p, out, at } = setup();
    const f = p.stage('loading', 'events read');
    // 1,000,000 events at 1 ms per 1024: about 1 M events/s.
    for (let i = 1; i <= 1_000_000; i++) {
      if (i % 1024 === 0) at(i / 1024);
      f(i, 1_000_000);
    }
    p.done();
    const lines = out.filter((t) => t.startsWith('\r\x1b[Kjoinstep'));
    // 977 ms of reports, drawn from 333 ms on, at most every 100 ms.
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.length).toBeLessThanOrEqual(7);
    expect(lines[0]).toMatch(/^\r\x1b\[Kjoinstep: loading: 3\d\d,\d{3} of 1,000,000 events read, 1,02\d,\d{3}\/s, about 1 s left$/);
    expect(out[out.length - 1]).toBe('\r\x1b[K');
  });

  it('formats a stage without a total, and escapes control characters in the label', () => {
    expect(progressLine('running', 'events', 3000, undefined, 1500)).toBe('joinstep: running: 3,000 events, 2,000/s');
    expect(progressLine('running', 'events', 500, 2000, 1000)).toBe('joinstep: running: 500 of 2,000 events, 500/s, about 3 s left');
    const { p, out, at } = setup();
    const f = p.stage('loading a\x1bb.yaml', 'events read');
    at(1000);
    f(1024);
    expect(out[0]).not.toContain('\x1bb');
    expect(out[0]).toContain('a\\u001bb.yaml');
  });
});
