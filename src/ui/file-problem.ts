/**
 * How the app leaves when the scenario file it opened turns out to be unusable after the app
 * is on screen: a big file is read as its run goes (load-and-run.ts), so a problem half-way
 * through it is found with the app open. Before the app existed for that file, such a file never
 * opened it: the loader's messages were printed and the exit status was 2. Leaving the same way
 * (rather than showing the first line in the status bar, as a failed `r` reload does, where the
 * old session stays usable) keeps every `FILE:LINE:COL: error` with its hint in front of the user.
 */
export class FileProblemExit extends Error {
  constructor(readonly diagnostics: readonly string[]) {
    super(diagnostics[0]?.split('\n')[0] ?? 'the scenario file has problems');
    this.name = 'FileProblemExit';
  }
}
