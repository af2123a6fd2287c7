/**
 * The ONE keymap table. The reducer resolves keys through it, the key bar and the `?` help
 * overlay are generated from it, and the keymap tests walk it, so a binding cannot exist in one
 * place and be missing from another.
 */
import type { Key } from 'ink';

export type CommandId =
  | 'next'
  | 'prev'
  | 'first'
  | 'last'
  | 'goto'
  | 'watermark'
  | 'idle'
  | 'clock'
  | 'play'
  | 'faster'
  | 'slower'
  | 'runTo'
  | 'focusNext'
  | 'focusPrev'
  | 'up'
  | 'down'
  | 'pageUp'
  | 'pageDown'
  | 'search'
  | 'reload'
  | 'colour'
  | 'help'
  | 'quit'
  | 'runEmit'
  | 'runRetract'
  | 'runLate'
  | 'runWatermark'
  | 'runExpire'
  | 'follow'
  | 'insertEvent'
  | 'deleteEvent'
  | 'moveEarlier'
  | 'moveLater'
  | 'duplicateEvent'
  | 'save'
  | 'practice'
  | 'compare'
  | 'diagram';

export interface Binding {
  /** Key names as produced by `keyName` (a printable character, or 'space', 'right', 'enter', ...). */
  readonly keys: readonly string[];
  readonly command: CommandId;
  /** Short label for the key bar; absent = help overlay only. */
  readonly bar?: string;
  /** One line for the help overlay. */
  readonly help: string;
  /** Bindings that only apply after this prefix key (the `b` run-to family). */
  readonly prefix?: string;
}

export const KEYMAP: readonly Binding[] = [
  { keys: ['n', 'space', 'right'], command: 'next', bar: 'next', help: 'step forward' },
  { keys: ['p', 'left'], command: 'prev', bar: 'back', help: 'step back' },
  { keys: ['g'], command: 'first', help: 'go to the start (step 0)' },
  { keys: ['G'], command: 'last', help: 'go to the last step' },
  { keys: [':'], command: 'goto', bar: 'go to', help: 'go to step N' },
  { keys: ['w'], command: 'watermark', bar: 'wm', help: 'advance a watermark by hand' },
  { keys: ['i'], command: 'idle', bar: 'idle', help: 'toggle a partition idle / active' },
  { keys: ['t'], command: 'clock', bar: 'time', help: 'advance processing time' },
  { keys: ['enter'], command: 'play', bar: 'play', help: 'play / pause' },
  { keys: ['+', '='], command: 'faster', help: 'play faster' },
  { keys: ['-'], command: 'slower', help: 'play slower' },
  { keys: ['b'], command: 'runTo', bar: 'run to', help: 'run to the next ... (then e r l w x)' },
  { keys: ['e'], command: 'runEmit', help: 'next emission', prefix: 'b' },
  { keys: ['r'], command: 'runRetract', help: 'next retraction (-U / -D)', prefix: 'b' },
  { keys: ['l'], command: 'runLate', help: 'next late drop', prefix: 'b' },
  { keys: ['w'], command: 'runWatermark', help: 'next watermark change', prefix: 'b' },
  { keys: ['x'], command: 'runExpire', help: 'next state expiry', prefix: 'b' },
  { keys: ['tab'], command: 'focusNext', bar: 'pane', help: 'focus the next pane' },
  { keys: ['shift-tab'], command: 'focusPrev', help: 'focus the previous pane' },
  { keys: ['up'], command: 'up', help: 'scroll or select up (focused pane)' },
  { keys: ['down'], command: 'down', help: 'scroll or select down (focused pane)' },
  { keys: ['pageup'], command: 'pageUp', help: 'page up in the focused pane' },
  { keys: ['pagedown'], command: 'pageDown', help: 'page down in the focused pane' },
  { keys: ['v'], command: 'follow', help: 'follow the next query (side by side)' },
  { keys: ['e'], command: 'insertEvent', bar: 'edit', help: 'what-if: insert an event here' },
  { keys: ['x'], command: 'deleteEvent', help: "what-if: delete this step's event" },
  { keys: ['['], command: 'moveEarlier', help: 'what-if: move this event earlier' },
  { keys: [']'], command: 'moveLater', help: 'what-if: move this event later' },
  { keys: ['D'], command: 'duplicateEvent', help: 'what-if: duplicate this event' },
  { keys: ['s'], command: 'save', help: 'save the what-if edits (.bak kept)' },
  { keys: ['P'], command: 'practice', bar: 'practice', help: 'practice mode (again: the score)' },
  { keys: ['V'], command: 'compare', help: 'show another flink-version beside' },
  { keys: ['d'], command: 'diagram', help: 'write a time diagram (SVG) here' },
  { keys: ['/'], command: 'search', bar: 'search', help: 'search the changelog' },
  { keys: ['r'], command: 'reload', bar: 'reload', help: 'reload the file, keeping the step' },
  { keys: ['c'], command: 'colour', help: 'colour / monochrome' },
  { keys: ['?'], command: 'help', bar: 'help', help: 'show / hide this help' },
  { keys: ['q'], command: 'quit', bar: 'quit', help: 'quit' },
];

/** The binding for `key`, in the given prefix state (undefined = no prefix pending). */
export function lookupKey(key: string, prefix?: string): Binding | undefined {
  return KEYMAP.find((b) => b.prefix === prefix && b.keys.includes(key));
}

/** Ink's (input, key) pair as one key name; printable characters stay themselves. */
export function keyName(input: string, key: Key): string {
  if (key.ctrl && input === 'c') return 'ctrl-c';
  if (key.tab) return key.shift ? 'shift-tab' : 'tab';
  if (key.return) return 'enter';
  if (key.escape) return 'esc';
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.backspace || key.delete) return 'backspace';
  if (input === ' ') return 'space';
  return input;
}

/** How a key is written in the key bar and the help overlay. */
export function keyLabel(key: string): string {
  const names: Record<string, string> = { right: '→', left: '←', up: '↑', down: '↓', pageup: 'PgUp', pagedown: 'PgDn' };
  return names[key] ?? key;
}

/**
 * Key names of one input chunk. Ink hands a burst of plain characters (fast typing, a held key,
 * a paste) to useInput as one string; each character is a key of its own.
 */
export function splitKeys(input: string, key: Key): string[] {
  const plainChunk = input.length > 1 && !key.ctrl && !key.meta && !input.includes('\x1b');
  if (!plainChunk) return [keyName(input, key)];
  const named: Record<string, string> = { '\r': 'enter', '\n': 'enter', '\t': 'tab', '\x7f': 'backspace', '\b': 'backspace', ' ': 'space' };
  return [...input].map((ch) => named[ch] ?? ch);
}
