/**
 * The terminal around the app. Ink 6.8 has no alternate-screen option, so we write ESC[?1049h/l
 * ourselves and restore on every way out (normal exit, Ctrl-C, an exception, SIGTERM/SIGHUP).
 * Height is not state in Ink, hence the resize hook.
 */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export { enterAltScreen, type AltScreen } from './alt-screen.js';

export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

/** The terminal size, updated on resize. ink-testing-library's stdout has no `rows`: default 24. */
export function useTerminalSize(fallback: TerminalSize = { columns: 80, rows: 24 }): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize => ({ columns: stdout.columns || fallback.columns, rows: stdout.rows || fallback.rows });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = (): void => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
