/**
 * A fixed-seed sample of `npm run fuzz:flink` against real Flink 2.3 (docs/fuzzing.md): the same
 * generated scenarios, through joinstep and through the harness, judged by the fuzzer's own
 * comparison. A regression in joinstep's engine or planner, in the harness, or in the comparison
 * shows here at once. Runs where Java 17+ and Maven are present; otherwise skipped with the reason,
 * and JOINSTEP_REQUIRE_FLINK=1 (set by .ci/run) turns that skip into a failure.
 *
 * The scenarios that still disagree are listed in OPEN with their cause (docs/fuzzing.md, "What
 * still disagrees"); each must still disagree, so that fixing one means updating the list and the
 * docs, and a new disagreement anywhere else fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flinkAvailable } from '../../src/flink/harness-client.js';
import { harnessDir } from '../../src/flink/harness-build.js';
import { compareWithFlink, loadHarness, type HarnessLike } from '../../src/fuzz/flink-compare.js';
import { generateCase } from '../../src/fuzz/generate.js';
import { runJoinstep } from '../../src/fuzz/joinstep-run.js';
import { FAMILIES } from '../../src/fuzz/model.js';
import { renderCase } from '../../src/fuzz/render.js';

const SEED = 1000;
const PER_FAMILY = 10;
const BUILD_TIMEOUT = 20 * 60_000;

/** family:seed → why it still differs (each cause is in docs/fuzzing.md). */
const OPEN: Readonly<Record<string, string>> = {};

function skipReason(): string | undefined {
  const available = flinkAvailable();
  if (!available.ok) return available.message;
  try {
    harnessDir();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return undefined;
}

const reason = skipReason();

if (reason !== undefined) {
  describe('fuzz sample against real Flink', () => {
    if (process.env['JOINSTEP_REQUIRE_FLINK'] === '1') {
      it('must run here (JOINSTEP_REQUIRE_FLINK=1)', () => {
        throw new Error(`real Flink cannot run: ${reason}`);
      });
    } else {
      it.skip(`SKIPPED: ${reason}`, () => undefined);
    }
  });
} else {
  describe(`fuzz sample against real Flink 2.3 (seeds ${SEED}..${SEED + PER_FAMILY - 1} per family)`, () => {
    let harness: HarnessLike;
    beforeAll(async () => {
      const h = loadHarness();
      if (typeof h === 'string') throw new Error(h);
      harness = h;
    }, BUILD_TIMEOUT);
    afterAll(() => harness?.close());

    const cases = FAMILIES.flatMap((family) => Array.from({ length: PER_FAMILY }, (_, i) => [family, SEED + i] as const));
    it.each(cases)('%s seed %i', async (family, seed) => {
      const c = generateCase(seed, { family, flinkVersion: '2.3' });
      const file = `fuzz-${family}-2.3-${seed}.yaml`;
      const cmp = await compareWithFlink(harness, c, runJoinstep(file, renderCase(c)));
      const open = OPEN[`${family}:${seed}`];
      if (open !== undefined) {
        expect(cmp.verdict, `listed as still differing (${open}); if it is fixed, update OPEN and docs/fuzzing.md`).toBe('differ');
      } else {
        expect([cmp.verdict, cmp.detail]).toEqual([expect.stringMatching(/^(agree|rejected|not-expressible)$/), expect.anything()]);
      }
    }, BUILD_TIMEOUT);
  });
}
