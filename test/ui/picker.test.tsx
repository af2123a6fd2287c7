/** The scenario picker: names, descriptions and errors; enter opens the scenario in the debugger. */
import { describe, expect, it } from 'vitest';
import { Root } from '../../src/ui/Root.js';
import { storySession } from './fake-timeline.js';
import { frame, KEY, press, render, unmount } from './helpers.js';

const ENTRIES = [
  { file: 'scenarios/a.yaml', name: 'Inner join basics', description: 'Two rows meet on a key.' },
  { file: 'scenarios/b.yaml', name: 'Broken one', error: 'scenarios/b.yaml:3:1: error: unknown key `evnts`' },
  { file: 'scenarios/c.yaml', name: 'EUR order at 09:30', description: 'Event-time temporal join' },
];

describe('picker', () => {
  it('lists every scenario with its name and shows the highlighted one’s description', async () => {
    const r = await render(<Root entries={ENTRIES} open={async () => ({ ok: false, errors: [] })} />, { columns: 100, rows: 30 });
    for (const e of ENTRIES) expect(frame(r)).toContain(e.name);
    expect(frame(r)).toContain('Two rows meet on a key.');
    await press(r, KEY.down);
    expect(frame(r)).toContain('Broken one  (error)');
    expect(frame(r)).toContain('unknown key `evnts`');
    await unmount(r);
  });

  it('enter opens the scenario in the debugger', async () => {
    const opened: string[] = [];
    const open = async (file: string) => {
      opened.push(file);
      return { ok: true as const, session: storySession() };
    };
    const r = await render(<Root entries={ENTRIES} open={open} />, { columns: 100, rows: 30 });
    await press(r, KEY.down, KEY.down, KEY.enter);
    expect(opened).toEqual(['scenarios/c.yaml']);
    expect(frame(r)).toContain('step 0/7');
    await press(r, 'n');
    expect(frame(r)).toContain('step 1/7');
    await unmount(r);
  });

  it('file names are shown escaped: a control character, a bidi override or a line break in one cannot act on the terminal', async () => {
    const hostile = [
      { file: 'scenarios/esc\u001b[31mred.yaml', name: 'one', description: 'x' },
      { file: 'scenarios/bidi\u202eLMX.yaml', name: 'two', description: 'x' },
      { file: 'scenarios/nl\nline\u200b.yaml', name: 'three', description: 'x' },
    ];
    const r = await render(<Root entries={hostile} open={async () => ({ ok: false, errors: [] })} />, { columns: 100, rows: 30 });
    const shown = frame(r);
    expect(shown).toContain('scenarios/esc\\u001b[31mred.yaml');
    expect(shown).toContain('scenarios/bidi\\u202eLMX.yaml');
    expect(shown).toContain('scenarios/nl\\nline\\u200b.yaml');
    expect(shown).not.toMatch(/[\u001b\u202e\u200b]/);
    await unmount(r);
  });

  it('a scenario that cannot be opened shows its errors and stays in the picker', async () => {
    const r = await render(<Root entries={ENTRIES} open={async () => ({ ok: false, errors: ['scenarios/a.yaml:9:3: error: bad row\nhint: fix it'] })} />, { columns: 100, rows: 30 });
    await press(r, KEY.enter);
    expect(frame(r)).toContain('scenarios/a.yaml:9:3: error: bad row');
    expect(frame(r)).toContain('hint: fix it');
    expect(frame(r)).toContain('pick a scenario');
    await unmount(r);
  });
});
