/**
 * A static SVG of one frame: monospace text on a dark background, colours read from the SGR
 * codes Ink wrote (16 colours, bold, dim, inverse). Made for the README; no fonts embedded.
 */
const CELL_W = 8.4;
const CELL_H = 17;
const PAD = 12;
const BG = '#1e1e2e';
const FG = '#d4d4d4';

/** The 16 ANSI colours (30–37 normal, 90–97 bright). */
const PALETTE: readonly string[] = [
  '#45475a', '#f38ba8', '#a6e3a1', '#f9e2af', '#89b4fa', '#f5c2e7', '#94e2d5', '#bac2de',
  '#7f849c', '#f38ba8', '#a6e3a1', '#f9e2af', '#89b4fa', '#f5c2e7', '#94e2d5', '#ffffff',
];

interface Style {
  fg?: string;
  bg?: string;
  bold: boolean;
  dim: boolean;
  inverse: boolean;
}

interface Run {
  readonly text: string;
  readonly style: Style;
}

const plain = (): Style => ({ bold: false, dim: false, inverse: false });

function xterm256(n: number): string {
  if (n < 16) return PALETTE[n]!;
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v},${v},${v})`;
  }
  const i = n - 16;
  const c = (k: number): number => (k === 0 ? 0 : 55 + k * 40);
  return `rgb(${c(Math.floor(i / 36))},${c(Math.floor(i / 6) % 6)},${c(i % 6)})`;
}

/** Applies one SGR parameter list (`1;32`) to the style. */
function applySgr(style: Style, params: string): Style {
  const s = { ...style };
  const codes = params === '' ? [0] : params.split(';').map(Number);
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c === 0) Object.assign(s, plain(), { fg: undefined, bg: undefined });
    else if (c === 1) s.bold = true;
    else if (c === 2) s.dim = true;
    else if (c === 22) s.bold = s.dim = false;
    else if (c === 7) s.inverse = true;
    else if (c === 27) s.inverse = false;
    else if (c >= 30 && c <= 37) s.fg = PALETTE[c - 30];
    else if (c >= 90 && c <= 97) s.fg = PALETTE[c - 90 + 8];
    else if (c === 39) s.fg = undefined;
    else if (c >= 40 && c <= 47) s.bg = PALETTE[c - 40];
    else if (c >= 100 && c <= 107) s.bg = PALETTE[c - 100 + 8];
    else if (c === 49) s.bg = undefined;
    else if ((c === 38 || c === 48) && codes[i + 1] === 5) {
      const col = xterm256(codes[i + 2] ?? 0);
      if (c === 38) s.fg = col;
      else s.bg = col;
      i += 2;
    } else if ((c === 38 || c === 48) && codes[i + 1] === 2) {
      const col = `rgb(${codes[i + 2] ?? 0},${codes[i + 3] ?? 0},${codes[i + 4] ?? 0})`;
      if (c === 38) s.fg = col;
      else s.bg = col;
      i += 4;
    }
  }
  return s;
}

/** One line of ANSI text as styled runs; the style carries over to the next line as terminals do. */
export function parseAnsiLine(line: string, start: Style = plain()): { runs: Run[]; end: Style } {
  const runs: Run[] = [];
  let style = start;
  let text = '';
  const re = /\u001b\[([0-9;]*)([@-~])/g;
  let last = 0;
  const flush = (): void => {
    if (text !== '') runs.push({ text, style });
    text = '';
  };
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    text += line.slice(last, m.index);
    last = re.lastIndex;
    if (m[2] === 'm') {
      flush();
      style = applySgr(style, m[1] ?? '');
    }
  }
  text += line.slice(last);
  flush();
  return { runs, end: style };
}

const escapeXml = (t: string): string => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The frame `text` (as Ink wrote it) as an SVG of `columns` × `rows` cells. */
export function frameToSvg(text: string, columns: number, rows: number, title = 'joinstep'): string {
  const width = Math.ceil(columns * CELL_W + 2 * PAD);
  const height = Math.ceil(rows * CELL_H + 2 * PAD);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}">`,
    `<rect width="100%" height="100%" rx="6" fill="${BG}"/>`,
    `<g font-family="ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="14" xml:space="preserve">`,
  ];
  let style = plain();
  text.replace(/\n$/, '').split('\n').slice(0, rows).forEach((line, y) => {
    const parsed = parseAnsiLine(line, style);
    style = parsed.end;
    let x = 0;
    const baseline = PAD + y * CELL_H + 13;
    for (const run of parsed.runs) {
      const cells = [...run.text].length;
      const s = run.style;
      const fg = s.inverse ? (s.bg ?? BG) : (s.fg ?? FG);
      const bg = s.inverse ? (s.fg ?? FG) : s.bg;
      const px = PAD + x * CELL_W;
      if (bg !== undefined) out.push(`<rect x="${px.toFixed(1)}" y="${PAD + y * CELL_H}" width="${(cells * CELL_W).toFixed(1)}" height="${CELL_H}" fill="${bg}"/>`);
      if (run.text.trim() !== '') {
        const attrs = [`x="${px.toFixed(1)}"`, `y="${baseline}"`, `fill="${fg}"`];
        if (s.bold) attrs.push('font-weight="bold"');
        if (s.dim) attrs.push('opacity="0.6"');
        // textLength pins each run to its cells, so a font with other metrics cannot shift columns.
        attrs.push(`textLength="${(cells * CELL_W).toFixed(1)}"`, 'lengthAdjust="spacingAndGlyphs"');
        out.push(`<text ${attrs.join(' ')}>${escapeXml(run.text)}</text>`);
      }
      x += cells;
    }
  });
  out.push('</g>', '</svg>');
  return out.join('\n') + '\n';
}
