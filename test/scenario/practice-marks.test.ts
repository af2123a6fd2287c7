/** `ask:` and `hint:` on events (practice mode): what loads, and the errors for bad values. */
import { describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../src/scenario/load.js';
import type { LoadResult, Scenario } from '../../src/scenario/types.js';

const HEAD = `name: marks
sql: |
  CREATE TABLE a (id STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'a', 'format' = 'json');
  CREATE TABLE b (id STRING, w INT) WITH ('connector' = 'kafka', 'topic' = 'b', 'format' = 'json');
  SELECT a.id, a.v, b.w FROM a JOIN b ON a.id = b.id;
events:
`;

function ok(r: LoadResult): Scenario {
  if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
  return r.scenario;
}

function problems(r: LoadResult): string[] {
  if (r.ok) throw new Error('loaded, but should have failed');
  return r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}${d.hint ? ` | ${d.hint}` : ''}`);
}

describe('ask: and hint: on events', () => {
  it('reads true, false and a question text, and a hint', () => {
    const s = ok(loadScenarioText('t.yaml', `${HEAD}  - { to: a, row: { id: k, v: 1 }, ask: true, hint: "b is empty" }
  - { to: b, row: { id: k, w: 2 }, ask: "  What comes out?  " }
  - { idle: a, ask: false }
  - { advance: 1 s }
`));
    expect(s.events.map((e) => [e.ask, e.hint])).toEqual([
      [true, 'b is empty'],
      ['What comes out?', undefined],
      [false, undefined],
      [undefined, undefined],
    ]);
  });

  it('rejects a number, an empty text, null and a list for ask, at the value', () => {
    const r = loadScenarioText('t.yaml', `${HEAD}  - { to: a, row: { id: k }, ask: 3 }
  - { to: a, row: { id: k }, ask: "" }
  - { to: a, row: { id: k }, ask: }
  - { to: a, row: { id: k }, ask: [x] }
`);
    const p = problems(r);
    expect(p).toHaveLength(4);
    expect(p[0]).toMatch(/^7:\d+ ask must be true, false or the question's text, not /);
    for (const [i, line] of p.entries()) expect(line.startsWith(`${7 + i}:`)).toBe(true);
    expect(p.every((l) => l.includes("ask must be true, false or the question's text"))).toBe(true);
  });

  it('rejects a hint that is not text, and a hint on an event that is never asked', () => {
    const p = problems(loadScenarioText('t.yaml', `${HEAD}  - { to: a, row: { id: k }, hint: 12 }
  - { to: a, row: { id: k }, hint: "" }
  - { to: a, row: { id: k }, ask: false, hint: "never seen" }
`));
    expect(p[0]).toMatch(/^7:\d+ hint must be a line of text/);
    expect(p[1]).toMatch(/^8:\d+ hint must be a line of text/);
    expect(p[2]).toMatch(/^9:\d+ this hint is never shown: the event has `ask: false`/);
  });

  it('does not take ask on a note (a note never runs the join)', () => {
    const p = problems(loadScenarioText('t.yaml', `${HEAD}  - { note: "hello", ask: true }\n`));
    expect(p[0]).toMatch(/^7:/);
    expect(p[0]).toContain('ask');
  });
});
