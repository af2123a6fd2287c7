import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editScenarioText, saveScenarioFile } from '../../src/scenario/edit.js';
import { nodeSaveFs, saveFailureText } from '../../src/scenario/save-file.js';
import type { SaveFs } from '../../src/scenario/save-file.js';

const OLD = 'name: x\nevents:\n  - { note: a }   # kept\n';

function fresh(): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'joinstep-save-'));
  const path = join(dir, 'scenario.yaml');
  writeFileSync(path, OLD);
  return { dir, path };
}

function edit(text: string): string {
  const r = editScenarioText(text, { kind: 'insert', index: 1, event: { note: 'b' } });
  if (!r.ok) throw new Error(r.message);
  return r.text;
}

describe('saveScenarioFile', () => {
  it('replaces the file, keeps the previous content as .bak and leaves no temporary file', async () => {
    const { dir, path } = fresh();
    const next = edit(OLD);
    await saveScenarioFile(path, next);
    expect(readFileSync(path, 'utf8')).toBe(next);
    expect(readFileSync(`${path}.bak`, 'utf8')).toBe(OLD);
    expect(readdirSync(dir).sort()).toEqual(['scenario.yaml', 'scenario.yaml.bak']);
  });

  it('saves through a symbolic link into the file it points to, and the link stays a link', async () => {
    const { dir, path } = fresh();
    mkdirSync(join(dir, 'shared'));
    const real = join(dir, 'shared', 'real.yaml');
    writeFileSync(real, OLD);
    const link = join(dir, 'link.yaml');
    symlinkSync(real, link);
    const next = edit(OLD);
    await saveScenarioFile(link, next);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(real);
    expect(readFileSync(real, 'utf8')).toBe(next);
    expect(readFileSync(`${link}.bak`, 'utf8')).toBe(OLD);
    expect(readdirSync(join(dir, 'shared'))).toEqual(['real.yaml']);
    expect(readFileSync(path, 'utf8')).toBe(OLD);
  });

  it('keeps the file mode', async () => {
    const { path } = fresh();
    chmodSync(path, 0o600);
    await saveScenarioFile(path, edit(OLD));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a file nobody may write, and leaves it and its folder as they were', async () => {
    const { dir, path } = fresh();
    chmodSync(path, 0o444);
    await expect(saveScenarioFile(path, edit(OLD))).rejects.toThrow(`${path} is read-only: not saved`);
    expect(readFileSync(path, 'utf8')).toBe(OLD);
    expect(statSync(path).mode & 0o777).toBe(0o444);
    expect(readdirSync(dir)).toEqual(['scenario.yaml']);
  });

  it('creates a new file without a .bak', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'joinstep-save-'));
    const path = join(dir, 'new.yaml');
    await saveScenarioFile(path, OLD);
    expect(readFileSync(path, 'utf8')).toBe(OLD);
    expect(existsSync(`${path}.bak`)).toBe(false);
  });

  it('leaves the original intact when the rename fails after the temporary file was written', async () => {
    const { dir, path } = fresh();
    const written: string[] = [];
    const failing: SaveFs = {
      ...nodeSaveFs,
      async writeSynced(p, data, mode) {
        await nodeSaveFs.writeSynced(p, data, mode);
        written.push(readFileSync(p, 'utf8'));
      },
      rename: async () => {
        throw Object.assign(new Error('simulated crash before rename'), { code: 'EIO' });
      },
    };
    const next = edit(OLD);
    await expect(saveScenarioFile(path, next, failing)).rejects.toThrow('simulated crash before rename');
    // The new text did reach the temporary file: the crash really was between write and rename.
    expect(written).toEqual([next]);
    expect(readFileSync(path, 'utf8')).toBe(OLD);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('survives a crash that also leaves the temporary file behind, and saves fine afterwards', async () => {
    const { dir, path } = fresh();
    // A process that dies cannot clean up: neither the rename nor the unlink happens.
    const crashed: SaveFs = {
      ...nodeSaveFs,
      rename: async () => {
        throw new Error('killed');
      },
      unlink: async () => undefined,
    };
    await expect(saveScenarioFile(path, edit(OLD), crashed)).rejects.toThrow('killed');
    expect(readFileSync(path, 'utf8')).toBe(OLD);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toHaveLength(1);
    const next = edit(OLD);
    await saveScenarioFile(path, next);
    expect(readFileSync(path, 'utf8')).toBe(next);
  });
});

describe('saveFailureText', () => {
  /** A save whose temporary file cannot be written, failing as Node fails (its message names the temporary path). */
  async function failedSave(code: string): Promise<{ path: string; text: string }> {
    const { path } = fresh();
    const failing: SaveFs = {
      ...nodeSaveFs,
      writeSynced: async (p) => {
        throw Object.assign(new Error(`${code}: some system words, open '${p}'`), { code });
      },
    };
    const error = await saveScenarioFile(path, edit(OLD), failing).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeDefined();
    expect(readFileSync(path, 'utf8')).toBe(OLD);
    return { path, text: saveFailureText(path, error) };
  }

  it('names the scenario and its folder, never the temporary file nor the system call, and says the file is unchanged', async () => {
    const { path, text } = await failedSave('EACCES');
    expect(text).toBe(`${path} not saved: permission denied in ${join(path, '..')}; the file is unchanged`);
    expect(text).not.toContain('.tmp');
    expect(text).not.toContain('open');
  });

  it('says a full disk, a read-only file system and an unknown code in words', async () => {
    expect((await failedSave('ENOSPC')).text).toMatch(/ not saved: the disk is full; the file is unchanged$/);
    expect((await failedSave('EROFS')).text).toMatch(/ not saved: the file system is read-only; the file is unchanged$/);
    expect((await failedSave('EXDEV')).text).toMatch(/ not saved: the file system refused it \(EXDEV\); the file is unchanged$/);
  });

  it('a scenario in a folder that no longer exists', async () => {
    const { dir } = fresh();
    const path = join(dir, 'gone', 'scenario.yaml');
    const error = await saveScenarioFile(path, OLD).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(saveFailureText(path, error)).toBe(`${path} not saved: ${join(dir, 'gone')} no longer exists; the file is unchanged`);
  });

  it('keeps the read-only refusal as it is worded', async () => {
    const { path } = fresh();
    chmodSync(path, 0o444);
    const error = await saveScenarioFile(path, edit(OLD)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(saveFailureText(path, error)).toBe(`${path} is read-only: not saved (make it writable to save, or save the edit by hand)`);
  });
});
