/** `V` in the running app: the other release's rows beside, differing rows marked, the rule named. */
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App.js';
import { compareOrder } from '../../src/ui/compare.js';
import { loadSession } from '../../src/ui/session-load.js';
import { REPO_ROOT } from '../paths.js';
import { frame, press, render, type Rendered, unmount } from './helpers.js';

const open: Rendered[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await unmount(r);
});

async function app(file: string, size: { columns: number; rows: number }): Promise<Rendered> {
  const s = await loadSession(`${REPO_ROOT}/scenarios/${file}`);
  if (!s.ok) throw new Error(s.errors.join('\n'));
  const r = await render(<App session={s.session} />, size);
  open.push(r);
  return r;
}

describe('version compare in the app', () => {
  it('visits newer releases first, then older ones', () => {
    expect(compareOrder('2.1')).toEqual(['2.2', '2.3', '2.4', '2.0']);
    expect(compareOrder('2.4')).toEqual(['2.3', '2.2', '2.1', '2.0']);
  });

  it.each([
    [80, 24],
    [200, 60],
  ])('%ix%i: the 2.1 outer join beside 2.2, the moved row marked at step 3', async (columns, rows) => {
    const r = await app('regular-full-join-2.1.yaml', { columns, rows });
    await press(r, 'V', 'n', 'n');
    expect(frame(r)).toContain('Flink 2.1 ↔ 2.2');
    expect(frame(r)).not.toContain('≠ differs');
    await press(r, 'n');
    const text = frame(r);
    expect(text).toContain('FLINK-37955');
    expect(text).toContain('step 3  ≠ differs');
    expect(text).toMatch(/> +│ \+I\[a1, Ann, b1, oak\]/);
    // At 80x24 the pane holds the step's first rows; at 200x60 all of them.
    if (columns >= 150) expect(text).toMatch(/< \+I\[a1, Ann, b1, oak\] +│/);
  });

  it('says when the run changed since the compare (follow, edit, reload)', async () => {
    const r = await app('temporal-late-probe-2.3.yaml', { columns: 200, rows: 60 });
    await press(r, 'V', 'G');
    expect(frame(r)).toContain('late, dropped: +I[o1, EUR');
    await press(r, 'g', 'n', 'D');
    expect(frame(r)).toContain('the run changed since: V recompares');
  });
});
