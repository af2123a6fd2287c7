/** Prints the frame's lines. Adjacent segments with the same style are merged to keep Ink's per-node cost down. */
import { Box, Text } from 'ink';
import type { Segment } from './lines.js';
import type { Theme } from './theme.js';

function sameStyle(a: Segment, b: Segment): boolean {
  return a.tone === b.tone && a.bold === b.bold && a.inverse === b.inverse && a.dim === b.dim;
}

function merge(line: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of line) {
    const last = out[out.length - 1];
    if (last !== undefined && sameStyle(last, s)) out[out.length - 1] = { ...last, text: last.text + s.text };
    else out.push(s);
  }
  return out;
}

export function Frame({ lines, theme }: { lines: readonly (readonly Segment[])[]; theme: Theme }) {
  return (
    <Box flexDirection="column">
      {lines.map((line, y) => (
        <Text key={y} wrap="truncate">
          {merge(line).map((s, i) => (
            <Text key={i} color={theme.color(s.tone)} bold={s.bold === true} inverse={s.inverse === true} dimColor={s.dim === true}>
              {s.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}
