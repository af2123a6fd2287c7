/**
 * Prints the agreement table rows for docs/flink-harness.md from real runs:
 *   npx tsx test/flink/print-agreement-table.ts scenarios/*.yaml test/flink-cases/*.yaml
 * (needs Java 17 and Maven; builds the harness on first use). The median time per file on
 * Flink 2.3 goes to stderr.
 */
import { relative } from 'node:path';
import { HarnessPool } from '../../src/flink/harness-pool.js';
import { formatRow, tableRow } from './agreement-table.js';

const pool = new HarnessPool();
const times: number[] = [];
try {
  for (const file of process.argv.slice(2)) {
    const started = Date.now();
    const row = await tableRow(pool, file, relative(process.cwd(), file));
    times.push(Date.now() - started);
    process.stdout.write(`${formatRow(row)}\n`);
  }
} finally {
  await pool.closeAll();
}
times.sort((a, b) => a - b);
process.stderr.write(`${times.length} files, median ${times[Math.floor(times.length / 2)] ?? 0} ms per file (both versions, JVMs already started)\n`);
