/**
 * What a table's WITH options mean for a join: the source's nature (append / upsert / CDC
 * changelog / lookup), Flink's connector-level rejections, and the lookup cache
 * (LookupOptions, DefaultLookupCache.fromConfig, the JDBC connector's legacy options).
 */
import type { CreateTable, Span, TableOption } from '../sql/ast.js';
import { parseDuration } from '../values/duration.js';
import { didYouMean, fail } from './errors.js';
import type { ConnectorNature, LookupCacheConfig } from './plan.js';

const APPEND = ['kafka', 'filesystem', 'datagen', 'print', 'blackhole', 'values'];
const LOOKUP = ['jdbc', 'hbase', 'hbase-1.4', 'hbase-2.2'];
const CDC_CONNECTORS = ['mysql-cdc', 'postgres-cdc', 'oracle-cdc', 'mongodb-cdc', 'sqlserver-cdc'];
const KNOWN = [...APPEND, 'upsert-kafka', ...LOOKUP, ...CDC_CONNECTORS];
/** Formats that decode a changelog (row kinds from the message), not insert-only rows. */
export const CDC_FORMATS = ['debezium-json', 'debezium-avro-confluent', 'canal-json', 'maxwell-json', 'ogg-json'];

/**
 * Source connectors whose table source implements SupportsWatermarkPushDown (the Kafka
 * connector's KafkaDynamicSource, for both kafka and upsert-kafka). For them the planner's
 * LOGICAL_REWRITE phase moves the WATERMARK into the scan, which decides whether a filtered
 * versioned table is rejected (see join-temporal.ts). filesystem, datagen, values and the CDC
 * connectors keep a separate watermark assigner.
 */
const WATERMARK_PUSH_DOWN = ['kafka', 'upsert-kafka'];

export function supportsWatermarkPushDown(connector: string): boolean {
  return WATERMARK_PUSH_DOWN.includes(connector);
}

export function option(options: readonly TableOption[], key: string): TableOption | undefined {
  return options.find((o) => o.key === key);
}

export function qualifiedName(name: string): string {
  return `default_catalog.default_database.${name}`;
}

/** The connector's nature; rejects what Flink's factories reject for the key / PK combination. */
export function connectorNature(ct: CreateTable, hasPk: boolean): { connector: string; nature: ConnectorNature; format?: string } {
  const opt = option(ct.options, 'connector');
  if (!opt) {
    fail("Table options do not contain an option key 'connector' for discovering a connector.", ct.name,
      "add WITH ('connector' = 'kafka', ...) — kafka, upsert-kafka, filesystem, datagen, jdbc or hbase");
  }
  const connector = opt.value;
  if (!KNOWN.includes(connector)) {
    fail(`Could not find any factory for identifier '${connector}' that implements 'org.apache.flink.table.factories.DynamicTableFactory' in the classpath.`,
      opt.valueSpan, didYouMean(connector, KNOWN, 'connector'));
  }
  const formatOpt = option(ct.options, 'format') ?? option(ct.options, 'value.format');
  const format = formatOpt?.value;
  const cdcFormat = format !== undefined && CDC_FORMATS.includes(format);
  if (connector === 'upsert-kafka') {
    if (!hasPk) {
      fail("'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY specifies which columns should be read from or write to the Kafka message key. The PRIMARY KEY also defines records in the 'upsert-kafka' table should update or delete on which keys.",
        ct.name, 'an upsert-kafka table is keyed by its primary key: add PRIMARY KEY (...) NOT ENFORCED');
    }
    return withFormat({ connector, nature: 'upsert' }, format);
  }
  if (LOOKUP.includes(connector)) return withFormat({ connector, nature: 'lookup' }, format);
  if (CDC_CONNECTORS.includes(connector)) return withFormat({ connector, nature: 'changelog' }, format);
  if (cdcFormat) return withFormat({ connector, nature: 'changelog' }, format);
  if (connector === 'kafka' && hasPk) {
    fail(`The Kafka table '${qualifiedName(ct.name.value)}' with '${format ?? 'json'}' format doesn't support defining PRIMARY KEY constraint on the table, because it can't guarantee the semantic of primary key.`,
      ct.primaryKey ?? ct.name, "a plain kafka table is append-only; use 'upsert-kafka' (or a debezium-json / canal-json format) for a keyed changelog");
  }
  return withFormat({ connector, nature: 'append' }, format);
}

function withFormat<T extends object>(x: T, format: string | undefined): T & { format?: string } {
  return format === undefined ? x : { ...x, format };
}

function durationOption(o: TableOption): number {
  const d = parseDuration(o.value);
  if (!d.ok) fail(`Could not parse value '${o.value}' for key '${o.key}'.`, o.valueSpan, d.hint ?? 'write a duration such as 10 min, 30 s or 1 h');
  return d.ms;
}

function intOption(o: TableOption): number {
  const n = Number(o.value);
  if (!Number.isSafeInteger(n)) fail(`Could not parse value '${o.value}' for key '${o.key}'.`, o.valueSpan, 'write an integer');
  return n;
}

function boolOption(o: TableOption | undefined, dflt: boolean): boolean {
  if (!o) return dflt;
  const v = o.value.toLowerCase();
  if (v !== 'true' && v !== 'false') fail(`Could not parse value '${o.value}' for key '${o.key}'.`, o.valueSpan, "write 'true' or 'false'");
  return v === 'true';
}

/** The lookup cache a lookup source builds from its options, or undefined for no cache. */
export function lookupCache(ct: CreateTable): LookupCacheConfig | undefined {
  const get = (k: string): TableOption | undefined => option(ct.options, k);
  const type = get('lookup.cache');
  const kind = type?.value.toUpperCase();
  if (type && kind !== 'NONE' && kind !== 'PARTIAL' && kind !== 'FULL') {
    fail(`Could not parse value '${type.value}' for key 'lookup.cache'.`, type.valueSpan, 'lookup.cache is NONE, PARTIAL or FULL');
  }
  if (kind === 'FULL') fail('joinstep does not simulate the FULL lookup cache', type?.valueSpan as Span, "use 'lookup.cache' = 'PARTIAL' or NONE");
  if (kind === 'PARTIAL') return partialCache(ct, type as TableOption);
  // JDBC's legacy options build a partial cache when both are set (new options take precedence)
  const maxRows = get('lookup.cache.max-rows');
  const ttl = get('lookup.cache.ttl');
  if (kind === undefined && maxRows && ttl) {
    const rows = intOption(maxRows);
    const ttlMs = durationOption(ttl);
    if (rows > 0 && ttlMs > 0) {
      return { maxRows: rows, expireAfterWriteMs: ttlMs, cacheMissingKey: boolOption(get('lookup.cache.caching-missing-key'), true), source: 'legacy' };
    }
  }
  return undefined;
}

function partialCache(ct: CreateTable, type: TableOption): LookupCacheConfig {
  const get = (k: string): TableOption | undefined => option(ct.options, k);
  const maxRows = get('lookup.partial-cache.max-rows');
  const write = get('lookup.partial-cache.expire-after-write');
  const access = get('lookup.partial-cache.expire-after-access');
  if (!maxRows && !write && !access) {
    fail("Missing 'lookup.partial-cache.expire-after-access', 'lookup.partial-cache.expire-after-write' or 'lookup.partial-cache.max-rows' in the configuration. The cache will not have evictions under this configuration and could lead to potential memory issues as the cache size may grow indefinitely.",
      type.keySpan, "a PARTIAL cache needs an eviction rule: set 'lookup.partial-cache.expire-after-write' (e.g. '10 min'), 'expire-after-access' or 'max-rows'");
  }
  const out: { maxRows?: number; expireAfterWriteMs?: number; expireAfterAccessMs?: number; cacheMissingKey: boolean; source: 'partial' } = {
    cacheMissingKey: boolOption(get('lookup.partial-cache.cache-missing-key'), true),
    source: 'partial',
  };
  if (maxRows) out.maxRows = intOption(maxRows);
  if (write) out.expireAfterWriteMs = durationOption(write);
  if (access) out.expireAfterAccessMs = durationOption(access);
  return out;
}
