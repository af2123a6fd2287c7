/**
 * Thrown by a streaming load that reads only the head of its big JSON Lines data files
 * (LoadOptions.dataHead) where a file read in part runs out of records: the events it gave so
 * far are the first ones of the whole stream, and the next one would need the rest of the file.
 * Only a thread that runs the first events while another thread reads the whole file asks for
 * this (cli/read-thread.ts); it then takes the other thread's events from there.
 */
export class DataCut extends Error {
  constructor() {
    super('a data file was read only in part');
    this.name = 'DataCut';
  }
}
