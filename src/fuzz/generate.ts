/**
 * The seeded scenario generator: one random, valid scenario per seed, for a join family (random
 * unless given) and a flink-version (random unless given). Alphabets are small on purpose (keys
 * a, b, c and null; values 0-3; times within half a minute), so that keys collide, rows match
 * several others, watermarks pass rows and state expires between two updates.
 */
import { Rng } from './rng.js';
import {
  FAMILIES, FLINK_VERSIONS, FUZZ_DATE_MS,
  type ColumnSpec, type Family, type FuzzCase, type FuzzEvent, type FuzzFlinkVersion, type RowValue, type SelectItem, type SinkSpec, type TableSpec,
} from './model.js';

export interface GenerateOptions {
  readonly family?: Family;
  readonly flinkVersion?: FuzzFlinkVersion;
  /** The versions a random flink-version is drawn from (default: all of FLINK_VERSIONS). */
  readonly versions?: readonly FuzzFlinkVersion[];
}

type Source = 'append' | 'upsert' | 'cdc' | 'cdc-nopk';
type TimeKind = 'rowtime' | 'proctime' | 'none';

interface TableDraft {
  readonly spec: TableSpec;
  readonly source: Source | 'lookup';
  /** Columns that make a row's identity for changelog events (the primary key, or the whole row). */
  readonly key: readonly string[];
}

const KEYS: readonly RowValue[] = ['a', 'b', 'c'];
/** Kafka metadata payload columns (the key's own type, or a wider one the planner casts to). */
const METADATA: readonly { readonly name: string; readonly type: string; readonly key: string; readonly virtual: boolean }[] = [
  { name: 'part', type: 'INT', key: 'partition', virtual: true },
  { name: 'off', type: 'BIGINT', key: 'offset', virtual: true },
  { name: 'kts', type: 'TIMESTAMP_LTZ(3)', key: 'timestamp', virtual: false },
  { name: 'tp', type: 'STRING', key: 'topic', virtual: true },
];
const IDS: readonly RowValue[] = ['1', '2', '3', '4'];

export function generateCase(seed: number, opts: GenerateOptions = {}): FuzzCase {
  const rng = new Rng(seed);
  // Both draws happen even when the options fix them, so that a scenario replays with the family
  // and version its header names (--seed S --family F --flink-version V gives the same file).
  const family = pickOr(rng, FAMILIES, opts.family);
  const flinkVersion = pickOr(rng, opts.versions ?? FLINK_VERSIONS, opts.flinkVersion);
  const g = new Gen(rng, seed, family, flinkVersion);
  return g.build();
}

function pickOr<T>(rng: Rng, items: readonly T[], given: T | undefined): T {
  const drawn = rng.pick(items);
  return given ?? drawn;
}

class Gen {
  private readonly config: Record<string, string> = {};
  private readonly tables: TableDraft[] = [];
  private readonly views: string[] = [];
  private select: SelectItem[] = [];
  private from = '';
  private hint: string | undefined;
  private shape = '';
  private joinKind: 'inner' | 'left' | 'right' | 'full' = 'inner';
  /** The left side's primary key column, when it has one (a sink may be keyed by it). */
  private leftId: string | undefined;
  private timeKind: TimeKind = 'none';
  /** The type of every table's `v` column (numbers compare across the sides). */
  private readonly valueType: string;
  /** Event time as TIMESTAMP(3) on a `ts` column, or as TIMESTAMP_LTZ(3) computed from epoch millis. */
  private readonly ltz: boolean;
  /**
   * Event time from the Kafka record's timestamp (`ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'`)
   * on Kafka tables (kafka and upsert-kafka): rows mostly give it; a row that does not is stamped with its processing time.
   */
  private readonly kafkaTime: boolean;

  constructor(
    private readonly rng: Rng,
    private readonly seed: number,
    private readonly family: Family,
    private readonly flinkVersion: FuzzFlinkVersion,
  ) {
    this.valueType = rng.pick(['INT', 'INT', 'INT', 'BIGINT', 'DECIMAL(5, 2)', 'DOUBLE']);
    this.ltz = rng.chance(0.2);
    this.kafkaTime = !this.ltz && rng.chance(0.15);
  }

  build(): FuzzCase {
    const r = this.rng;
    switch (this.family) {
      case 'regular': this.regular(); break;
      case 'semi-anti': this.semiAnti(); break;
      case 'interval': this.interval(); break;
      case 'temporal': this.temporal(); break;
      case 'lookup': this.lookup(); break;
    }
    if (r.chance(this.ltz || this.kafkaTime || this.tables.some((t) => t.spec.columns.some((c) => c.metadata?.key === 'timestamp')) ? 0.5 : 0.1)) {
      this.config['table.local-time-zone'] = r.pick(['Asia/Kolkata', 'America/New_York', 'GMT-08:00', 'Europe/Berlin', 'UTC']);
    }
    // TRY_RESOLVE outside keyed lookups: the planner's non-deterministic-update check over every plan
    if (this.family !== 'lookup' && r.chance(0.12)) this.config['table.optimizer.non-deterministic-update.strategy'] = 'TRY_RESOLVE';
    if (r.chance(0.3)) this.config['table.exec.state.ttl'] = r.pick(['5 s', '10 s', '20 s']);
    if (this.timeKind === 'rowtime' && r.chance(0.25)) this.config['table.exec.source.idle-timeout'] = r.pick(['5 s', '10 s']);
    const watermarks = this.timeKind === 'rowtime' && r.chance(0.5) ? 'manual' : 'auto';
    const partitions: Record<string, number> = {};
    for (const t of this.tables) if (t.source !== 'lookup') partitions[t.spec.name] = r.chance(0.5) ? 1 : r.int(2, 4);
    const sink = r.chance(0.3) ? this.sink() : undefined;
    const events = this.events(partitions, watermarks);
    return {
      seed: this.seed, family: this.family, shape: this.shape, flinkVersion: this.flinkVersion, watermarks, partitions,
      config: { ...this.config }, tables: this.tables.map((t) => t.spec), views: [...this.views],
      ...(this.hint !== undefined ? { hint: this.hint } : {}),
      select: this.select, from: this.from, ...(sink !== undefined ? { sink } : {}), events,
    };
  }

  // ---- tables --------------------------------------------------------------------------------

  private table(name: string, source: Source, time: TimeKind, keyed: 'id' | 'k' = 'id'): TableDraft {
    const r = this.rng;
    const pk = source === 'append' || source === 'cdc-nopk' ? undefined : keyed;
    const cols: ColumnSpec[] = [];
    if (keyed === 'id' || pk === undefined) cols.push({ name: 'id', type: pk === 'id' ? 'STRING NOT NULL' : 'STRING' });
    cols.push({ name: 'k', type: pk === 'k' ? 'STRING NOT NULL' : 'STRING' });
    cols.push({ name: 'v', type: this.valueType });
    cols.push({ name: 'w', type: 'STRING', droppable: true });
    // every source here is a Kafka one (kafka or upsert-kafka): each may read the record's metadata
    if (time === 'rowtime' && this.kafkaTime) cols.push({ name: 'ts', type: 'TIMESTAMP_LTZ(3)', metadata: { key: 'timestamp', virtual: false } });
    else if (time === 'rowtime' && this.ltz) cols.push({ name: 'ts_ms', type: 'BIGINT' }, { name: 'ts', type: 'TO_TIMESTAMP_LTZ(ts_ms, 3)', computed: true });
    else if (time === 'rowtime') cols.push({ name: 'ts', type: 'TIMESTAMP(3)' });
    if (time === 'proctime') cols.push({ name: 'proc', type: 'PROCTIME()', computed: true });
    if (r.chance(0.2)) {
      const offered = METADATA.filter((m) => m.key !== 'timestamp' || !cols.some((c) => c.metadata?.key === 'timestamp'));
      for (const m of r.chance(0.3) ? [r.pick(offered), r.pick(offered)] : [r.pick(offered)]) {
        if (!cols.some((c) => c.name === m.name)) cols.push({ name: m.name, type: m.type, metadata: { key: m.key, virtual: m.virtual }, droppable: true });
      }
    }
    const options: [string, string][] = source === 'upsert'
      ? [['connector', 'upsert-kafka'], ['topic', name], ['key.format', 'json'], ['value.format', 'json']]
      : [['connector', 'kafka'], ['topic', name], ['format', source === 'append' ? 'json' : 'debezium-json']];
    const spec: TableSpec = {
      name, columns: cols, options,
      ...(pk !== undefined ? { primaryKey: [pk] } : {}),
      ...(time === 'rowtime' ? { watermark: `ts AS ts - INTERVAL '${r.int(0, 2)}' SECOND` } : {}),
    };
    const draft: TableDraft = { spec, source, key: pk !== undefined ? [pk] : cols.filter((c) => !c.computed).map((c) => c.name) };
    this.tables.push(draft);
    return draft;
  }

  private lookupTable(name: string): TableDraft {
    const r = this.rng;
    const options: [string, string][] = [['connector', 'jdbc'], ['url', 'jdbc:x'], ['table-name', name]];
    if (r.chance(0.12)) {
      // the JDBC connector's legacy options: a partial cache only when both are set and positive
      if (r.chance(0.85)) options.push(['lookup.cache.max-rows', String(r.int(0, 3))]);
      if (r.chance(0.85)) options.push(['lookup.cache.ttl', `${r.int(1, 10)}s`]);
      if (r.chance(0.3)) options.push(['lookup.cache.caching-missing-key', 'false']);
    } else if (r.chance(0.6)) {
      options.push(['lookup.cache', 'PARTIAL']);
      const expiry = r.pick(['expire-after-write', 'expire-after-access', 'max-rows', 'both'] as const);
      if (expiry === 'expire-after-write' || expiry === 'both') options.push(['lookup.partial-cache.expire-after-write', `${r.int(1, 10)}s`]);
      if (expiry === 'expire-after-access') options.push(['lookup.partial-cache.expire-after-access', `${r.int(1, 10)}s`]);
      if (expiry === 'max-rows' || expiry === 'both') options.push(['lookup.partial-cache.max-rows', String(r.int(1, 3))]);
      if (r.chance(0.3)) options.push(['lookup.partial-cache.cache-missing-key', 'false']);
    }
    const spec: TableSpec = {
      name, options, primaryKey: ['k'],
      columns: [{ name: 'k', type: 'STRING NOT NULL' }, { name: 'v', type: this.valueType }, { name: 'w', type: 'STRING', droppable: true }],
    };
    const draft: TableDraft = { spec, source: 'lookup', key: ['k'] };
    this.tables.push(draft);
    return draft;
  }

  private source(): Source {
    return this.rng.pick(['append', 'append', 'upsert', 'cdc', 'cdc-nopk'] as const);
  }

  private item(alias: string, table: string, col: string, type: string, tableName = table): SelectItem {
    return { expr: `${alias}.${col}`, alias: `${alias}_${col}`, type, reads: [`${tableName}.${col}`] };
  }

  /** The usual SELECT list over the left (and right) side: ids, keys, values, and a droppable column each. */
  private items(sides: readonly { alias: string; table: TableDraft }[]): SelectItem[] {
    const out: SelectItem[] = [];
    for (const { alias, table } of sides) {
      for (const c of table.spec.columns) {
        if (c.computed && c.name !== 'ts') continue;
        if (c.name === 'ts_ms') continue;
        if (c.name === 'k' && out.some((i) => i.expr.endsWith('.k'))) continue;
        const type = c.computed ? 'TIMESTAMP_LTZ(3)' : c.type.replace(' NOT NULL', '');
        out.push(this.item(alias, alias, c.name, type, table.spec.name));
      }
    }
    return this.spice(out, sides.map((x) => x.alias));
  }

  /** Expressions over the plain columns, so that projection code paths run too (never on a sink key). */
  private spice(items: SelectItem[], aliases: readonly string[]): SelectItem[] {
    const r = this.rng;
    const out = [...items];
    const [a, b] = [aliases[0] ?? 'l', aliases[1]];
    const table = (alias: string) => (alias === 'l' || alias === 'lv' ? 'l' : 'r');
    if (r.chance(0.25)) out.push({ expr: `COALESCE(${b ?? a}.v, ${a}.v)`, alias: 'cv', type: this.valueType, reads: [`${table(b ?? a)}.v`, `${table(a)}.v`] });
    if (r.chance(0.2) && b !== undefined) out.push({ expr: `${a}.v + ${b}.v`, alias: 'sv', type: this.valueType === 'INT' ? 'INT' : this.valueType === 'DOUBLE' ? 'DOUBLE' : this.valueType === 'BIGINT' ? 'BIGINT' : 'DECIMAL(6, 2)', reads: [`${table(a)}.v`, `${table(b)}.v`] });
    if (r.chance(0.2)) out.push({ expr: `CASE WHEN ${a}.v > 1 THEN 'big' ELSE 'small' END`, alias: 'size', type: 'STRING', reads: [`${table(a)}.v`] });
    if (r.chance(0.15)) out.push({ expr: `UPPER(${a}.k)`, alias: 'uk', type: 'STRING', reads: [`${table(a)}.k`] });
    if (r.chance(0.15)) out.push({ expr: `CAST(${a}.v AS STRING)`, alias: 'vs', type: 'STRING', reads: [`${table(a)}.v`] });
    return out;
  }

  /** The equi-join condition: one key, sometimes two, sometimes null-safe. */
  private keys(l: string, r: string, nullSafeOk: boolean): string {
    const rng = this.rng;
    const first = nullSafeOk && rng.chance(0.12) ? `${l}.k IS NOT DISTINCT FROM ${r}.k` : `${l}.k = ${r}.k`;
    return rng.chance(0.12) ? `${first} AND ${l}.v = ${r}.v` : first;
  }

  private residual(l: string, r: string): string {
    if (!this.rng.chance(0.35)) return '';
    return ` AND ${l}.v ${this.rng.pick(['<', '<=', '<>', '>'])} ${r}.v`;
  }

  // ---- families ------------------------------------------------------------------------------

  /**
   * Regular and semi / anti joins over tables with event time now and then: the join forwards the
   * inputs' watermarks, its output has no time attribute, and ON CONFLICT NOTHING / ERROR need them.
   */
  private maybeRowtime(): TimeKind {
    this.timeKind = this.rng.chance(0.2) ? 'rowtime' : 'none';
    return this.timeKind;
  }

  private regular(): void {
    const r = this.rng;
    const time = this.maybeRowtime();
    const lt = this.table('l', this.source(), time, r.pick(['id', 'k'] as const));
    const rt = this.table('r', this.source(), time, r.pick(['id', 'k'] as const));
    this.joinKind = r.pick(['inner', 'left', 'right', 'full'] as const);
    this.shape = `regular/${this.joinKind}/${lt.source}-${rt.source}`;
    const join = { inner: 'JOIN', left: 'LEFT JOIN', right: 'RIGHT JOIN', full: 'FULL OUTER JOIN' }[this.joinKind];
    this.from = `FROM l ${join} r ON ${this.keys('l', 'r', true)}${this.residual('l', 'r')}`;
    if (r.chance(0.2)) this.from += ` WHERE ${r.pick([`l.v ${r.pick(['>', '<'])} ${r.int(0, 3)}`, 'r.v IS NULL', `r.w = 'x'`, 'l.k IS NOT NULL'])}`;
    if (r.chance(0.1)) this.config['table.exec.sink.upsert-materialize'] = r.pick(['FORCE', 'NONE']);
    if (r.chance(0.1)) this.config['table.exec.source.cdc-events-duplicate'] = 'true';
    if (r.chance(0.25)) {
      const hints = [r.chance(0.7) ? `'l' = '${r.int(1, 20)}s'` : '', r.chance(0.7) ? `'r' = '${r.int(1, 20)}s'` : ''].filter(Boolean);
      if (hints.length > 0) this.hint = `STATE_TTL(${hints.join(', ')})`;
    }
    this.select = this.items([{ alias: 'l', table: lt }, { alias: 'r', table: rt }]);
    this.leftId = lt.spec.primaryKey?.[0];
  }

  private semiAnti(): void {
    const r = this.rng;
    const time = this.maybeRowtime();
    const lt = this.table('l', this.source(), time, r.pick(['id', 'k'] as const));
    const rt = this.table('r', this.source(), time, r.pick(['id', 'k'] as const));
    const form = r.pick(['IN', 'NOT IN', 'EXISTS', 'NOT EXISTS'] as const);
    this.shape = `semi-anti/${form}/${lt.source}-${rt.source}`;
    if (form === 'IN' || form === 'NOT IN') {
      const filter = r.chance(0.3) ? ` WHERE r.v > ${r.int(0, 2)}` : '';
      this.from = `FROM l WHERE l.k ${form} (SELECT r.k FROM r${filter})`;
    } else {
      this.from = `FROM l WHERE ${form} (SELECT 1 FROM r WHERE r.k = l.k${this.residual('r', 'l')})`;
    }
    this.joinKind = 'inner';
    this.select = this.items([{ alias: 'l', table: lt }]);
    this.leftId = lt.spec.primaryKey?.[0];
  }

  private interval(): void {
    const r = this.rng;
    this.timeKind = r.chance(0.75) ? 'rowtime' : 'proctime';
    const lt = this.table('l', 'append', this.timeKind);
    const rt = this.table('r', 'append', this.timeKind);
    this.joinKind = r.pick(['inner', 'left', 'right', 'full'] as const);
    const t = this.timeKind === 'rowtime' ? 'ts' : 'proc';
    let lower = r.int(-3, 2);
    let upper = r.int(-2, 3);
    const negative = r.chance(0.1);
    if (!negative && lower > upper) [lower, upper] = [upper, lower];
    if (negative && lower <= upper) [lower, upper] = [upper + 1, lower];
    const bound = (s: number) => (s === 0 ? `r.${t}` : `r.${t} ${s < 0 ? '-' : '+'} INTERVAL '${Math.abs(s)}' SECOND`);
    const strict = r.chance(0.3);
    const cond = strict ? `l.${t} > ${bound(lower)} AND l.${t} < ${bound(upper)}` : `l.${t} BETWEEN ${bound(lower)} AND ${bound(upper)}`;
    this.shape = `interval/${this.joinKind}/${this.timeKind}/${strict ? 'strict' : 'inclusive'}${negative ? '/negative' : ''}`;
    const join = { inner: 'JOIN', left: 'LEFT JOIN', right: 'RIGHT JOIN', full: 'FULL OUTER JOIN' }[this.joinKind];
    this.from = `FROM l ${join} r ON ${this.keys('l', 'r', true)} AND ${cond}${this.residual('l', 'r')}`;
    if (this.timeKind === 'rowtime' && r.chance(0.3)) this.config['table.exec.interval-join.min-cleanup-interval'] = r.pick(['0', '1 s', '5 s']);
    this.select = this.items([{ alias: 'l', table: lt }, { alias: 'r', table: rt }]);
  }

  private temporal(): void {
    const r = this.rng;
    this.timeKind = 'rowtime';
    const lt = this.table('l', 'append', 'rowtime');
    // rarer shapes: no key on the versioned side (Flink rejects it), a filter on a versioned changelog
    const versioned = r.chance(0.08) ? r.pick(['append', 'filtered'] as const) : r.pick(['upsert', 'cdc', 'view'] as const);
    this.joinKind = r.pick(['inner', 'left'] as const);
    let rt: TableDraft;
    let rightName = 'r';
    if (versioned === 'view') {
      const base = this.table('r', 'append', 'rowtime');
      const cols = base.spec.columns.map((c) => ({ ...c, droppable: false }));
      rt = { ...base, spec: { ...base.spec, columns: cols } };
      this.tables[this.tables.length - 1] = rt;
      const cols2 = cols.filter((c) => !c.computed || c.name === 'ts').map((c) => c.name).join(', ');
      this.views.push(`CREATE VIEW rv AS SELECT ${cols2} FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts ${r.chance(0.8) ? 'DESC' : 'ASC'}) AS rn FROM r) WHERE rn = 1`);
      rightName = 'rv';
    } else if (versioned === 'filtered') {
      rt = this.table('r', 'upsert', 'rowtime', 'k');
      rt = { ...rt, spec: { ...rt.spec, columns: rt.spec.columns.map((c) => ({ ...c, droppable: false })) } };
      this.tables[this.tables.length - 1] = rt;
      this.views.push('CREATE VIEW rv AS SELECT * FROM r WHERE v > 0');
      rightName = 'rv';
    } else {
      rt = this.table('r', versioned, 'rowtime', 'k');
    }
    this.shape = `temporal/${this.joinKind}/${versioned}`;
    const join = this.joinKind === 'left' ? 'LEFT JOIN' : 'JOIN';
    this.from = `FROM l ${join} ${rightName} FOR SYSTEM_TIME AS OF l.ts AS rr ON l.k = rr.k${this.residual('l', 'rr')}`;
    this.select = this.items([{ alias: 'l', table: lt }, { alias: 'rr', table: rt }]).map((i) =>
      i.reads[0]?.startsWith('r.') || i.reads[0]?.startsWith('rv.') ? { ...i, reads: [`r.${i.reads[0].split('.')[1]}`] } : i);
  }

  private lookup(): void {
    const r = this.rng;
    this.timeKind = 'proctime';
    const keyed = r.chance(0.35);
    const lt = this.table('l', keyed ? r.pick(['upsert', 'cdc'] as const) : 'append', 'proctime');
    const rt = this.lookupTable('r');
    if (keyed) this.config['table.optimizer.non-deterministic-update.strategy'] = 'TRY_RESOLVE';
    this.joinKind = r.chance(0.04) ? 'right' : r.pick(['inner', 'left'] as const);
    this.shape = `lookup/${this.joinKind}/${keyed ? 'keyed' : 'plain'}${rt.spec.options.some(([k]) => k === 'lookup.cache') ? '/cache' : ''}`;
    const pre = this.joinKind === 'left' && r.chance(0.25) ? ` AND l.v > ${r.int(0, 2)}` : '';
    const join = { inner: 'JOIN', left: 'LEFT JOIN', right: 'RIGHT JOIN', full: 'FULL JOIN' }[this.joinKind];
    this.from = `FROM l ${join} r FOR SYSTEM_TIME AS OF l.proc AS rr ON l.k = rr.k${this.residual('l', 'rr')}${pre}`;
    this.select = this.items([{ alias: 'l', table: lt }, { alias: 'rr', table: rt }]).map((i) =>
      i.reads[0]?.startsWith('rr.') ? { ...i, reads: [`r.${i.reads[0].split('.')[1]}`] } : i);
    this.leftId = lt.spec.primaryKey?.[0];
  }

  // ---- sink ----------------------------------------------------------------------------------

  private sink(): SinkSpec {
    const r = this.rng;
    const idItem = this.leftId !== undefined ? this.select.find((i) => i.expr === `l.${this.leftId}`) : undefined;
    const keyed = idItem !== undefined && (this.joinKind === 'inner' || this.joinKind === 'left') && r.chance(0.6);
    const since23 = this.flinkVersion === '2.3' || this.flinkVersion === '2.4';
    const onConflict = keyed && since23 && r.chance(0.6) ? r.pick(['DEDUPLICATE', 'DEDUPLICATE', 'DEDUPLICATE', 'NOTHING', 'ERROR'] as const) : undefined;
    if (keyed) {
      const connector = r.pick(['upsert-kafka', 'upsert-kafka', 'jdbc', 'blackhole'] as const);
      const options: [string, string][] = connector === 'upsert-kafka'
        ? [['connector', 'upsert-kafka'], ['topic', 'snk'], ['key.format', 'json'], ['value.format', 'json']]
        : connector === 'jdbc' ? [['connector', 'jdbc'], ['url', 'jdbc:x'], ['table-name', 'snk']] : [['connector', 'blackhole']];
      return { name: 'snk', primaryKey: [idItem.alias], options, ...(onConflict !== undefined ? { onConflict } : {}) };
    }
    const connector = r.pick(['print', 'blackhole', 'kafka'] as const);
    return { name: 'snk', options: connector === 'kafka' ? [['connector', 'kafka'], ['topic', 'snk'], ['format', 'json']] : [['connector', connector]] };
  }

  // ---- events --------------------------------------------------------------------------------

  private events(partitions: Readonly<Record<string, number>>, watermarks: 'auto' | 'manual'): FuzzEvent[] {
    const r = this.rng;
    const n = r.int(2, 22);
    const out: FuzzEvent[] = [];
    const live = new Map<string, Record<string, RowValue>[]>();
    let clock = FUZZ_DATE_MS;
    const sources = this.tables.filter((t) => t.source !== 'lookup');
    const lookupTable = this.tables.find((t) => t.source === 'lookup');
    const procDriven = this.timeKind === 'proctime' || this.config['table.exec.state.ttl'] !== undefined || this.hint !== undefined
      || this.config['table.exec.source.idle-timeout'] !== undefined || lookupTable !== undefined;
    for (let i = 0; i < n; i++) {
      const roll = r.next();
      const at = procDriven && r.chance(0.5) ? (clock += r.pick([0, 500, 1000, 2000, 5000])) : undefined;
      if (lookupTable !== undefined && roll < 0.3) {
        out.push(this.rowEvent(lookupTable, live, undefined, at));
        continue;
      }
      if (roll < 0.72 || sources.length === 0) {
        const t = r.pick(sources);
        const parts = partitions[t.spec.name] ?? 1;
        out.push(this.rowEvent(t, live, parts > 1 || r.chance(0.2) ? r.int(0, parts - 1) : undefined, at));
        continue;
      }
      const t = r.pick(sources);
      const parts = partitions[t.spec.name] ?? 1;
      const partition = parts > 1 && r.chance(0.6) ? r.int(0, parts - 1) : undefined;
      if (this.timeKind === 'rowtime' && roll < (watermarks === 'manual' ? 0.9 : 0.8)) {
        const to = r.chance(0.15) ? 'max' : r.chance(0.6) ? this.time() : undefined;
        out.push({ kind: 'watermark', table: t.spec.name, ...(partition !== undefined ? { partition } : {}), ...(to !== undefined ? { to } : {}), ...(at !== undefined ? { at } : {}) });
      } else if (roll < 0.92 && this.timeKind === 'rowtime') {
        out.push({ kind: r.chance(0.6) ? 'idle' : 'active', table: t.spec.name, ...(partition !== undefined ? { partition } : {}) });
      } else {
        const ms = r.pick([500, 1000, 5000, 10000]);
        clock += ms;
        out.push({ kind: 'advance', ms });
      }
    }
    // half the event-time cases close their inputs, so that waiting rows are released
    if (this.timeKind === 'rowtime' && r.chance(0.5)) {
      for (const t of sources) out.push({ kind: 'watermark', table: t.spec.name, to: 'max' });
    }
    return out;
  }

  private time(): string {
    return `09:00:${String(this.rng.int(0, 30)).padStart(2, '0')}`;
  }

  private freshRow(t: TableDraft): Record<string, RowValue> {
    const r = this.rng;
    const row: Record<string, RowValue> = {};
    for (const c of t.spec.columns) {
      if (c.computed) continue;
      const notNull = c.type.includes('NOT NULL');
      if (c.metadata !== undefined) {
        // mostly left to the source (partition, offset, topic, processing time); sometimes given
        const given = c.metadata.key === 'timestamp' && c.name === 'ts' ? r.chance(0.85) : r.chance(0.2);
        if (given) row[c.name] = c.metadata.key === 'timestamp' ? this.time() : c.metadata.key === 'topic' ? r.pick(['x', 'y']) : r.int(0, 5);
        continue;
      }
      switch (c.name) {
        case 'id': row.id = r.pick(IDS); break;
        case 'k': row.k = !notNull && r.chance(0.12) ? null : r.pick(KEYS); break;
        case 'v': row.v = r.chance(0.1) ? null : this.valueType.startsWith('DECIMAL') ? r.pick([0, 1, 1.5, 2.25, 3]) : r.int(0, 3); break;
        case 'ts_ms': row.ts_ms = FUZZ_DATE_MS + 9 * 3_600_000 + r.int(0, 30) * 1000; break;
        case 'w': row.w = r.pick(['x', 'y']); break;
        case 'ts': row.ts = this.time(); break;
      }
    }
    return row;
  }

  /** A row event that keeps a changelog table's history plausible: updates and deletes mostly name live rows. */
  private rowEvent(t: TableDraft, live: Map<string, Record<string, RowValue>[]>, partition: number | undefined, at: number | undefined): FuzzEvent {
    const r = this.rng;
    const rows = live.get(t.spec.name) ?? [];
    live.set(t.spec.name, rows);
    const base = { kind: 'row' as const, to: t.spec.name, ...(partition !== undefined ? { partition } : {}), ...(at !== undefined ? { at } : {}) };
    const sameKey = (a: Record<string, RowValue>, b: Record<string, RowValue>) => t.key.every((c) => a[c] === b[c]);
    if (t.source === 'append') {
      return { ...base, op: '+I', row: this.freshRow(t) };
    }
    const existing = rows.length > 0 && r.chance(0.55) ? r.pick(rows) : undefined;
    if (t.source === 'upsert' || t.source === 'lookup') {
      if (existing !== undefined && r.chance(0.35)) {
        rows.splice(rows.indexOf(existing), 1);
        // an upsert-kafka tombstone carries the key only; a store delete names the row
        const row = t.source === 'upsert' && r.chance(0.7) ? Object.fromEntries(t.key.map((c) => [c, existing[c] ?? null])) : existing;
        return { ...base, op: '-D', row };
      }
      const row = this.freshRow(t);
      if (existing !== undefined) for (const c of t.key) row[c] = existing[c] ?? null;
      const old = rows.findIndex((x) => sameKey(x, row));
      if (old >= 0) rows.splice(old, 1);
      rows.push(row);
      return { ...base, op: old >= 0 && r.chance(0.5) ? '+U' : '+I', row };
    }
    // debezium-json: -U/+U pairs are two events; a lone +U or -D of a live row, or an insert
    if (existing !== undefined) {
      const kind = r.pick(['-U', '+U', '-D'] as const);
      if (kind === '+U') {
        const row = { ...this.freshRow(t), ...Object.fromEntries(t.spec.primaryKey !== undefined ? t.key.map((c) => [c, existing[c] ?? null]) : []) };
        rows.splice(rows.indexOf(existing), 1, row);
        return { ...base, op: '+U', row };
      }
      rows.splice(rows.indexOf(existing), 1);
      return { ...base, op: kind, row: existing };
    }
    const row = this.freshRow(t);
    if (t.spec.primaryKey === undefined || !rows.some((x) => sameKey(x, row))) rows.push(row);
    return { ...base, op: '+I', row };
  }
}
