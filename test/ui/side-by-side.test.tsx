/**
 * A multi-query scenario side by side, over the real loader and engine: one changelog column per
 * query, titled with its name, all at the same step; `v` changes which query the state and why
 * panes follow. Column contents are read by slicing the frame at each column title.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App.js';
import { frame, press, render, type Rendered, unmount } from './helpers.js';
import { EUR_EXAMPLE, SIDE_BY_SIDE, tempCopy, words } from './whatif-helpers.js';

const open: Rendered[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await unmount(r);
});

async function app(file: string, size: { columns: number; rows: number }): Promise<Rendered> {
  const { session } = await tempCopy(file);
  const r = await render(<App session={session} />, size);
  open.push(r);
  return r;
}

/** The text of the sub-column titled `name`: from its title to the next separator, on every line below. */
function column(text: string, name: string): string[] {
  const lines = text.split('\n');
  const y = lines.findIndex((l) => new RegExp(`[ ●]${name}  \\d+ rows?`).test(l));
  if (y < 0) throw new Error(`no column titled ${name} in:\n${text}`);
  const title = lines[y]!;
  const start = title.search(new RegExp(`[ ●]${name}  `));
  const sep = title.indexOf('│', start);
  const end = sep < 0 ? title.length : sep;
  return lines.slice(y + 1).map((l) => l.slice(start, end).trim()).filter((l) => l !== '');
}

const rowsOf = (col: string[]): string[] => col.filter((l) => /^[+-][IUD]\[/.test(l));

describe.each([
  [200, 60],
  [100, 30],
])('side by side at %ix%i', (columns, rows) => {
  it('shows one changelog column per query, stepped together', async () => {
    const r = await app(SIDE_BY_SIDE, { columns, rows });
    await press(r, 'n', 'n', 'n');
    let text = frame(r);
    expect(text).toContain('step 3/8');
    // o1 arrived: regular and lookup emit it at once, temporal waits for the watermark.
    expect(rowsOf(column(text, 'regular'))).toEqual([expect.stringMatching(/^\+I\[o1, 1\.1000/)]);
    expect(rowsOf(column(text, 'temporal'))).toEqual([]);
    expect(rowsOf(column(text, 'lookup'))).toEqual([expect.stringMatching(/^\+I\[o1, 1\.1000/)]);
    await press(r, 'G');
    text = frame(r);
    const regular = rowsOf(column(text, 'regular'));
    // Flink 2.3 walks the orders map in hash order: o2 before o1 at the last rate change.
    expect(regular.map((l) => l.slice(0, 6))).toEqual(['+I[o1,', '-U[o1,', '+U[o1,', '+I[o2,', '-U[o2,', '-U[o1,', '+U[o2,', '+U[o1,']);
    // The interview answer: temporal gives the late o2 the 09:45 rate, lookup the database's 1.20.
    expect(rowsOf(column(text, 'temporal'))).toEqual([expect.stringMatching(/^\+I\[o1, 1\.1000/), expect.stringMatching(/^\+I\[o2, 1\.1000/)]);
    expect(rowsOf(column(text, 'lookup'))).toEqual([expect.stringMatching(/^\+I\[o1, 1\.1000/), expect.stringMatching(/^\+I\[o2, 1\.2000/)]);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(columns);
  });

  it('v cycles the query the state and why panes follow', async () => {
    const r = await app(SIDE_BY_SIDE, { columns, rows });
    await press(r, 'n', 'n', 'n');
    expect(frame(r)).toContain('●regular');
    expect(words(frame(r))).toContain('row -> count');
    await press(r, 'v');
    expect(frame(r)).toContain('●temporal');
    expect(frame(r)).not.toContain('●regular');
    // The temporal join buffers the probe rows until the watermark passes them.
    expect(words(frame(r))).toContain('buffered probe rows');
    await press(r, 'v', 'v');
    expect(frame(r)).toContain('●regular');
  });
});

describe('a single-query scenario', () => {
  it('keeps the one changelog pane', async () => {
    const r = await app(EUR_EXAMPLE, { columns: 100, rows: 30 });
    await press(r, 'G');
    expect(frame(r)).toContain('changelog  1 row');
    expect(frame(r)).not.toContain('●');
    await press(r, 'v');
    expect(frame(r)).toContain('one query: nothing else to follow');
  });
});
