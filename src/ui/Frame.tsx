/**
 * Prints the frame's lines. Adjacent segments with the same style are merged, and each line is a
 * memoized component keyed by its content, so React skips the lines a key press did not change
 * (Ink still builds the whole output string; see stack-spike §3).
 */
import { Box, Text } from 'ink';
import { Fragment, memo } from 'react';
import type { Segment } from './lines.js';
import { type ScreenLayout, SEPARATOR } from './screen.js';
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

/** A string that changes whenever the line's text or styles do. */
function signature(line: readonly Segment[]): string {
  let sig = '';
  for (const s of line) sig += `${s.tone ?? ''}${s.bold === true ? 'b' : ''}${s.inverse === true ? 'i' : ''}${s.dim === true ? 'd' : ''}\u0000${s.text}\u0001`;
  return sig;
}

const FrameLine = memo(
  function FrameLine({ line, theme }: { line: readonly Segment[]; theme: Theme; sig: string }) {
    return (
      <Text wrap="truncate">
        {merge(line).map((s, i) => (
          <Text key={i} color={theme.color(s.tone)} bold={s.bold === true} inverse={s.inverse === true} dimColor={s.dim === true}>
            {s.text}
          </Text>
        ))}
      </Text>
    );
  },
  (a, b) => a.sig === b.sig && a.theme.mono === b.theme.mono,
);

const BLANK: readonly Segment[] = [{ text: ' ' }];

/** The frame: status line, the pane columns side by side (Ink places them), the key bar. */
export function Frame({ screen, theme }: { screen: ScreenLayout; theme: Theme }) {
  // An empty Text has no height in Ink: a blank line is one space, so panes keep their heights.
  const line = (l: readonly Segment[], key: string) => {
    const shown = l.length === 0 || l.every((s) => s.text === '') ? BLANK : l;
    return <FrameLine key={key} line={shown} theme={theme} sig={signature(shown)} />;
  };
  return (
    <Box flexDirection="column" width={screen.width}>
      {screen.top.map((l, y) => line(l, `t${y}`))}
      {screen.columns.length > 0 && (
        <Box flexDirection="row" height={screen.body}>
          {screen.columns.map((c, i) => (
            <Fragment key={i}>
              {i > 0 && (
                <Box width={1} flexShrink={0}>
                  <Text color={theme.color(SEPARATOR.tone)}>{Array.from({ length: screen.body }, () => SEPARATOR.text).join('\n')}</Text>
                </Box>
              )}
              <Box width={c.width} height={screen.body} flexShrink={0} flexDirection="column" overflow="hidden">
                {c.lines.map((l, y) => line(l, `c${y}`))}
              </Box>
            </Fragment>
          ))}
        </Box>
      )}
      {screen.bottom.map((l, y) => line(l, `b${y}`))}
    </Box>
  );
}
