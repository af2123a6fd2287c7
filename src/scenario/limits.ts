/**
 * Sizes joinstep takes from a scenario, each with a clear error past it instead of a crash or a
 * screenful of one value. Nesting limits live beside what they protect: YAML in yaml-depth.ts,
 * SQL in src/sql/depth.ts.
 */

/**
 * A scenario file may be up to 256 MiB. A JavaScript string holds at most 2^29 − 24 characters
 * (about 512 MiB of ASCII); reading a bigger file would fail inside the runtime. A million
 * one-line events are about 85 MB, so the limit leaves room for three times that.
 */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

/**
 * One value may be up to 1 MiB of text: Kafka's default `max.message.bytes` for a whole record,
 * and far more than a row needs to be told apart in a join. Messages quote values, and the app
 * draws them on every frame: a value of many megabytes would fill the screen or stall it.
 */
export const MAX_VALUE_CHARS = 1024 * 1024;

const mib = (bytes: number): string => `${Math.ceil(bytes / (1024 * 1024))} MiB`;

/**
 * The problem with a file of `bytes` bytes, if it is too big. `read`: the bytes are what a read
 * that stops past the limit got (a device or a pipe, whose size is not known), not its size.
 */
export function fileSizeProblem(bytes: number, read = false): { message: string; hint: string } | undefined {
  if (bytes <= MAX_FILE_BYTES) return undefined;
  const limit = `joinstep's limit of ${MAX_FILE_BYTES.toLocaleString('en-US')} bytes (${mib(MAX_FILE_BYTES)}) for a scenario file`;
  return {
    message: read ? `the file goes on past ${limit}` : `the file is ${bytes.toLocaleString('en-US')} bytes (${mib(bytes)}), over ${limit}`,
    hint: 'split the arrival script over several scenarios, or keep the events that tell the story',
  };
}

/** The problem with a value of `chars` characters, if it is too long. */
export function valueSizeProblem(chars: number): { message: string; hint: string } | undefined {
  if (chars <= MAX_VALUE_CHARS) return undefined;
  return {
    message: `this value is ${chars.toLocaleString('en-US')} characters long, over joinstep's limit of ${MAX_VALUE_CHARS.toLocaleString('en-US')} (1 MiB) for one value`,
    hint: 'shorten it: a row needs only enough of a value to be told apart in the join',
  };
}
