/** Picker first (for a directory), then the debugger; a file goes straight to the debugger. */
import { useMemo, useState } from 'react';
import { App, type ReloadResult } from './App.js';
import { Picker, type PickerEntry } from './Picker.js';
import type { Session } from './session.js';
import type { SliceOptions } from './load-in-slices.js';
import type { Opened, SessionBuild } from './session-load.js';
import type { FrameSink } from './terminal-output.js';
import { useTerminalSize } from './terminal.js';

export interface RootProps {
  readonly entries?: readonly PickerEntry[];
  readonly session?: Session;
  readonly file?: string;
  readonly mono?: boolean;
  /** Opens a file (picked, or reloaded): read in slices, told where it stands; undefined when stopped. */
  readonly open: (file: string, options?: SliceOptions) => Promise<Opened | undefined>;
  readonly watch?: (file: string, onChange: () => void) => () => void;
  /** The app draws its frames here itself (absent: through Ink); the picker is always Ink's. */
  readonly output?: FrameSink;
  /** Open the scenario in practice mode (`joinstep practice`). */
  readonly practice?: { readonly scoreOut?: string };
  /** The opened session's run when it is still being computed (big scenarios). */
  readonly build?: SessionBuild;
}

export function Root({ entries = [], session, file, mono, open, watch, output, practice, build }: RootProps) {
  const size = useTerminalSize();
  const [current, setCurrent] = useState<{ file: string; session: Session; build?: SessionBuild } | undefined>(
    session !== undefined && file !== undefined ? { file, session, ...(build !== undefined && build.session === session ? { build } : {}) } : undefined,
  );
  const [errors, setErrors] = useState<readonly string[]>([]);
  const currentFile = current?.file;
  // Stable per file, so App subscribes to the watcher once rather than on every frame.
  const watchThis = useMemo(
    () => (watch === undefined || currentFile === undefined ? undefined : (onChange: () => void) => watch(currentFile, onChange)),
    [watch, currentFile],
  );
  if (current === undefined) {
    const pick = (f: string): void => {
      void open(f).then((r) => (r === undefined ? undefined : r.ok ? setCurrent({ file: f, session: r.session, ...(r.build !== undefined ? { build: r.build } : {}) }) : setErrors(r.errors)));
    };
    return <Picker entries={entries} size={size} onPick={pick} errors={errors} />;
  }
  const reload = async (options: SliceOptions): Promise<ReloadResult | undefined> => {
    const r = await open(current.file, options);
    return r === undefined || r.ok ? r : { ok: false, message: r.errors[0]?.split('\n')[0] ?? 'reload failed', diagnostics: r.errors };
  };
  const computing = current.build !== undefined ? { build: current.build } : {};
  return <App key={current.file} session={current.session} {...computing} {...(mono !== undefined ? { mono } : {})} reload={reload} {...(watchThis ? { watch: watchThis } : {})} {...(output ? { output } : {})} {...(practice ? { practice } : {})} />;
}
