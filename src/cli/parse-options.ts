/** Node's `util.parseArgs` with its errors turned into a one-line message instead of a throw. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export type ParsedOptions =
  | { readonly ok: true; readonly values: Record<string, string | boolean | undefined>; readonly positionals: string[] }
  | { readonly ok: false; readonly message: string };

export function parseOptions(argv: readonly string[], options: OptionSpec): ParsedOptions {
  try {
    const parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
    return { ok: true, values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? 'bad arguments') : 'bad arguments';
    return { ok: false, message: dashValue(message, argv) ?? message.replace(/^TypeError \[[A-Z_]+\]: /, '') };
  }
}

/**
 * `--step -1`: Node calls the option's argument "ambiguous" (it starts with a dash, so it could be
 * an option). Said instead as what to write: the value joined with `=`.
 */
function dashValue(message: string, argv: readonly string[]): string | undefined {
  const m = /^Option '(--[\w-]+)' argument is ambiguous/.exec(message);
  if (m === null) return undefined;
  const option = m[1] as string;
  const value = argv[argv.indexOf(option) + 1];
  if (value === undefined) return undefined;
  return `${option} takes a value, and ${value} looks like an option: write ${option}=${value}`;
}
