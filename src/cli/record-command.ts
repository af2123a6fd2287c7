/**
 * `joinstep record FILE --out demo.cast [--keys "..."] [--size 100x30] [--pace 700ms]
 * [--frames FILE] [--svg FILE]`: an asciicast of the real app driven by a key script
 * (docs/recording.md). Ink and React load only here, by a dynamic import, as for the app.
 */
import type { Command } from './args.js';
import { writeErr, writeNamedFile, writeOut } from './output.js';

export async function recordCommand(cmd: Extract<Command, { name: 'record' }>): Promise<number> {
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
  writeOut(`joinstep: recorded ${r.recording.frames.length} frames, ${changes} step change${changes === 1 ? '' : 's'}, ${(r.recording.endMs / 1000).toFixed(1)} s → ${cmd.out}\n`);
  return 0;
}
