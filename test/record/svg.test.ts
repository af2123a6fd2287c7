/** The static SVG of a frame: text in cells, colours from SGR codes, XML-escaped. */
import { describe, expect, it } from 'vitest';
import { frameToSvg, parseAnsiLine } from '../../src/record/svg.js';

describe('frame to SVG', () => {
  it('splits a line into styled runs from its SGR codes', () => {
    const { runs, end } = parseAnsiLine('a\u001b[1m\u001b[32mbold green\u001b[39m\u001b[22m z\u001b[7m');
    expect(runs.map((r) => r.text)).toEqual(['a', 'bold green', ' z']);
    expect(runs[1]!.style).toMatchObject({ bold: true, fg: '#a6e3a1' });
    expect(runs[2]!.style).toMatchObject({ bold: false, fg: undefined });
    expect(end.inverse).toBe(true);
  });

  it('draws a dark background, monospace text, escaped, one row per line', () => {
    const svg = frameToSvg('x < y\n\u001b[31mred\u001b[39m', 20, 3);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+" height="\d+"/);
    expect(svg).toContain('fill="#1e1e2e"');
    expect(svg).toContain('monospace');
    expect(svg).toContain('>x &lt; y</text>');
    expect(svg).toMatch(/fill="#f38ba8"[^>]*>red<\/text>/);
    expect(svg.match(/<text /g)?.length).toBe(2);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  });

  it('inverse video swaps foreground and background', () => {
    const svg = frameToSvg('\u001b[7m\u001b[36mtab\u001b[39m\u001b[27m', 10, 1);
    expect(svg).toMatch(/<rect x="[\d.]+" y="\d+" width="[\d.]+" height="\d+" fill="#94e2d5"\/>/);
    expect(svg).toMatch(/fill="#1e1e2e"[^>]*>tab<\/text>/);
  });
});
