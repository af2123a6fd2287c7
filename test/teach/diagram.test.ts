/**
 * The time diagram by its SVG content: where marks sit (their x is the time axis' own tick for
 * their event time), which rows are late or dropped (from the semantics of each release), the
 * watermark staircase, the emitted rows, the current step; scenario text escaped; monochrome
 * without colour; and, where a renderer is installed, rendered once to PNG.
 */
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findScenarioFiles } from '../../src/cli/scenario-files.js';
import { createTimeline } from '../../src/engine/timeline.js';
import { loadScenarioFile, loadScenarioText } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/types.js';
import { diagramData, type DiagramData } from '../../src/teach/diagram-data.js';
import { diagramSvg } from '../../src/teach/diagram-svg.js';
import { sessionInfo } from '../../src/ui/session.js';
import { cli, ROOT } from '../cli/helpers.js';

async function load(file: string): Promise<Scenario> {
  const r = await loadScenarioFile(`${ROOT}/${file}`);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.scenario;
}

function dataOf(s: Scenario, step?: number): DiagramData {
  const tl = createTimeline(s);
  return diagramData(tl, sessionInfo(s), s.queries[0]!.plan.tables, step ?? tl.length);
}

/** The x of the axis tick labelled `label`. */
function tickX(svg: string, label: string): number {
  const m = new RegExp(`<text x="([\\d.]+)" y="[\\d.]+" text-anchor="middle">${label}</text>`).exec(svg);
  if (m === null) throw new Error(`no tick ${label}`);
  return Number(m[1]);
}

/** The mark group of a step: its class and the centre of its shape. */
function markAt(svg: string, step: number): { cls: string; cx: number; cy: number; body: string } {
  const m = new RegExp(`<g class="(row[^"]*)" data-step="${step}"[^>]*>([\\s\\S]*?)</g>`).exec(svg);
  if (m === null) throw new Error(`no mark at step ${step}`);
  const body = m[2]!;
  const c = /<circle cx="([\d.]+)" cy="([\d.]+)" r="6"/.exec(body) ?? /<rect x="([\d.]+)" y="([\d.]+)" width="11"/.exec(body);
  const rect = c !== null && c[0].startsWith('<rect');
  return { cls: m[1]!, cx: Number(c?.[1]) + (rect ? 5.5 : 0), cy: Number(c?.[2]) + (rect ? 5.5 : 0), body };
}

const RENDERER = spawnSync('rsvg-convert', ['--version']).status === 0 ? 'rsvg-convert' : undefined;

describe('diagram of the late probe row', () => {
  it('2.4: the 09:30 order arriving after the 10:00 watermark is late and dropped; o2 is emitted at step 7', async () => {
    const svg = diagramSvg(dataOf(await load('scenarios/temporal-late-probe-2.4.yaml')));
    const o1 = markAt(svg, 4);
    expect(o1.cls).toBe('row late dropped');
    expect(o1.cx).toBeCloseTo(tickX(svg, '09:30'), 0);
    expect(o1.body).toContain('dropped</text>');
    const o2 = markAt(svg, 5);
    expect(o2.cls).toBe('row');
    const rate = markAt(svg, 1);
    expect(rate.cx).toBeCloseTo(tickX(svg, '09:00'), 0);
    // Each step a line further down; the order row under the rate row.
    expect(o2.cy).toBeGreaterThan(o1.cy);
    expect(o1.cy).toBeGreaterThan(rate.cy);
    // The watermark: none until step 3 (both inputs at 10:00), then 10:05 from step 7.
    const path = /<g class="watermark">\n<path d="([^"]+)"/.exec(svg)?.[1] ?? '';
    expect(path.startsWith(`M${tickX(svg, '10:00')},`)).toBe(true);
    expect(path).toContain(`H${Number(((tickX(svg, '10:00') + tickX(svg, '10:10')) / 2).toFixed(1))}`);
    expect(svg).toContain('join watermark 10:05</text>');
    const emitted = [...svg.matchAll(/<text class="emitted"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(emitted).toEqual(['+I[o2, 2026-10-01T10:02, 110.000000]']);
  });

  it('2.3: the same row is late but kept, and emitted with o2', async () => {
    const svg = diagramSvg(dataOf(await load('scenarios/temporal-late-probe-2.3.yaml')));
    expect(markAt(svg, 4).cls).toBe('row late');
    const emitted = [...svg.matchAll(/<text class="emitted"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(emitted).toEqual(['+I[o1, 2026-10-01T09:30, 110.000000]', '+I[o2, 2026-10-01T10:02, 110.000000]']);
  });

  it('bands the current step and fades the steps after it', async () => {
    const s = await load('scenarios/temporal-late-probe-2.4.yaml');
    const svg = diagramSvg(dataOf(s, 4));
    const band = /<rect class="current" x="8" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/.exec(svg);
    expect(band).not.toBeNull();
    const o1 = markAt(svg, 4);
    expect(o1.cy).toBeGreaterThan(Number(band![1]));
    expect(o1.cy).toBeLessThan(Number(band![1]) + Number(band![2]));
    expect(svg).toMatch(/<g class="step" data-step="5" opacity="0.4">/);
    expect(svg).toMatch(/<g class="step" data-step="4">/);
  });

  it('draws only up to a limit (practice mode: nothing not yet shown)', async () => {
    const s = await load('scenarios/temporal-late-probe-2.3.yaml');
    const tl = createTimeline(s);
    const svg = diagramSvg(diagramData(tl, sessionInfo(s), s.queries[0]!.plan.tables, 5, 6));
    expect(svg).not.toContain('data-step="7"');
    expect(svg).not.toContain('class="emitted"');
  });

  it('monochrome uses no colour, only greys', async () => {
    const svg = diagramSvg(dataOf(await load('scenarios/temporal-late-probe-2.4.yaml')), { mono: true });
    const colours = [...svg.matchAll(/#([0-9a-f]{6})\b/gi)].map((m) => m[1]!.toLowerCase());
    expect(colours.length).toBeGreaterThan(0);
    for (const c of colours) expect(c.slice(0, 2) === c.slice(2, 4) && c.slice(2, 4) === c.slice(4, 6), `#${c}`).toBe(true);
  });
});

describe('scenario text in the SVG', () => {
  const hostile = `name: "<script>alert(1)</script> & \\"q\\" 'a' \\u0007bell\\u001b[31m"
watermarks: manual
sql: |
  CREATE TABLE a (id STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'a', 'format' = 'json');
  CREATE TABLE b (id STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'b', 'format' = 'json');
  SELECT a.id, b.id AS bid FROM a JOIN b ON a.id = b.id;
events:
  - { to: a, row: { id: "<k>&\\u0001\\u009b", ts: "00:01" }, note: "</text><script>x</script>" }
  - { to: b, row: { id: "<k>&\\u0001\\u009b", ts: "00:02" } }
`;

  it('escapes XML and strips control characters from names, rows and labels', () => {
    const r = loadScenarioText('hostile.yaml', hostile);
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    const svg = diagramSvg(dataOf(r.scenario));
    expect(svg).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<k>');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;a&#39;');
    expect(svg).toContain('&lt;k&gt;&amp;');
    // Every element opened is one of the diagram's own.
    const tags = new Set([...svg.matchAll(/<([a-z]+)[\s>/]/g)].map((m) => m[1]));
    expect([...tags].sort()).toEqual(['circle', 'defs', 'g', 'line', 'marker', 'path', 'rect', 'svg', 'text', 'title']);
    if (RENDERER !== undefined) {
      const dir = mkdtempSync(join(tmpdir(), 'joinstep-svg-'));
      writeFileSync(join(dir, 'h.svg'), svg);
      const out = spawnSync(RENDERER, [join(dir, 'h.svg'), '-o', join(dir, 'h.png')], { encoding: 'utf8' });
      expect(out.stderr).toBe('');
      expect(out.status).toBe(0);
    }
  });
});

describe('times far apart', () => {
  const span = (a: string, b: string): string => `name: far apart
sql: |
  CREATE TABLE a (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector'='kafka','topic'='a','format'='json');
  CREATE TABLE b (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector'='kafka','topic'='b','format'='json');
  SELECT * FROM a JOIN b ON a.k = b.k;
events:
  - { to: a, row: { k: x, ts: "${a}" } }
  - { to: b, row: { k: x, ts: "${b}" } }
`;

  it.each([
    ['ten days', '2026-10-01 00:00', '2026-10-11 00:00'],
    ['a year', '2026-01-01 00:00', '2027-01-01 00:00'],
    ['the years 0001 to 9999', '0001-01-01 00:00', '9999-12-31 23:59:59.999'],
  ])('rows %s apart get a handful of axis ticks, not one a day', (_what, from, to) => {
    const r = loadScenarioText('far.yaml', span(from, to));
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
    const svg = diagramSvg(dataOf(r.scenario));
    const axis = /<g class="axis"[^>]*>([\s\S]*?)<\/g>/.exec(svg)![1]!;
    const ticks = [...axis.matchAll(/<line /g)].length;
    expect(ticks).toBeGreaterThanOrEqual(2);
    expect(ticks).toBeLessThanOrEqual(12);
    expect(svg.length).toBeLessThan(20_000);
  });
});

describe('rendered', () => {
  it.skipIf(RENDERER === undefined)('renders to PNG with rsvg-convert (skipped where it is not installed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-svg-'));
    const svgPath = join(dir, 'eur.svg');
    const r = cli(['diagram', 'scenarios/temporal-eur-rate.yaml', '--svg', svgPath]);
    expect(r.status).toBe(0);
    const out = spawnSync(RENDERER!, [svgPath, '-o', join(dir, 'eur.png')], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    const png = readFileSync(join(dir, 'eur.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // Width and height from the IHDR chunk: the SVG's own size.
    const svg = readFileSync(svgPath, 'utf8');
    const [, w, h] = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(svg)!;
    expect(png.readUInt32BE(16)).toBe(Number(w));
    expect(png.readUInt32BE(20)).toBe(Number(h));
  });
  if (RENDERER === undefined) it('notes that PNG rendering was skipped: install librsvg2-bin for rsvg-convert', () => expect(RENDERER).toBeUndefined());
});

describe('joinstep diagram (CLI) on every bundled scenario', () => {
  const files = findScenarioFiles([`${ROOT}/scenarios`]).files;
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-diagrams-'));
  it.each(files.map((f) => [f.slice(ROOT.length)]))('%s', async (file) => {
    const out = join(dir, `${file.replace(/\W/g, '_')}.svg`);
    const r = cli(['diagram', file, '--svg', out]);
    const loaded = await loadScenarioFile(`${ROOT}/${file}`);
    if (!loaded.ok) {
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/:\d+:\d+: error: /);
      return;
    }
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const svg = readFileSync(out, 'utf8');
    // One mark per row event.
    const rows = loaded.scenario.events.filter((e) => e.kind === 'row').length;
    expect([...svg.matchAll(/<g class="row[ "]/g)].length).toBe(rows);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  });

  it('refuses to overwrite a file that is not an SVG, and a bad --step, exit 2', () => {
    const target = join(dir, 'precious.yaml');
    writeFileSync(target, 'name: keep me\n');
    const r = cli(['diagram', 'scenarios/temporal-eur-rate.yaml', '--svg', target]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('exists and is not an SVG');
    expect(readFileSync(target, 'utf8')).toBe('name: keep me\n');
    expect(cli(['diagram', 'scenarios/temporal-eur-rate.yaml', '--svg', join(dir, 'x.svg'), '--step', '99']).stderr).toContain('--step 99 is past the last step (6)');
    expect(cli(['diagram', 'scenarios/temporal-eur-rate.yaml', '--svg', join(dir, 'x.svg'), '--step', 'two']).status).toBe(2);
    expect(cli(['diagram', 'scenarios/temporal-eur-rate.yaml']).stderr).toContain('needs --svg OUT');
  });

  it('replaces an earlier SVG through a symbolic link, which stays a link', () => {
    const real = join(dir, 'real.svg');
    const link = join(dir, 'latest.svg');
    expect(cli(['diagram', 'scenarios/temporal-eur-rate.yaml', '--svg', real, '--step', '1']).status).toBe(0);
    const before = readFileSync(real, 'utf8');
    symlinkSync(real, link);
    expect(cli(['diagram', 'scenarios/temporal-eur-rate.yaml', '--svg', link]).status).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).not.toBe(before);
  });
});
