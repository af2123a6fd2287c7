/**
 * What-if edits in the running app, over the real loader and engine on temporary copies of
 * scenario files: each edit key, the +/− marks against the original run, the insert form with the
 * loader's diagnostic inline, saving (byte-identical outside the edited event, with a .bak) and
 * the confirmation before quitting with unsaved edits.
 */
import { readFileSync } from 'node:fs';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveScenarioFile } from '../../src/scenario/edit.js';
import { nodeSaveFs } from '../../src/scenario/save-file.js';
import { App } from '../../src/ui/App.js';
import { frame, KEY, press, render, type Rendered, unmount, until } from './helpers.js';
import { EUR_EXAMPLE, SIDE_BY_SIDE, tempCopy, words } from './whatif-helpers.js';

const SIZE = { columns: 120, rows: 40 };
/** Wide enough for three side-by-side columns to show whole rows and titles. */
const WIDE = { columns: 200, rows: 60 };
const open: Rendered[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await unmount(r);
});

async function app(file: string, props: Partial<Parameters<typeof App>[0]> = {}, size = SIZE) {
  const copy = await tempCopy(file);
  const r = await render(<App session={copy.session} {...props} />, size);
  open.push(r);
  return { r, path: copy.path, original: readFileSync(copy.path, 'utf8') };
}

const status = (r: Rendered): string => frame(r).split('\n')[0] ?? '';
const keyBar = (r: Rendered): string => frame(r).split('\n').at(-1) ?? '';
const typeText = (r: Rendered, text: string): Promise<void> => press(r, ...[...text]);

describe('edits at the cursor', () => {
  it('x deletes the event of this step; the changelog marks what the original run emitted and this one does not', async () => {
    const { r } = await app(SIDE_BY_SIDE, {}, WIDE);
    await press(r, 'n', 'n', 'n', 'x');
    expect(status(r)).toContain('step 2/7');
    expect(status(r)).toContain('what-if (unsaved)');
    await press(r, 'G');
    const text = words(frame(r));
    // Without o1, the regular join emits only o2's three rows; temporal and lookup only o2.
    expect(text).toContain('regular 3 rows, +0 −5 vs original');
    expect(text).toContain('temporal 1 row, +0 −1 vs original');
    expect(text).toContain('− +I[o1, 1.1000, 110.000000]');
    expect(text).not.toMatch(/(^|[^−] )\+I\[o1/);
  });

  it('D duplicates the event; the extra rows are marked +', async () => {
    const { r } = await app(SIDE_BY_SIDE, {}, WIDE);
    await press(r, 'n', 'n', 'n', 'D');
    expect(status(r)).toContain('step 4/9');
    await press(r, 'G');
    const text = words(frame(r));
    expect(text).toContain('temporal 3 rows, +1 −0 vs original');
    // The second o1 is a new row in every join: marked + (then its kind, +I).
    expect(text).toContain('++I[o1, 1.1000, 110.000000]');
    expect(text).not.toMatch(/− [+-][IUD]\[/);
  });

  it('[ and ] move the event earlier and later; moving it back is no edit at all', async () => {
    const { r } = await app(EUR_EXAMPLE);
    await press(r, 'n', 'n', 'n', '[');
    expect(status(r)).toContain('step 2/6');
    expect(words(frame(r))).toMatch(/▶2 \S+ orders\[0\] \+I \(o1/);
    await press(r, ']');
    expect(status(r)).toContain('step 3/6');
    expect(words(frame(r))).toMatch(/▶3 \S+ orders\[0\] \+I \(o1/);
    expect(status(r)).toContain('what-if');
    expect(status(r)).not.toContain('unsaved');
    await press(r, 'g', '[');
    expect(keyBar(r)).toContain('step 0 has no event');
    await press(r, 'G', ']');
    expect(keyBar(r)).toContain('already the last');
  });
});

describe('the insert form', () => {
  it('e inserts a typed row after this step; the new output row is marked +', async () => {
    const { r } = await app(EUR_EXAMPLE);
    await press(r, 'n', 'n', 'n', 'e');
    expect(keyBar(r)).toContain('insert after step 3');
    await press(r, KEY.enter); // kind: row (the default)
    await typeText(r, 'orders');
    await press(r, KEY.enter, KEY.enter); // op: +I (the default)
    for (const v of ['o2', 'EUR', '50', '09:45']) {
      await typeText(r, v);
      await press(r, KEY.enter);
    }
    expect(status(r)).toContain('step 4/7');
    expect(words(frame(r))).toMatch(/▶4 \S+ orders\[0\] \+I \(o2, EUR, 50\.00, 09:45\)/);
    await press(r, 'G');
    // o2 at 09:45 gets the 1.10 rate valid then: 50 * 1.10.
    expect(words(frame(r))).toMatch(/\+ 2 s\d+ \+I\[o2, 2026-10-01T09:45, 55\.000000\]/);
    expect(words(frame(r))).toContain('+1 −0 vs original');
  });

  it("a value the loader rejects shows the loader's diagnostic in the form, which stays open", async () => {
    const { r } = await app(EUR_EXAMPLE);
    await press(r, 'e', KEY.enter);
    await typeText(r, 'orders');
    await press(r, KEY.enter, KEY.enter);
    for (const v of ['o2', 'EUR', 'lots', '09:45']) {
      await typeText(r, v);
      await press(r, KEY.enter);
    }
    expect(keyBar(r)).toContain('insert after step 0');
    expect(keyBar(r)).toMatch(/line \d+:\d+: error: .*amount/);
    expect(status(r)).toContain('step 0/6');
    await press(r, KEY.esc);
    expect(keyBar(r)).toContain('insert cancelled');
  });

  it('the kind decides the fields: an advance event', async () => {
    const { r } = await app(EUR_EXAMPLE);
    await press(r, 'n', 'e');
    await typeText(r, 'advance');
    await press(r, KEY.enter);
    expect(keyBar(r)).toContain('advance by:');
    await typeText(r, '5 min');
    await press(r, KEY.enter);
    expect(status(r)).toContain('step 2/7');
    expect(words(frame(r))).toMatch(/▶2 .*advance/);
  });
});

describe('saving and quitting', () => {
  it('s writes the edit, byte-identical outside the edited event, and keeps a .bak', async () => {
    let saving: Promise<void> | undefined;
    const save = (file: string, text: string): Promise<void> => (saving = saveScenarioFile(file, text));
    const { r, path, original } = await app(EUR_EXAMPLE, { save });
    await press(r, 'n', 'n', 'n', 'n', 'x', 's');
    await act(async () => saving);
    const note = original.split('\n').find((l) => l.includes('note: "Nothing yet'));
    expect(note).toBeDefined();
    expect(readFileSync(path, 'utf8')).toBe(original.replace(`${note}\n`, ''));
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe(original);
    expect(keyBar(r)).toContain('saved');
    expect(status(r)).not.toContain('unsaved');
  });

  it('a save the file system refuses says why in words, names no temporary file, and keeps the edit unsaved', async () => {
    let saving: Promise<void> | undefined;
    const refused = (file: string, text: string): Promise<void> =>
      (saving = saveScenarioFile(file, text, {
        ...nodeSaveFs,
        writeSynced: async (p) => {
          throw Object.assign(new Error(`EACCES: permission denied, open '${p}'`), { code: 'EACCES' });
        },
      }));
    const { r, path, original } = await app(EUR_EXAMPLE, { save: refused });
    await press(r, 'n', 'n', 'n', 'n', 'x', 's');
    await act(async () => saving?.catch(() => undefined));
    await until(r, (text) => words(text.split('\n').at(-1) ?? '').includes('not saved'));
    const bar = words(keyBar(r));
    expect(bar).toContain('not saved: permission denied in');
    expect(bar).not.toContain('.tmp');
    expect(bar).not.toContain('EACCES:');
    expect(status(r)).toContain('unsaved');
    expect(readFileSync(path, 'utf8')).toBe(original);
  });

  it('an inserted event is saved as one new line in the style of its neighbours; the rest is unchanged', async () => {
    let saving: Promise<void> | undefined;
    const save = (file: string, text: string): Promise<void> => (saving = saveScenarioFile(file, text));
    const { r, path, original } = await app(EUR_EXAMPLE, { save });
    await press(r, 'n', 'e');
    await typeText(r, 'advance');
    await press(r, KEY.enter);
    await typeText(r, '5 min');
    await press(r, KEY.enter, 's');
    await act(async () => saving);
    const before = original.split('\n');
    const after = readFileSync(path, 'utf8').split('\n');
    const added = after.findIndex((l, i) => l !== before[i]);
    expect(after.length).toBe(before.length + 1);
    expect(after[added]).toMatch(/^ {2}- \{ advance: "?5 min"? \}$/);
    expect([...after.slice(0, added), ...after.slice(added + 1)]).toEqual(before);
    // After the first event, before the second.
    expect(after[added - 1]).toContain('usd_rate: 1.10');
  });

  it.each([['q'], ['y']])('q with unsaved edits asks first; %j quits', async (key) => {
    const onQuit = vi.fn();
    const { r } = await app(EUR_EXAMPLE, { onQuit });
    await press(r, 'n', 'D', 'q');
    expect(onQuit).not.toHaveBeenCalled();
    expect(keyBar(r)).toContain('unsaved what-if edits: quit anyway?');
    await press(r, key);
    expect(onQuit).toHaveBeenCalledTimes(1);
  });

  it('Ctrl-C with unsaved edits asks too, and a second Ctrl-C quits', async () => {
    const onQuit = vi.fn();
    const { r } = await app(EUR_EXAMPLE, { onQuit });
    await press(r, 'n', 'D', '\u0003');
    expect(onQuit).not.toHaveBeenCalled();
    expect(keyBar(r)).toContain('unsaved what-if edits: quit anyway?');
    await press(r, '\u0003');
    expect(onQuit).toHaveBeenCalledTimes(1);
  });

  it('any other key cancels the quit', async () => {
    const onQuit = vi.fn();
    const { r } = await app(EUR_EXAMPLE, { onQuit });
    await press(r, 'n', 'D', 'q', 'n');
    expect(onQuit).not.toHaveBeenCalled();
    expect(keyBar(r)).toContain('quit cancelled');
  });
});
