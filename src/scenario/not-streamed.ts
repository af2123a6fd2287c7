/**
 * Thrown by a streaming load (load-stream.ts) when it cannot promise the list the full load
 * would give: a problem to report, a line outside the fast reader's subset, or an arrival order
 * that needs every record first (a file not sorted by the replay's time). The caller then loads
 * the file the full way, which reports the problems with every position, as it always has.
 */
export class NotStreamed extends Error {
  constructor(readonly reason: string) {
    super(`not streamed: ${reason}`);
    this.name = 'NotStreamed';
  }
}
