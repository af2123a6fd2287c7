// The output watermark of an empty-window interval join (a union in Flink's plan), of a FALSE
// condition over an empty window, of a valve channel back from idle, and the idle timeout that
// fires only when the clock is set. Expected values are real Flink 2.3.0's, as the headers of the
// files record them; `expect:` cannot hold watermarks, so they are checked here.
import { describe, expect, it } from 'vitest';
import { joinstepRun } from '../../src/flink/joinstep-side.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { ROOT } from '../cli/helpers.js';

async function watermarksOf(file: string) {
  const loaded = await loadScenarioFile(`${ROOT}/test/flink-cases/${file}`);
  if (!loaded.ok) throw new Error(`${file} does not load: ${loaded.diagnostics[0]?.message ?? '?'}`);
  return joinstepRun(loaded.scenario, 0).watermarks;
}

const at = (hms: string): number => Date.parse(`2026-10-01T${hms}Z`);

describe('output watermarks Flink 2.3.0 emits', () => {
  it("an empty window's union leaves out a channel back from idle below the output", async () => {
    expect(await watermarksOf('fuzz-case-interval-negative-window-union-valve.yaml')).toEqual([
      { step: 2, value: at('09:00:25') },
      { step: 4, value: at('09:00:29') },
    ]);
  });

  it("an empty window's union has a channel per side, each side's partitions combined by its own valve first", async () => {
    expect(await watermarksOf('fuzz-case-interval-negative-window-union-per-input.yaml')).toEqual([
      { step: 3, value: at('09:00:01') },
      { step: 4, value: at('09:00:15') },
    ]);
  });

  it('a condition folded to FALSE plans no union over an empty window, so nothing emits a watermark', async () => {
    expect(await watermarksOf('fuzz-case-interval-always-false-empty-window-no-union.yaml')).toEqual([]);
  });

  it('a channel back from idle at or above the output moves the valve only with its next watermark', async () => {
    expect(await watermarksOf('fuzz-case-valve-reactivated-channel-waits-for-a-watermark.yaml')).toEqual([{ step: 5, value: at('09:00:22') }]);
  });

  it('a partition a watermark re-activated stays active until the clock is set again', async () => {
    expect(await watermarksOf('fuzz-case-idle-timeout-fires-when-the-clock-is-set.yaml')).toEqual([{ step: 2, value: at('09:00:18') }]);
  });
});
