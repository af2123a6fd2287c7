/**
 * The app's teaching keys on every bundled scenario, through the reducer and the pure screen
 * (no Ink): `V` compares with each other release and draws, `d` writes a diagram that parses as
 * the run's, `P` practises to the score; at 80x24 and 200x60.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findScenarioFiles } from '../../src/cli/scenario-files.js';
import { loadSession } from '../../src/ui/session-load.js';
import { initialState, type UiState } from '../../src/ui/state.js';
import { writeDiagram } from '../../src/ui/teach-effects.js';
import { compareOrder } from '../../src/ui/compare.js';
import { loadScenarioText } from '../../src/scenario/load.js';
import { REPO_ROOT } from '../paths.js';
import { keys, screenText } from './state-helpers.js';

const files = findScenarioFiles([`${REPO_ROOT}/scenarios`]).files;
const dir = mkdtempSync(join(tmpdir(), 'joinstep-teach-app-'));

describe.each(files.map((f) => [f.split('/').pop()!, f]))('%s in the app', (_name, file) => {
  async function start(): Promise<UiState | undefined> {
    const r = await loadSession(file);
    return r.ok ? initialState(r.session) : undefined;
  }

  it('V visits every other release that plans the query, each drawn at both sizes, then turns off', async () => {
    const s0 = await start();
    if (s0 === undefined) return; // a scenario that expects a planning error opens no app
    // Releases that reject the query (ON CONFLICT before 2.3, say) are passed over, and named.
    const text = readFileSync(file, 'utf8');
    const others = compareOrder(s0.session.scenario!.flinkVersion);
    const planning = others.filter((v) => loadScenarioText(file, text, { flinkVersion: v }).ok);
    let s = keys(s0, 'G');
    for (let i = 0; i < planning.length; i++) {
      s = keys(s, 'V');
      expect(s.compare, s.message).toBeDefined();
      for (const [c, r] of [[80, 24], [200, 60]] as const) {
        const text = screenText(s, c, r).join('\n');
        expect(text).toContain(`vs ${s.compare!.version}`);
        expect(text).toMatch(/Flink 2\.\d ↔ 2\.\d/);
      }
    }
    s = keys(s, 'V');
    expect(s.compare).toBeUndefined();
    if (planning.length === others.length) expect(s.message).toBe('version compare off');
    else expect(s.message).toMatch(/^version compare off; skipped: 2\.\d rejects it \(|^version compare off$/);
  });

  it('d writes the diagram of the current step: one mark per row event up to the end', async () => {
    const s0 = await start();
    if (s0 === undefined) return;
    const s = keys(s0, 'G');
    const message = await writeDiagram(s, dir);
    expect(message).toMatch(/^diagram of step \d+ written to /);
    const svg = readFileSync(message.replace(/^.* written to /, ''), 'utf8');
    const rows = s.session.timeline.events.filter((e) => e.kind === 'row').length;
    expect([...svg.matchAll(/<g class="row[ "]/g)].length).toBe(rows);
  });

  it('P practises to the score, answering "nothing" everywhere, at both sizes', async () => {
    const s0 = await start();
    if (s0 === undefined) return;
    let s = keys(s0, 'P');
    expect(s.practice).toBeDefined();
    for (let guard = 0; s.mode.k !== 'score' && guard < 3 * (s.session.timeline.length + 2); guard++) {
      s = s.mode.k === 'answer' ? keys(s, ...'nothing', 'enter') : keys(s, 'n');
      for (const [c, r] of [[80, 24], [200, 60]] as const) expect(screenText(s, c, r)).toHaveLength(r - 1);
    }
    expect(s.mode.k).toBe('score');
    expect(screenText(s, 80, 24).join('\n')).toContain('practice score');
  });
});
