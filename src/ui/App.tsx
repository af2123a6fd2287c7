/**
 * The debugger app: holds the UI state, maps every key through the ONE keymap (via the reducer)
 * and draws the frame as a pure function of state and terminal size. Effects live here only:
 * quit, reload, the play timer and the --watch subscription.
 */
import { useApp, useInput, useStdin } from 'ink';
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import type { Timeline } from '../engine/types.js';
import { saveScenarioFile } from '../scenario/edit.js';
import { saveFailureText } from '../scenario/save-file.js';
import { frameText } from './ansi.js';
import { Frame } from './Frame.js';
import { hasDeferred } from './panes/index.js';
import { resultFolding } from './panes/result-pane.js';
import { splitKeys } from './keymap.js';
import { slowestQueryMs } from './step-view.js';
import { reduce } from './reducer.js';
import { screenLayout } from './screen.js';
import type { Session } from './session.js';
import type { SessionBuild } from './session-load.js';
import { computeInPieces, foldWork, prepareWork, SLICE_MS } from './compute-in-pieces.js';
import { FileProblemExit } from './file-problem.js';
import type { SliceOptions } from './load-in-slices.js';
import { loadingText } from './loading-screen.js';
import { initialState, SPEEDS, type UiState } from './state.js';
import { useTerminalSize } from './terminal.js';
import type { FrameSink } from './terminal-output.js';
import { makeTheme } from './theme.js';
import { writeDiagram, writeScore } from './teach-effects.js';
import { startPractice } from './practice.js';

const SETTLE_MS = 150;
/**
 * A settled frame runs its slow queries in one go, and a key typed meanwhile waits for them: so
 * the keys must have paused at least as long as the slowest query took (up to this), or a
 * steady pace of keys on a big state would wait on every key (docs/decisions.md).
 */
const SETTLE_MAX_MS = 2000;
/** The longest the slices step aside for a key's frame (a key that changes nothing draws none). */
const KEY_WAIT_MS = 50;
/**
 * A result fold's slice: shorter than the run's, since a fold (a jump's, a seek's) runs while
 * keys come and a key waits for the slice under way (plus a collection at times).
 */
const FOLD_SLICE_MS = 4;
/** A fold toward a step starts once no key has moved the step for this long. */
const FOLD_AFTER_MS = 50;
/**
 * For this long after a key, slices are at most NEAR_KEY_SLICE_MS: keys come in bursts, and a
 * key read during a slice waits for the rest of it (docs/decisions.md, shorter slices near a key).
 */
const NEAR_KEY_MS = 1000;
const NEAR_KEY_SLICE_MS = 2;

/** `build`: the reloaded session's run, when it is still to be computed (the app computes it in pieces). */
/** A failed reload: `message` for the status line, `diagnostics` the loader's messages whole. */
export type ReloadResult = { readonly ok: true; readonly session: Session; readonly build?: SessionBuild } | { readonly ok: false; readonly message: string; readonly diagnostics?: readonly string[] };

export interface AppProps {
  readonly session: Session;
  readonly mono?: boolean;
  /** Reads the file again in slices (told where it stands); undefined when stopped by a newer reload. */
  readonly reload?: (options: SliceOptions) => Promise<ReloadResult | undefined>;
  /** Subscribes to changes of the scenario file (--watch); returns the unsubscribe. */
  readonly watch?: (onChange: () => void) => () => void;
  /** Called when the user quits, before Ink exits (tests observe quitting through it). */
  readonly onQuit?: () => void;
  /** Writes the edited scenario (default: atomic, with a .bak); tests may observe it. */
  readonly save?: (file: string, text: string) => Promise<void>;
  /**
   * Where frames go when the app draws them itself (the terminal, see terminal-output.ts);
   * absent = Ink draws them through <Frame> (the same text, built the slow way).
   */
  readonly output?: FrameSink;
  /** Writes the `d` diagram and says where (default: into the current directory); tests may observe it. */
  readonly diagram?: (state: UiState) => Promise<string>;
  /** Start in practice mode (`joinstep practice`), writing the score JSON here if given. */
  readonly practice?: { readonly scoreOut?: string };
  /** The session's run, still being computed: the app computes it in pieces between frames and keys. */
  readonly build?: SessionBuild;
}

export function App({ session, mono = false, reload, watch, onQuit, save = saveScenarioFile, output, practice, diagram = writeDiagram, build }: AppProps) {
  const size = useTerminalSize();
  const [state, dispatch] = useReducer(reduce, undefined, () => {
    const first = initialState(session, { mono, ...size, ...(build !== undefined && build.session === session ? { build: build.progress() } : {}) });
    return practice === undefined ? first : startPractice(first, practice.scoreOut);
  });
  const { exit } = useApp();
  const { isRawModeSupported } = useStdin();

  // Raw mode only with a TTY stdin: Ink throws "Raw mode is not supported" otherwise.
  // Keys typed faster than a frame (or held down) arrive as one chunk: apply them one by one.
  // A key read and not yet drawn: the run's and the fold's slices step aside until its frame is
  // drawn (or KEY_WAIT_MS passed: a key that changes nothing draws no frame).
  const keyAt = useRef(-Infinity);
  const yieldTo = useRef(() => performance.now() - keyAt.current < KEY_WAIT_MS).current;
  const lastKeyAt = useRef(-Infinity);
  const sliceNearKey = useRef((ms: number) => () => (performance.now() - lastKeyAt.current < NEAR_KEY_MS ? Math.min(ms, NEAR_KEY_SLICE_MS) : ms)).current;
  useInput(
    (input, key) => {
      keyAt.current = performance.now();
      lastKeyAt.current = keyAt.current;
      for (const k of splitKeys(input, key)) dispatch({ t: 'key', key: k });
    },
    { isActive: isRawModeSupported === true },
  );

  useEffect(() => dispatch({ t: 'resize', columns: size.columns, rows: size.rows }), [size.columns, size.rows]);

  const effectId = state.effect?.id;
  // The reload reading the file, if any (stopped by a newer one, and when the app goes).
  const loading = useRef<AbortController | undefined>(undefined);
  useEffect(() => {
    const effect = state.effect;
    if (effect === undefined) return;
    if (effect.kind === 'quit') {
      writeScore(state);
      onQuit?.();
      exit();
    } else if (effect.kind === 'score') {
      const said = writeScore(state);
      if (said !== undefined) dispatch({ t: 'message', message: said });
    } else if (effect.kind === 'diagram') {
      diagram(state).then(
        (message) => dispatch({ t: 'message', message }),
        (err: unknown) => dispatch({ t: 'message', message: `diagram not written: ${String(err)}` }),
      );
    }
    else if (effect.kind === 'save') {
      const text = state.edit?.text;
      if (text === undefined) return;
      save(state.session.info.file, text).then(
        () => dispatch({ t: 'saved', text }),
        (err: unknown) => dispatch({ t: 'saveFailed', message: saveFailureText(state.session.info.file, err) }),
      );
    } else if (reload === undefined) dispatch({ t: 'reloadFailed', message: 'nothing to reload' });
    else {
      // The file is read in slices: the current session stays on screen and keys go on working;
      // a newer reload (a save while reading) stops this one.
      loading.current?.abort();
      const stop = new AbortController();
      loading.current = stop;
      const start = performance.now();
      const report = (p: { done: number; total?: number }): void => {
        const s = (performance.now() - start) / 1000;
        dispatch({ t: 'message', message: `reloading: ${loadingText({ ...p, rate: s > 0 ? p.done / s : 0 })}` });
      };
      reload({ report, signal: stop.signal }).then(
        (r) => {
          if (r === undefined || stop.signal.aborted) return;
          if (r.ok) setRun(r.build);
          // The first read of a big file gave up half-way and the full read fails too: the file
          // never had a usable session, so the app leaves with the loader's messages.
          if (!r.ok && effect.kind === 'reread') exit(new FileProblemExit(r.diagnostics ?? [r.message]));
          else dispatch(r.ok ? { t: 'reloaded', session: r.session } : { t: 'reloadFailed', message: r.message });
        },
        (err: unknown) => dispatch({ t: 'reloadFailed', message: `reload failed: ${String(err)}` }),
      );
    }
  }, [effectId]);
  useEffect(() => () => loading.current?.abort(), []);

  useEffect(() => {
    if (!state.playing) return;
    const timer = setInterval(() => dispatch({ t: 'tick' }), 1000 / (SPEEDS[state.speed] ?? 1));
    return () => clearInterval(timer);
  }, [state.playing, state.speed]);

  useEffect(() => (watch === undefined ? undefined : watch(() => dispatch({ t: 'fileChanged' }))), [watch]);

  // A big run goes on in pieces between frames and keys; a reload (a new run) stops it, and
  // goes on with its own run when that is long.
  const [run, setRun] = useState(build);
  const computing = state.computing !== undefined && state.computing.error === undefined;
  useEffect(() => {
    if (run === undefined || !computing) return;
    return computeInPieces(run, (p) => dispatch({ t: 'computed', ...p }), { yieldTo, sliceMs: sliceNearKey(SLICE_MS) });
  }, [run, computing]);

  // V on a long run: the other version's run and the diff, in pieces too.
  const compareJob = state.comparing?.job;
  useEffect(() => (compareJob === undefined ? undefined : computeInPieces(compareJob, (p) => dispatch({ t: 'compareProgress', ...p }), { yieldTo, sliceMs: sliceNearKey(SLICE_MS) })), [compareJob]);

  // A step is settled once no key has moved it for SETTLE_MS (longer after slow queries): only
  // then do panes run engine queries that proved slow on this run (on small runs every query is
  // fast and this is moot).
  const [settledAt, setSettledAt] = useState<{ timeline: Timeline; step: number }>();
  const settled = settledAt?.timeline === state.session.timeline && settledAt.step === state.step;
  const deferred = !settled && hasDeferred(state);
  useEffect(() => {
    if (!deferred) return;
    const pause = Math.min(SETTLE_MAX_MS, Math.max(SETTLE_MS, slowestQueryMs(state.session.timeline)));
    const timer = setTimeout(() => setSettledAt({ timeline: state.session.timeline, step: state.step }), pause);
    return () => clearTimeout(timer);
  }, [state.session.timeline, state.step, deferred]);

  const screen = screenLayout({ ...state, settled }, size.columns, size.rows);

  // The result of a step far from where the result's fold stands (a jump, a seek) is folded in
  // slices too, the pane showing how far; a key moves it on toward the new step at once.
  const [, setFolded] = useState(0);
  // After the layout: a short way was folded while the frame was built.
  const folding = resultFolding(state);
  const foldTimeline = state.session.timeline;
  const foldStep = state.step;
  // It starts once the step has stayed FOLD_AFTER_MS: keys in a burst (a held key, a typed seek)
  // then do not share the loop with a fold toward a step that is already left.
  useEffect(() => {
    if (!folding) return;
    let stop: (() => void) | undefined;
    const timer = setTimeout(() => (stop = computeInPieces(foldWork(foldTimeline, foldStep), () => setFolded((n) => n + 1), { sliceMs: sliceNearKey(FOLD_SLICE_MS), yieldTo })), FOLD_AFTER_MS);
    return () => {
      clearTimeout(timer);
      stop?.();
    };
  }, [foldTimeline, foldStep, folding]);
  // Once the run is complete and no fold is under way, the rows a far jump would fold are
  // printed ahead in the same slices (the idle app's time), so that its result comes sooner.
  const idle = !folding && state.computing === undefined;
  useEffect(() => (idle ? computeInPieces(prepareWork(foldTimeline), () => undefined, { sliceMs: sliceNearKey(FOLD_SLICE_MS), yieldTo }) : undefined), [foldTimeline, idle]);

  const theme = makeTheme(state.mono);
  // Every render is a new frame: draw it as the render commits (the sink skips unchanged rows).
  useLayoutEffect(() => {
    keyAt.current = -Infinity;
    if (output === undefined) return;
    const text = frameText(screen, theme);
    output.draw(text.rows, text.widths, size.columns);
  });
  return output === undefined ? <Frame screen={screen} theme={theme} /> : null;
}
