/**
 * The insert form's partition field, `active` kind and optional `at`, typed into the running app
 * over the real loader and engine (temporary copies of scenario files): each inserted event is
 * checked by what the panes then show, and a bad value by the loader's own message in the form.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App.js';
import { REPO_ROOT } from '../paths.js';
import { frame, KEY, press, render, type Rendered, unmount } from './helpers.js';
import { EUR_EXAMPLE, tempCopy, words } from './whatif-helpers.js';

/** rates has two partitions; partition 1 gets no row and holds the rates watermark back. */
const TWO_PARTITIONS = `${REPO_ROOT}/scenarios/idle-partition-explicit.yaml`;
/** Every event has an `at`: the clock is 10:01 after step 2. */
const CLOCKED = `${REPO_ROOT}/scenarios/lookup-cache-stale.yaml`;

const open: Rendered[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await unmount(r);
});

async function app(file: string): Promise<Rendered> {
  const copy = await tempCopy(file);
  const r = await render(<App session={copy.session} />, { columns: 120, rows: 40 });
  open.push(r);
  return r;
}

const status = (r: Rendered): string => frame(r).split('\n')[0] ?? '';
const keyBar = (r: Rendered): string => frame(r).split('\n').at(-1) ?? '';
const text = (r: Rendered): string => words(frame(r));
/** Types each value then presses enter, as a user fills field after field. */
async function fill(r: Rendered, ...values: string[]): Promise<void> {
  for (const v of values) await press(r, ...[...v], KEY.enter);
}

describe('the partition field', () => {
  it('a row to partition 1 shows up in that partition’s watermark row', async () => {
    const r = await app(TWO_PARTITIONS);
    await press(r, 'n', 'n');
    expect(text(r)).toContain('p1 gen -∞ emit -∞');
    await press(r, 'e');
    await fill(r, '', 'rates');
    expect(keyBar(r)).toMatch(/partition: █ \(0 to 1; enter = 0\)/);
    await fill(r, '1', '', 'EUR', '1.30', '09:45');
    expect(status(r)).toContain('step 3/7');
    expect(text(r)).toMatch(/▶3 \S+ rates\[1\] \+I \(EUR, 1\.3000, 09:45\)/);
    // auto watermarks: partition 1 generates and emits 09:45; partition 0 keeps its 10:00.
    expect(text(r)).toContain('p1 gen 09:45 emit 09:45');
    expect(text(r)).toContain('p0 gen 10:00 emit 10:00');
    expect(text(r)).toContain('rates right wm 09:45 held by p1');
  });

  it('an empty partition sends a row to partition 0; a one-partition table has no partition field', async () => {
    const r = await app(TWO_PARTITIONS);
    await press(r, 'e');
    await fill(r, '', 'orders');
    expect(keyBar(r)).toContain('op:');
    expect(keyBar(r)).not.toContain('partition');
    await press(r, KEY.esc, 'e');
    await fill(r, '', 'rates', '', '', 'EUR', '1.30', '09:45');
    expect(text(r)).toMatch(/▶1 \S+ rates\[0\] \+I \(EUR, 1\.3000, 09:45\)/);
    expect(text(r)).toContain('p0 gen 09:45 emit 09:45');
    expect(text(r)).toContain('p1 gen -∞ emit -∞');
  });

  it('a partition typed for another table is not sent once the table changes', async () => {
    const r = await app(TWO_PARTITIONS);
    await press(r, 'e');
    await fill(r, '', 'rates', '1');
    await press(r, KEY.up, KEY.up, ...Array<string>(5).fill(KEY.backspace));
    await fill(r, 'orders', '', 'o2', 'EUR', '10', '09:40');
    expect(text(r)).toMatch(/▶1 \S+ orders\[0\] \+I \(o2, EUR, 10\.00, 09:40\)/);
  });

  it('a watermark with no partition goes to every partition; with one, to that one only', async () => {
    const r = await app(TWO_PARTITIONS);
    await press(r, 'n', 'n', 'e');
    await fill(r, 'watermark', 'rates', '1', '10:20');
    expect(text(r)).toMatch(/▶3 \S+ wm rates\[1\] → 10:20/);
    expect(text(r)).toContain('p1 gen -∞ emit 10:20');
    expect(text(r)).toContain('p0 gen 10:00 emit 10:00');
    await press(r, 'e');
    await fill(r, 'watermark', 'rates', '', '10:30');
    expect(text(r)).toMatch(/▶4 \S+ wm rates\[all\] → 10:30/);
    expect(text(r)).toContain('p0 gen 10:00 emit 10:30');
    expect(text(r)).toContain('p1 gen -∞ emit 10:30');
  });

  it.each([
    ['2', /line \d+:\d+: error: partition 2 is out of range: table `rates` has 2 partitions \(0 to 1\)/],
    ['x', /line \d+:\d+: error: partition must be a partition index \(0, 1, \.\.\.\), not .*x/],
  ])('partition %j: the loader’s message shows in the form, which stays open', async (partition, message) => {
    const r = await app(TWO_PARTITIONS);
    await press(r, 'n', 'e');
    await fill(r, 'idle', 'rates', partition);
    expect(keyBar(r)).toMatch(message);
    expect(keyBar(r)).toContain('insert after step 1');
    expect(status(r)).toContain('step 1/6');
  });
});

describe('the active kind', () => {
  it('marks an idle partition active again', async () => {
    const r = await app(TWO_PARTITIONS);
    await press(r, 'G');
    expect(text(r)).toContain('p1 gen -∞ emit -∞ idle');
    await press(r, 'e');
    await fill(r, 'active', 'rates', '1');
    expect(status(r)).toContain('step 7/7');
    expect(text(r)).toMatch(/▶7 \S+ active rates\[1\]/);
    expect(text(r)).toContain('p1 gen -∞ emit -∞ active');
    // Active but behind (no watermark yet): it counts again only once it catches up, so the
    // rates watermark does not go back from 10:00.
    expect(text(r)).toContain('rates right wm 10:00 held by p0');
  });
});

describe('the at field', () => {
  it('enter skips it; tab reaches it, and the clock shown moves to its time before the event', async () => {
    const r = await app(EUR_EXAMPLE);
    await press(r, 'n', 'e');
    await fill(r, 'note');
    expect(keyBar(r)).toContain('tab: at');
    await press(r, ...'a break', KEY.tab);
    expect(keyBar(r)).toContain('at: █');
    expect(status(r)).toContain('proc 00:00');
    await fill(r, '09:40');
    expect(status(r)).toContain('step 2/7');
    expect(status(r)).toContain('proc 09:40');
    expect(text(r)).toMatch(/▶2 \S+ @09:40 note: a break/);
  });

  it('takes epoch milliseconds too, as the spec allows', async () => {
    const r = await app(EUR_EXAMPLE);
    await press(r, 'n', 'e');
    await fill(r, 'advance');
    await press(r, ...'5 min', KEY.tab);
    await fill(r, String(Date.UTC(2026, 9, 1, 9, 40)));
    // The clock is set to 09:40 first, then advanced by 5 minutes.
    expect(status(r)).toContain('proc 09:45');
  });

  it('an at before the current clock gives the loader’s message inline', async () => {
    const r = await app(CLOCKED);
    await press(r, 'n', 'n');
    expect(status(r)).toContain('proc 10:01');
    await press(r, 'e');
    await fill(r, 'note');
    await press(r, ...'too early', KEY.tab);
    await fill(r, '09:00');
    expect(keyBar(r)).toMatch(/line \d+:\d+: error: processing time cannot go back from 10:01 to 09:00/);
    expect(status(r)).toContain('step 2/5');
    // Fixed in place: the other values stay typed.
    await press(r, ...Array<string>(5).fill(KEY.backspace));
    await fill(r, '10:02');
    expect(status(r)).toContain('step 3/6');
    expect(status(r)).toContain('proc 10:02');
  });

  it('a time the loader cannot read gives its message inline', async () => {
    const r = await app(EUR_EXAMPLE);
    await press(r, 'e');
    await fill(r, 'idle');
    await press(r, ...'orders', KEY.tab);
    await fill(r, 'soon');
    expect(keyBar(r)).toMatch(/line \d+:\d+: error: at: /);
    expect(status(r)).toContain('step 0/6');
  });
});
