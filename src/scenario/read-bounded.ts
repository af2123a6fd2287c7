/**
 * Reading a file whose size `stat` cannot tell: a device, a pipe or a FIFO (`joinstep run
 * <(generate-scenario)`, or by mistake `/dev/zero`). `stat` gives such a file size 0, so the
 * size limit checked before a read would pass it, and a read to its end might never end. It is
 * read in chunks instead, and the read stops once it has more than `max` bytes (the caller then
 * reports the file as too big) or at the first NUL byte (no scenario or data file holds one: the
 * caller reports it as not text), so neither memory nor time is spent on the rest.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK = 1 << 20;

/** Whether a file's stat (which follows links) is something other than a regular file or a directory. */
export function isStreamLike(s: { isFile(): boolean; isDirectory(): boolean }): boolean {
  return !s.isFile() && !s.isDirectory();
}

/** At most `max + 1` bytes of the file, fewer when it ends or has a NUL byte first. */
export function readAtMost(path: string, max: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= max) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, max + 1 - total));
      const got = readSync(fd, chunk, 0, chunk.length, null);
      if (got === 0) break;
      chunks.push(chunk.subarray(0, got));
      total += got;
      if (chunk.subarray(0, got).includes(0)) break;
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}
