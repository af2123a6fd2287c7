/** Dev entry until the CLI calls startApp: `tsx src/ui/dev.tsx [--watch] [--mono] [FILE|DIR]`. */
import { startApp } from './start.js';

const args = process.argv.slice(2);
const code = await startApp({
  paths: args.filter((a) => !a.startsWith('--')),
  watch: args.includes('--watch'),
  mono: args.includes('--mono'),
});
process.exit(code);
