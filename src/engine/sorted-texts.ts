/**
 * A sorted multiset of printed rows kept in chunks (each sorted, at most MAX_CHUNK long, in
 * order), so that one row in or out costs a binary search and a splice of one chunk rather than
 * of the whole result: the result cursor (result.ts) patches it row by row as it moves, and a
 * result of 750k rows is then never sorted in one go (a sort of that size held the app's loop for
 * a third of a second). Order is by UTF-16 code units, as Array.prototype.sort orders strings.
 */

/** A chunk splits in two past this length. */
const MAX_CHUNK = 512;

export class SortedTexts {
  private readonly chunks: string[][] = [];
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** The first chunk whose last text is >= `text` (chunks.length when every text is below it). */
  private chunkFor(text: string): number {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = chunks[mid]!;
      if (c[c.length - 1]! < text) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds `times` copies of `text`. */
  add(text: string, times = 1): void {
    if (times <= 0) return;
    const chunks = this.chunks;
    this.count += times;
    if (chunks.length === 0) {
      chunks.push(new Array<string>(times).fill(text));
      this.split(0);
      return;
    }
    // Past every chunk's last text: it goes at the end of the last chunk.
    const c = Math.min(this.chunkFor(text), chunks.length - 1);
    const chunk = chunks[c]!;
    const at = lowerBound(chunk, text);
    if (times === 1) chunk.splice(at, 0, text);
    else chunk.splice(at, 0, ...new Array<string>(times).fill(text));
    if (chunk.length > MAX_CHUNK) this.split(c);
  }

  /** Removes up to `times` copies of `text` (all of them are there when the caller's counts are right). */
  remove(text: string, times = 1): void {
    const chunks = this.chunks;
    let c = this.chunkFor(text);
    while (times > 0 && c < chunks.length) {
      const chunk = chunks[c]!;
      const at = lowerBound(chunk, text);
      let end = at;
      while (end < chunk.length && end - at < times && chunk[end] === text) end++;
      if (end === at) return;
      chunk.splice(at, end - at);
      times -= end - at;
      this.count -= end - at;
      // An emptied chunk goes; copies that reached a chunk's end can run on into the next one.
      if (chunk.length === 0) chunks.splice(c, 1);
      else if (at < chunk.length) return;
      else c++;
    }
  }

  private split(c: number): void {
    const chunk = this.chunks[c]!;
    if (chunk.length <= MAX_CHUNK) return;
    const parts: string[][] = [];
    for (let i = 0; i < chunk.length; i += MAX_CHUNK / 2) parts.push(chunk.slice(i, i + MAX_CHUNK / 2));
    this.chunks.splice(c, 1, ...parts);
  }

  /** Texts [from, to) in order, clamped as Array.slice is. */
  slice(from: number, to: number): string[] {
    const lo = Math.max(0, from);
    const hi = Math.min(this.count, to);
    const out: string[] = [];
    let base = 0;
    for (const chunk of this.chunks) {
      if (out.length >= hi - lo) break;
      const end = base + chunk.length;
      if (end > lo) for (let i = Math.max(lo, base); i < Math.min(hi, end); i++) out.push(chunk[i - base]!);
      base = end;
    }
    return out;
  }

  /** Every text, in order. */
  toArray(): string[] {
    return this.chunks.flat();
  }
}

/** First index whose text is >= `text`. */
function lowerBound(sorted: readonly string[], text: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < text) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
