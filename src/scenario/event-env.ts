/**
 * What event checks need to know about the SQL, and the checks shared by several event kinds:
 * the table an event names and the partition index it gives.
 */
import { isScalar } from 'yaml';
import type { Node } from 'yaml';
import type { TableDef } from '../planner/plan.js';
import type { ValueContext } from '../values/literal.js';
import { describeNode, readScalarText, report } from './context.js';
import type { Entry, LoadContext } from './context.js';
import { suggestionHint } from './did-you-mean.js';
import { printable } from '../values/printable.js';
import { MAX_PARTITIONS } from './top-level.js';

export interface EventEnv {
  /** Declared tables; undefined when the SQL did not get far enough to know them. */
  readonly tables?: readonly TableDef[];
  /** Source tables the query reads; undefined when there is no plan. */
  readonly inputTables?: ReadonlySet<string>;
  /** Tables the queries write (INSERT INTO) and none reads. */
  readonly sinkTables: ReadonlySet<string>;
  /** How many queries read the tables (several with `queries:`), for the wording of hints. */
  readonly queryCount: number;
  readonly viewNames: readonly string[];
  readonly viewSources: Readonly<Record<string, string>>;
  readonly partitions: Readonly<Record<string, number>>;
  readonly valueCtx: ValueContext;
  /** The SQL text, to quote a computed column's definition. */
  readonly sql: string;
  readonly dateMs: number;
}

/** The table an event names, if it exists and may take this kind of event; else a report and undefined. */
export function eventTable(ctx: LoadContext, env: EventEnv, e: Entry, kind: string): TableDef | undefined {
  const name = readScalarText(e.value);
  if (name === undefined) {
    report(ctx, e.valueWhere, `\`${e.key}\` must name a table, not ${describeNode(e.value)}`);
    return undefined;
  }
  if (env.tables === undefined) return undefined;
  const table = env.tables.find((t) => t.name === name);
  if (table === undefined) {
    if (env.viewNames.includes(name)) {
      const source = env.viewSources[name];
      const hint = source === undefined ? 'send it to a table the view reads from' : `send it to \`${source}\`, the table the view reads from`;
      report(ctx, e.valueWhere, `\`${name}\` is a view; events go to source tables`, hint);
      return undefined;
    }
    const names = env.tables.map((t) => t.name);
    report(ctx, e.valueWhere, `unknown table \`${printable(name)}\``, suggestionHint(name, names, 'tables are', 'the scenario declares no tables'));
    return undefined;
  }
  if (env.sinkTables.has(name)) {
    report(ctx, e.valueWhere, `\`${name}\` is the sink of the INSERT INTO; events go to the tables the query reads`, readsHint(env));
    return undefined;
  }
  if (env.inputTables !== undefined && !env.inputTables.has(name)) {
    const what = env.queryCount > 1 ? 'no query reads' : 'the query does not read';
    report(ctx, e.valueWhere, `${what} table \`${name}\`, so a ${kind} event for it would change nothing`, readsHint(env));
    return undefined;
  }
  return table;
}

function readsHint(env: EventEnv): string | undefined {
  const who = env.queryCount > 1 ? 'the queries read' : 'the query reads';
  return env.inputTables === undefined ? undefined : `${who} ${[...env.inputTables].map((t) => `\`${t}\``).join(' and ')}`;
}

/** A `partition:` value: an integer below the table's partition count. */
export function readPartition(ctx: LoadContext, env: EventEnv, e: Entry, table: string | undefined): number | undefined {
  const v = isScalar(e.value) ? e.value.value : undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    report(ctx, e.valueWhere, `partition must be a partition index (0, 1, ...), not ${describeNode(e.value)}`, 'partitions are numbered from 0: `partition: 0` is the first');
    return undefined;
  }
  if (table === undefined || env.tables === undefined) return v;
  const count = env.partitions[table] ?? 1;
  if (v >= count) {
    const has = count === 1 ? 'has 1 partition (partition 0)' : `has ${count} partitions (0 to ${count - 1})`;
    const hint = v < MAX_PARTITIONS ? `set \`partitions: { ${table}: ${v + 1} }\` at the top level to use more` : `a table has at most ${MAX_PARTITIONS} partitions here: is ${v} the partition's index?`;
    report(ctx, e.valueWhere, `partition ${v} is out of range: table \`${table}\` ${has}`, hint);
    return undefined;
  }
  return v;
}

export function nodeOrNull(e: Entry | undefined): Node | null {
  return e?.value ?? null;
}
