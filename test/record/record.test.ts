/**
 * `joinstep record` over the real app and engine: the asciicast is well formed, deterministic,
 * has one marker per step reached, and its frames are the app's real panes (golden file).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { recordScenario, type RecordResult } from '../../src/record/record.js';
import { parseCast, plain, stepChanges, stepsShown } from './cast-parser.js';

const EUR = 'scenarios/temporal-eur-rate.yaml';
const GOLDEN = 'test/record/golden/temporal-eur-rate.txt';

async function record(keys: string | undefined, size = { columns: 100, rows: 30 }, paceMs = 700): Promise<Extract<RecordResult, { ok: true }>> {
  const r = await recordScenario({ file: EUR, ...(keys !== undefined ? { keys } : {}), ...size, paceMs });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r;
}

const markers = (cast: ReturnType<typeof parseCast>) => cast.events.filter((e) => e[1] === 'm');

describe('joinstep record', () => {
  it('writes a valid asciicast v2 with the cursor hidden first and one marker per step', async () => {
    const r = await record(undefined);
    const cast = parseCast(r.cast);
    expect(cast.header).toMatchObject({ version: 2, width: 100, height: 30, timestamp: 0 });
    expect(cast.header.title).toBe('EUR order at 09:30 uses the 09:00 rate (110 USD, not 120)');
    const first = cast.events[0]!;
    expect(first[1]).toBe('o');
    expect(first[2].startsWith('\u001b[?25l')).toBe(true);
    // The default script steps through every event: 6 events, steps 1..6.
    const ms = markers(cast);
    expect(ms.map((m) => m[0])).toEqual([0.7, 1.4, 2.1, 2.8, 3.5, 4.2]);
    expect([...stepsShown(cast)].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // Labels: the step's note, else its event text.
    expect(ms[0]![2]).toBe('step 1/6: Version 1.10 valid from 09:00.');
    expect(ms[3]![2]).toBe('step 4/6: wm orders[all] → 10:00');
    // The final frame shows what the scenario's expect block says the join emits.
    const last = cast.events.filter((e) => e[1] === 'o' && e[2] !== '').pop()!;
    expect(plain(last[2])).toContain('+I[o1, 2026-10-01T09:30, 110.000000]');
  });

  it('marks every step change, going back and revisits included, and says which went back', async () => {
    // n n n n p n: steps 1, 2, 3, 4, then back to 3, then 4 again: six changes.
    const r = await record('n n n n p n');
    const ms = markers(parseCast(r.cast));
    expect(ms.map((m) => m[2].split(':')[0])).toEqual(['step 1/6', 'step 2/6', 'step 3/6', 'step 4/6', 'step 3/6 (back)', 'step 4/6']);
    expect(ms.map((m) => m[0])).toEqual([0.7, 1.4, 2.1, 2.8, 3.5, 4.2]);
    // A revisit carries the same text as the first visit, with only the direction added.
    expect(ms[4]![2]).toBe(ms[2]![2].replace('step 3/6', 'step 3/6 (back)'));
    expect(r.recording.markers.map((m) => m.step)).toEqual([1, 2, 3, 4, 3, 4]);
  });

  it('marks back-and-forth scripts at the moment of each change, the start included', async () => {
    const r = await record('n n p n n wait:2s p g');
    const cast = parseCast(r.cast);
    const ms = markers(cast);
    expect(ms.map((m) => m[2].split(':')[0])).toEqual(['step 1/6', 'step 2/6', 'step 1/6 (back)', 'step 2/6', 'step 3/6', 'step 2/6 (back)', 'step 0/6 (back)']);
    // Key k at k × pace; the pause shifts the keys after it.
    expect(ms.map((m) => m[0])).toEqual([0.7, 1.4, 2.1, 2.8, 3.5, 6.2, 6.9]);
    const outs = cast.events.filter((e) => e[1] === 'o');
    expect(outs.some((e) => e[0] === 6.2)).toBe(true); // key 6 ('p') = 6 × 0.7 + 2 s
  });

  it('recording the same scenario twice gives byte-identical files', async () => {
    const a = await record('n n n tab down n');
    const b = await record('n n n tab down n');
    expect(b.cast).toBe(a.cast);
    expect(b.frames).toBe(a.frames);
  });

  it('q ends the recording; play (enter) is refused because it runs on a wall clock', async () => {
    const r = await record('n q n n');
    expect(markers(parseCast(r.cast)).length).toBe(1);
    const play = await recordScenario({ file: EUR, keys: 'n enter', columns: 100, rows: 30, paceMs: 700 });
    expect(play.ok).toBe(false);
    if (!play.ok) expect(play.errors[0]).toMatch(/key 2 \('enter'\) starts play.*wall-clock/);
  });

  it('a bad key script is an error, not a recording', async () => {
    const r = await recordScenario({ file: EUR, keys: 'n "open', columns: 100, rows: 30, paceMs: 700 });
    expect(r.ok).toBe(false);
  });

  it('the --frames text matches the reviewed golden file', async () => {
    const r = await record('n n n n n n : 3 enter tab', { columns: 100, rows: 30 });
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(GOLDEN, r.frames);
    expect(r.frames).toBe(readFileSync(GOLDEN, 'utf8'));
    expect(r.frames).not.toMatch(/\u001b/);
    expect(r.frames.split('\n')[0]).toBe('--- frame 1 (step 0) ---');
  });
});

describe.each(['scenarios/interval-shipments-30min.yaml', 'scenarios/regular-full-join.yaml', 'scenarios/lookup-cache-stale.yaml'])('recording %s', (file) => {
  it('is a valid cast with one marker per step change the frames show', async () => {
    const r = await recordScenario({ file, keys: 'G g n n p', columns: 120, rows: 36, paceMs: 500 });
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const cast = parseCast(r.cast);
    expect(cast.header).toMatchObject({ width: 120, height: 36 });
    // The steps the frames show, in order, each change once: what the markers must list.
    const changes = stepChanges(cast);
    const marked = markers(cast).map((m) => Number(/^step (\d+)\//.exec(m[2])?.[1]));
    expect(marked).toEqual(changes);
    // G (to the end), g (back to the start), n, n, p (back): five changes.
    expect(changes.length).toBe(5);
    expect(markers(cast).map((m) => m[2].includes('(back)'))).toEqual([false, true, false, false, true]);
  });
});
