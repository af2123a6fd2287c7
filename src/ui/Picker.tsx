/**
 * The scenario picker (joinstep DIR, or no argument): every scenario with its name, and the
 * highlighted one's description or load error below the list. Enter opens it, q quits.
 */
import { Box, Text, useApp, useInput, useStdin } from 'ink';
import SelectInput from 'ink-select-input';
import { useState } from 'react';
import { clip } from './lines.js';
import { printable } from '../values/printable.js';
import type { TerminalSize } from './terminal.js';

export interface PickerEntry {
  readonly file: string;
  readonly name: string;
  readonly description?: string;
  readonly error?: string;
}

export interface PickerProps {
  readonly entries: readonly PickerEntry[];
  readonly size: TerminalSize;
  readonly onPick: (file: string) => void;
  /** Errors of the last pick that could not be opened. */
  readonly errors?: readonly string[];
}

export function Picker({ entries, size, onPick, errors = [] }: PickerProps) {
  const { isRawModeSupported } = useStdin();
  const { exit } = useApp();
  const [current, setCurrent] = useState(entries[0]?.file);
  useInput((input, key) => (input === 'q' || key.escape ? exit() : undefined), { isActive: isRawModeSupported === true });
  const width = size.columns - 4;
  const height = size.rows - 1;
  const entry = entries.find((e) => e.file === current);
  const detail = (errors.length > 0 ? errors.join('\n') : (entry?.error ?? entry?.description ?? '')).split('\n');
  const limit = Math.max(1, Math.min(entries.length, height - 6 - Math.min(detail.length, 4)));
  const items = entries.map((e) => ({ key: e.file, value: e.file, label: clip(`${printable(e.name)}${e.error ? '  (error)' : ''}  ${printable(e.file)}`, width) }));
  return (
    <Box flexDirection="column" height={height}>
      <Text bold inverse>{clip(' joinstep · pick a scenario (↑↓ enter · q quits) ', size.columns)}</Text>
      <Text> </Text>
      <SelectInput items={items} limit={limit} isFocused={isRawModeSupported === true} onHighlight={(i) => setCurrent(i.value)} onSelect={(i) => onPick(i.value)} />
      <Text> </Text>
      {detail.slice(0, Math.max(1, height - limit - 4)).map((line, i) => (
        <Text key={i} color={errors.length > 0 || entry?.error ? 'red' : undefined} wrap="truncate">
          {clip(printable(line), width)}
        </Text>
      ))}
    </Box>
  );
}
