/**
 * Writes an SVG without risking a user's file: a path that holds something other than an SVG
 * (a scenario, say) is refused, and the file is replaced atomically (temp file + rename), so a
 * failed write leaves the old one whole. Through a symbolic link, its target is replaced and
 * the link stays a link.
 */
import { readFile, realpath, rename, writeFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export type WriteResult = { readonly ok: true } | { readonly ok: false; readonly message: string; readonly hint?: string };

export async function writeSvgFile(path: string, svg: string): Promise<WriteResult> {
  const existing = await readFile(path, 'utf8').then(
    (t) => t,
    (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : e),
  );
  if (existing instanceof Error) {
    const code = (existing as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') return { ok: false, message: `${path} is a directory`, hint: 'name a file, e.g. diagram.svg' };
    return { ok: false, message: `cannot write ${path} (${code ?? 'unknown reason'})` };
  }
  if (existing !== undefined && !/^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(existing)) {
    return { ok: false, message: `${path} exists and is not an SVG: not overwriting it`, hint: 'choose another --svg path' };
  }
  const target = existing === undefined ? path : await realpath(path).catch(() => path);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, svg, 'utf8');
    await rename(temp, target);
    return { ok: true };
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, message: `cannot write ${path} (${code ?? String(error)})`, hint: code === 'ENOENT' ? 'does its folder exist?' : undefined } as WriteResult;
  }
}
