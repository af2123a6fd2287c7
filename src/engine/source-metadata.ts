/**
 * Kafka record metadata (`part INT METADATA FROM 'partition'`, `kts TIMESTAMP_LTZ(3) METADATA FROM
 * 'timestamp'`, ...): every record a Kafka source reads carries its topic, partition, offset and
 * timestamp, so a metadata column is never null in Flink. A scenario row may give such a column;
 * what it leaves out (or gives as null) is filled as the Kafka source would fill it: the table's
 * `topic` option, the row's partition, the partition's next offset (0, 1, ... counting every row
 * event of that partition), the processing time at which the row arrives as its `CreateTime`
 * timestamp. This is the rule the Flink harness follows (flink-harness/README.md, "Tables").
 * `headers` and `leader-epoch` are not filled.
 */
import type { TableDef } from '../planner/plan.js';
import { castFn } from '../values/cast.js';
import type { CastFn } from '../values/cast-util.js';
import type { Row, SqlType, Value } from '../values/types.js';

type FilledKey = 'topic' | 'partition' | 'offset' | 'timestamp' | 'timestamp-type';

/** The type each key has in the Kafka connectors (KafkaDynamicSource.ReadableMetadata). */
const KAFKA_TYPES: Readonly<Record<FilledKey, SqlType>> = {
  topic: { kind: 'STRING', nullable: false },
  partition: { kind: 'INT', nullable: false },
  offset: { kind: 'BIGINT', nullable: false },
  timestamp: { kind: 'TIMESTAMP_LTZ', nullable: false, precision: 3 },
  'timestamp-type': { kind: 'STRING', nullable: false },
};

const KAFKA_CONNECTORS = ['kafka', 'upsert-kafka'];

/** One metadata column a source fills: its index in the row and how its value is made. */
export interface MetadataFill {
  readonly index: number;
  readonly key: FilledKey;
  /** The Kafka type's value as the column's declared type (Flink casts it after the scan). */
  readonly cast: CastFn;
}

export interface SourceMetadata {
  readonly fills: readonly MetadataFill[];
  /** Whether some column reads the offset: only then does the table count offsets per partition. */
  readonly countsOffsets: boolean;
  readonly topic: string;
}

/** The metadata a table's source fills, or undefined when it fills none (not Kafka, or no such column). */
export function sourceMetadata(def: TableDef): SourceMetadata | undefined {
  if (!KAFKA_CONNECTORS.includes(def.connector)) return undefined;
  const fills: MetadataFill[] = [];
  def.columns.forEach((c, index) => {
    if (c.kind !== 'metadata' || c.metadataKey === undefined || !(c.metadataKey in KAFKA_TYPES)) return;
    const key = c.metadataKey as FilledKey;
    let cast: CastFn;
    try {
      cast = castFn(KAFKA_TYPES[key], c.type);
    } catch {
      // No cast from the Kafka type to the declared one: Flink rejects such a table; left null here.
      return;
    }
    fills.push({ index, key, cast });
  });
  if (fills.length === 0) return undefined;
  const topic = def.options.find((o) => o.key === 'topic')?.value ?? '';
  return { fills, countsOffsets: fills.some((f) => f.key === 'offset'), topic };
}

/**
 * The row with its metadata columns filled where the event left them null; `given` itself when
 * nothing was missing. `offset` is the partition's offset for this record.
 */
export function fillSourceMetadata(m: SourceMetadata, given: Row, partition: number, offset: number, procTime: number, ctx: { procTime: number; timeZone: string }): Row {
  let row: Value[] | undefined;
  for (const f of m.fills) {
    if (given[f.index] !== null && given[f.index] !== undefined) continue;
    row ??= given.slice();
    row[f.index] = f.cast(kafkaValue(m, f.key, partition, offset, procTime), ctx);
  }
  return row ?? given;
}

function kafkaValue(m: SourceMetadata, key: FilledKey, partition: number, offset: number, procTime: number): Value {
  switch (key) {
    case 'topic': return m.topic;
    case 'partition': return partition;
    case 'offset': return offset;
    case 'timestamp': return procTime;
    case 'timestamp-type': return 'CreateTime';
  }
}
