import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { Node } from 'yaml';
import type { EventObject } from '../../src/scenario/edit-render.js';
import { describe, expect, it } from 'vitest';
import { editScenarioText, ExactNumber } from '../../src/scenario/edit.js';
import type { EditResult, EventEdit } from '../../src/scenario/edit.js';
import { loadScenarioText } from '../../src/scenario/load.js';

const SPEC = new URL('../conformance/examples/', import.meta.url).pathname;
const BUNDLED = new URL('../../scenarios/', import.meta.url).pathname;
const FILES = [
  ...readdirSync(SPEC).filter((f) => f.endsWith('.yaml')).map((f) => join(SPEC, f)),
  ...readdirSync(BUNDLED).filter((f) => f.endsWith('.yaml')).map((f) => join(BUNDLED, f)),
];

/** The events as plain data, and every top-level key but events, read by the yaml library. */
function parsed(text: string): { events: unknown[]; rest: Record<string, unknown>; eventSources: string[] } {
  const doc = parseDocument(text);
  expect(doc.errors).toEqual([]);
  const js = doc.toJS() as Record<string, unknown>;
  const { events, ...rest } = js;
  const seq = isMap(doc.contents) ? doc.contents.get('events', true) : undefined;
  // Each event's own lines, from its `-` line to the end of its last line.
  const eventSources = isSeq(seq)
    ? seq.items.map((n) => {
        const [s, , e] = (n as Node).range!;
        const from = text.lastIndexOf('\n', s - 1) + 1;
        const nl = text[e - 1] === '\n' ? e : text.indexOf('\n', e) + 1 || text.length;
        return text.slice(from, nl);
      })
    : [];
  return { events: events as unknown[], rest, eventSources };
}

function lines(text: string): string[] {
  return text.split(/(?<=\n)/).filter((l) => l !== '');
}

/** The lines that differ: original = prefix + removed + suffix, result = prefix + added + suffix. */
function lineDiff(a: string, b: string): { removed: string[]; added: string[] } {
  const x = lines(a);
  const y = lines(b);
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  let s = 0;
  while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
  return { removed: x.slice(p, x.length - s), added: y.slice(p, y.length - s) };
}

const isComment = (l: string): boolean => /^\s*#/.test(l);

/**
 * The blocks of whole lines whose removal from `long` gives `short` (several when neighbouring
 * lines repeat, e.g. two `- to: a` events in a row).
 */
function removedBlocks(long: string, short: string): string[] {
  const size = long.length - short.length;
  const out: string[] = [];
  for (let p = 0; p <= short.length; p = short.indexOf('\n', p) + 1 || short.length + 1) {
    if (long.slice(0, p) === short.slice(0, p) && long.slice(p + size) === short.slice(p)) out.push(long.slice(p, p + size));
  }
  return out;
}

/** The event's own lines with the comment lines directly above it: the extent an edit may touch. */
function extentStart(text: string, source: string): number {
  let start = text.indexOf(source);
  while (start > 0) {
    const prev = text.lastIndexOf('\n', start - 2) + 1;
    if (!isComment(text.slice(prev, start))) break;
    start = prev;
  }
  return start;
}

function edited(text: string, edit: EventEdit): { text: string; index: number } {
  const r: EditResult = editScenarioText(text, edit);
  if (!r.ok) throw new Error(r.message);
  return r;
}

describe.each(FILES.map((f) => [f.split('/').slice(-2).join('/'), f]))('editing %s', (_name, path) => {
  const text = readFileSync(path, 'utf8');
  const before = parsed(text);
  const n = before.events.length;
  const note = { note: 'what if: nothing happens here' };

  it('inserts a note at the start, the middle and the end, changing nothing else', () => {
    for (const index of [...new Set([0, Math.floor(n / 2), n])]) {
      const r = edited(text, { kind: 'insert', index, event: note });
      const after = parsed(r.text);
      expect(after.events).toEqual([...before.events.slice(0, index), note, ...before.events.slice(index)]);
      expect(after.rest).toEqual(before.rest);
      const d = lineDiff(text, r.text);
      if (n > 0) {
        expect(d.removed).toEqual([]);
        expect(d.added).toHaveLength(1);
        // Same indentation and style as the neighbours.
        const neighbour = before.eventSources[Math.max(0, index - 1)]!;
        expect(d.added[0]!.match(/^\s*-\s/)?.[0]).toBe(neighbour.match(/^\s*-\s/)?.[0]);
        expect(d.added[0]!.trimStart().startsWith('- {')).toBe(neighbour.trimStart().startsWith('- {'));
      }
    }
  });

  it.skipIf(n === 0)('deletes the first and the last event, and only their lines', () => {
    for (const index of [...new Set([0, n - 1])]) {
      const r = edited(text, { kind: 'delete', index });
      expect(parsed(r.text).events).toEqual(before.events.filter((_, k) => k !== index));
      // Exactly the event's lines (and comment lines right above it) are gone.
      const blocks = removedBlocks(text, r.text);
      expect(blocks.some((b) => b.endsWith(before.eventSources[index]!) && lines(b.slice(0, b.length - before.eventSources[index]!.length)).every(isComment))).toBe(true);
    }
  });

  it.skipIf(n < 2)('moves an event earlier and later, keeping every line', () => {
    for (const edit of [{ kind: 'move', index: 1, direction: 'earlier' }, { kind: 'move', index: n - 2, direction: 'later' }] as const) {
      const r = edited(text, edit);
      const [a, b] = edit.direction === 'earlier' ? [edit.index - 1, edit.index] : [edit.index, edit.index + 1];
      const expected = [...before.events];
      [expected[a], expected[b]] = [expected[b], expected[a]];
      expect(parsed(r.text).events).toEqual(expected);
      expect(r.index).toBe(edit.direction === 'earlier' ? edit.index - 1 : edit.index + 1);
      // The same lines, and the change lies within the two events' extents.
      expect(lines(r.text).sort()).toEqual(lines(text).sort());
      let p = 0;
      while (text[p] === r.text[p]) p++;
      let s = 0;
      while (s < text.length - p && text[text.length - 1 - s] === r.text[r.text.length - 1 - s]) s++;
      const from = extentStart(text, before.eventSources[a]!);
      const to = text.indexOf(before.eventSources[b]!, from) + before.eventSources[b]!.length;
      expect(p).toBeGreaterThanOrEqual(from);
      expect(text.length - s).toBeLessThanOrEqual(to);
    }
  });

  it.skipIf(n === 0)('duplicates an event right after itself, as written', () => {
    const index = Math.floor(n / 2);
    const r = edited(text, { kind: 'duplicate', index });
    expect(parsed(r.text).events).toEqual([...before.events.slice(0, index + 1), before.events[index], ...before.events.slice(index + 1)]);
    expect(removedBlocks(r.text, text)).toContain(before.eventSources[index]);
  });

  it('still loads as before after a note is inserted', () => {
    const a = loadScenarioText(path, text);
    const b = loadScenarioText(path, edited(text, { kind: 'insert', index: n, event: note }).text);
    expect(b.ok).toBe(a.ok);
    if (a.ok && b.ok) expect(b.scenario.events).toHaveLength(a.scenario.events.length + 1);
  });
});

const COMMENTED = `name: commented   # the title
sql: |
  SELECT 1
events:
  # the rate arrives first
  - { to: rates,  row: { currency: EUR, usd_rate: 1.10 } }   # two spaces kept
  - to: orders          # block style
    row: { id: 1 }

  # after a blank line
  - { advance: 5 s }
# the end of the events
expect: { changelog: [] }
`;

describe('comments and layout', () => {
  it('moves a leading comment with its event, and keeps blank lines where they were', () => {
    const r = edited(COMMENTED, { kind: 'move', index: 0, direction: 'later' });
    expect(r.text).toBe(COMMENTED.replace(
      '  # the rate arrives first\n  - { to: rates,  row: { currency: EUR, usd_rate: 1.10 } }   # two spaces kept\n  - to: orders          # block style\n    row: { id: 1 }\n',
      '  - to: orders          # block style\n    row: { id: 1 }\n  # the rate arrives first\n  - { to: rates,  row: { currency: EUR, usd_rate: 1.10 } }   # two spaces kept\n',
    ));
  });

  it('deletes an event with its own comment, not the comment of the list after it', () => {
    const r = edited(COMMENTED, { kind: 'delete', index: 2 });
    expect(r.text).toBe(COMMENTED.replace('  # after a blank line\n  - { advance: 5 s }\n', ''));
  });

  it('inserts after a block-style event in block style, with nested maps in flow style', () => {
    const r = edited(COMMENTED, { kind: 'insert', index: 2, event: { to: 'orders', row: { id: 2 }, note: 'second order' } });
    expect(r.text).toBe(COMMENTED.replace('    row: { id: 1 }\n', '    row: { id: 1 }\n  - to: orders\n    row: { id: 2 }\n    note: "second order"\n'));
  });

  it('writes times, kinds and decimals as the bundled scenarios do', () => {
    const event = { at: '09:10', to: 'rates', op: '+U', row: { currency: 'EUR', usd_rate: new ExactNumber('1.10'), n: 3 } };
    const r = edited(COMMENTED, { kind: 'insert', index: 0, event });
    expect(r.text).toContain('  - { at: "09:10", to: rates, op: "+U", row: { currency: EUR, usd_rate: 1.10, n: 3 } }\n  # the rate arrives first\n');
  });

  it('turns `events: []` into a block list on insert, keeping a trailing comment', () => {
    const r = edited('name: x\nevents: [] # none yet\nexpect: {}\n', { kind: 'insert', index: 0, event: { note: 'first' } });
    expect(r.text).toBe('name: x\nevents: # none yet\n  - { note: first }\nexpect: {}\n');
  });

  it('edits a flow list in place', () => {
    const text = 'events: [ { note: a }, { note: b }, { note: c } ]\n';
    expect(edited(text, { kind: 'delete', index: 1 }).text).toBe('events: [ { note: a }, { note: c } ]\n');
    expect(edited(text, { kind: 'delete', index: 2 }).text).toBe('events: [ { note: a }, { note: b } ]\n');
    expect(edited(text, { kind: 'move', index: 0, direction: 'later' }).text).toBe('events: [ { note: b }, { note: a }, { note: c } ]\n');
    expect(edited(text, { kind: 'insert', index: 3, event: { note: 'd' } }).text).toBe('events: [ { note: a }, { note: b }, { note: c }, { note: d } ]\n');
    expect(edited(text, { kind: 'duplicate', index: 0 }).text).toBe('events: [ { note: a }, { note: a }, { note: b }, { note: c } ]\n');
  });

  it('keeps a file without a final line break without one', () => {
    const text = 'events:\n  - { note: a }\n  - { note: b }';
    expect(edited(text, { kind: 'move', index: 1, direction: 'earlier' }).text).toBe('events:\n  - { note: b }\n  - { note: a }');
    expect(edited(text, { kind: 'insert', index: 2, event: { note: 'c' } }).text).toBe('events:\n  - { note: a }\n  - { note: b }\n  - { note: c }');
    expect(edited(text, { kind: 'delete', index: 1 }).text).toBe('events:\n  - { note: a }');
  });

  it('keeps the CRLF line ends of a Windows file on the lines it adds', () => {
    const text = '\ufeffname: x\r\nevents:\r\n  - { note: a }   # kept\r\n  - { note: b }\r\n';
    expect(edited(text, { kind: 'insert', index: 1, event: { note: 'c' } }).text).toBe('\ufeffname: x\r\nevents:\r\n  - { note: a }   # kept\r\n  - { note: c }\r\n  - { note: b }\r\n');
    expect(edited(text, { kind: 'insert', index: 2, event: { note: 'c' } }).text).toBe('\ufeffname: x\r\nevents:\r\n  - { note: a }   # kept\r\n  - { note: b }\r\n  - { note: c }\r\n');
    expect(edited(text, { kind: 'move', index: 1, direction: 'earlier' }).text).toBe('\ufeffname: x\r\nevents:\r\n  - { note: b }\r\n  - { note: a }   # kept\r\n');
    expect(edited(text, { kind: 'delete', index: 0 }).text).toBe('\ufeffname: x\r\nevents:\r\n  - { note: b }\r\n');
    expect(edited('events: []\r\n', { kind: 'insert', index: 0, event: { note: 'a' } }).text).toBe('events:\r\n  - { note: a }\r\n');
  });

  it('refuses what it cannot do, with a reason', () => {
    const no = (text: string, edit: EventEdit): string => {
      const r = editScenarioText(text, edit);
      if (r.ok) throw new Error('edited, but should have refused');
      return r.message;
    };
    expect(no(COMMENTED, { kind: 'delete', index: 3 })).toContain('out of range');
    expect(no(COMMENTED, { kind: 'move', index: 0, direction: 'earlier' })).toContain('already the first');
    expect(no(COMMENTED, { kind: 'move', index: 2, direction: 'later' })).toContain('already the last');
    expect(no('name: x\n', { kind: 'delete', index: 0 })).toContain('no `events:` list');
    expect(no('events: [\n', { kind: 'delete', index: 0 })).toContain('not valid YAML');
    expect(no(COMMENTED, { kind: 'insert', index: 0, event: { row: { x: new ExactNumber('12345678901234567.89') } } })).toContain('digits');
  });
});

describe('a what-if edit on the side-by-side scenario', () => {
  it('inserts a row that loads as a typed event with its exact decimal', () => {
    const path = join(BUNDLED, 'side-by-side-rate-change.yaml');
    const text = readFileSync(path, 'utf8');
    const r = edited(text, { kind: 'insert', index: 2, event: { at: '09:10', to: 'rates', row: { currency: 'EUR', usd_rate: new ExactNumber('1.05'), update_time: '09:10' } } });
    const loaded = loadScenarioText(path, r.text);
    if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
    const ev = loaded.scenario.events[2]!;
    expect(ev.kind).toBe('row');
    expect(ev.kind === 'row' ? ev.table : '').toBe('rates');
    expect(ev.pos.line).toBe(text.slice(0, text.indexOf('  - { at: "09:30", to: orders')).split('\n').length);
  });

  it('inserts every kind of event as one the loader reads back as that kind', () => {
    const path = join(BUNDLED, 'side-by-side-rate-change.yaml');
    let text = readFileSync(path, 'utf8');
    const kinds: EventObject[] = [
      { watermark: 'rates', to: '11:30' },
      { idle: 'orders' },
      { active: 'orders', partition: 0 },
      { advance: '5 min', note: 'later' },
      { note: 'just a note', at: '12:00' },
    ];
    for (const event of kinds) text = edited(text, { kind: 'insert', index: 8, event }).text;
    const loaded = loadScenarioText(path, text);
    if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
    // Each insert went to index 8, so they end up in reverse order.
    expect(loaded.scenario.events.slice(8).map((e) => e.kind)).toEqual(['note', 'advance', 'active', 'idle', 'watermark']);
  });
});
