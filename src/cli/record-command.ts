/**
 * `joinstep record FILE --out demo.cast [--keys "..."] [--size 100x30] [--pace 700ms]
 * [--frames FILE] [--svg FILE]`: an asciicast of the real app driven by a key script
 * (docs/recording.md). Ink and React load only here, by a dynamic import, as for the app.
 */
import type { Command } from './args.js';
import { isStandardOutput, refuseOutputs, type OutputFile, type OutputKind } from './output-file.js';
import { writeErr, writeNamedFile, writeOut } from './output.js';

/** An asciicast v2 starts with its header object, `{"version": 2, ...}`. */
const CAST: OutputKind = { option: '--out', what: 'an asciicast', looksLike: (head) => /^\s*\{\s*"version"\s*:\s*2\b/.test(head) };
const FRAMES: OutputKind = { option: '--frames', what: 'a frames file', looksLike: (head) => head.startsWith('--- frame ') };
const SVG: OutputKind = { option: '--svg', what: 'an SVG', looksLike: (head) => /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(head) };

export async function recordCommand(cmd: Extract<Command, { name: 'record' }>): Promise<number> {
  const outputs: OutputFile[] = [{ path: cmd.out, kind: CAST }];
  if (cmd.frames !== undefined) outputs.push({ path: cmd.frames, kind: FRAMES });
  if (cmd.svg !== undefined) outputs.push({ path: cmd.svg, kind: SVG });
  // Checked before recording: a mistyped path is said at once, and no output is half written.
  const refused = refuseOutputs(outputs, [cmd.file]);
  if (refused !== undefined) {
    writeErr(`joinstep: ${refused.message}\nhint: ${refused.hint}\n`);
    return 2;
  }
  const { recordScenario } = await import('../record/record.js');
  const { frameToSvg } = await import('../record/svg.js');
  const r = await recordScenario({
    file: cmd.file,
    ...(cmd.keys !== undefined ? { keys: cmd.keys } : {}),
    columns: cmd.columns,
    rows: cmd.rows,
    paceMs: cmd.paceMs,
    mono: cmd.mono,
  });
  if (!r.ok) {
    writeErr(r.errors.join('\n') + '\n');
    return 2;
  }
  const files: [string, () => string][] = [[cmd.out, () => r.cast]];
  if (cmd.frames !== undefined) files.push([cmd.frames, () => r.frames]);
  if (cmd.svg !== undefined) {
    // The last frame: where the demo ends is what the README should show.
    const last = r.recording.frames[r.recording.frames.length - 1];
    files.push([cmd.svg, () => frameToSvg(last?.text ?? '', cmd.columns, cmd.rows, r.title)]);
  }
  for (const [path, text] of files) {
    const failed = writeNamedFile(path, text());
    if (failed !== undefined) return failed;
  }
  const changes = r.recording.markers.length;
  const summary = `joinstep: recorded ${r.recording.frames.length} frames, ${changes} step change${changes === 1 ? '' : 's'}, ${(r.recording.endMs / 1000).toFixed(1)} s → ${cmd.out}\n`;
  // A recording sent to standard output (`--out /dev/stdout | ...`) is the output: the summary
  // goes to stderr instead of into the cast.
  if (files.some(([path]) => isStandardOutput(path))) writeErr(summary);
  else writeOut(summary);
  return 0;
}
