package dev.joinstep.harness;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.abilities.SupportsWatermarkPushDown;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.connector.source.lookup.PartialCachingLookupProvider;
import org.apache.flink.table.connector.source.lookup.cache.DefaultLookupCache;
import org.apache.flink.table.connector.source.lookup.cache.LookupCache;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario table read by the query: scanned, its rows coming from the scenario's events fed by
 * the executor. Only connectors that can be looked up in the real world (jdbc, hbase) get the
 * {@link Lookup} variant: the planner turns FOR SYSTEM_TIME AS OF a processing time into a lookup
 * join exactly when the table source can be looked up.
 */
class ScenarioSource implements ScanTableSource, SupportsWatermarkPushDown, SupportsReadingMetadata {
    final String table;
    final ConnectorKind kind;
    final Map<String, String> options;
    final RowType rowType;
    final int[] primaryKey;
    /** Set by the planner's watermark push-down. */
    private WatermarkStrategy<RowData> watermarks;

    /** The table's metadata columns: metadata key to column name. */
    Map<String, String> metadataColumns = Map.of();
    /** Set by the planner when the query reads metadata: the keys, appended to the row in this order. */
    List<String> metadataKeys = List.of();
    RowType producedType;

    static ScenarioSource create(String table, ConnectorKind kind, Map<String, String> options, RowType rowType, int[] primaryKey, Map<String, String> metadataColumns) {
        ScenarioSource source = kind.isLookupStore()
                ? new Lookup(table, kind, options, rowType, primaryKey, null)
                : new ScenarioSource(table, kind, options, rowType, primaryKey, null);
        source.metadataColumns = metadataColumns;
        return source;
    }

    /** The copy's metadata state is this one's. */
    <T extends ScenarioSource> T withStateOf(ScenarioSource from, T to) {
        to.metadataColumns = from.metadataColumns;
        to.metadataKeys = from.metadataKeys;
        to.producedType = from.producedType;
        return to;
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        // the Kafka connectors' record metadata; other connectors offer none here
        Map<String, DataType> m = new LinkedHashMap<>();
        if (kind.connector.equals("kafka") || kind.isUpsertKafka()) {
            m.put("topic", DataTypes.STRING().notNull());
            m.put("partition", DataTypes.INT().notNull());
            m.put("headers", DataTypes.MAP(DataTypes.STRING().nullable(), DataTypes.BYTES().nullable()).notNull());
            m.put("leader-epoch", DataTypes.INT().nullable());
            m.put("offset", DataTypes.BIGINT().notNull());
            m.put("timestamp", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3).notNull());
            m.put("timestamp-type", DataTypes.STRING().notNull());
        }
        return m;
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        this.metadataKeys = List.copyOf(metadataKeys);
        this.producedType = (RowType) producedDataType.getLogicalType();
    }

    ScenarioSource(String table, ConnectorKind kind, Map<String, String> options, RowType rowType, int[] primaryKey, WatermarkStrategy<RowData> watermarks) {
        this.table = table;
        this.kind = kind;
        this.options = options;
        this.rowType = rowType;
        this.primaryKey = primaryKey;
        this.watermarks = watermarks;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return kind.sourceMode();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        String name = table;
        RowType type = producedType != null ? producedType : rowType;
        RunContext.Metadata metadata = new RunContext.Metadata(rowType.getFieldCount(), metadataKeys, metadataColumns, options.getOrDefault("topic", ""));
        WatermarkStrategy<RowData> wm = watermarks;
        boolean keyOnlyDeletes = kind.isUpsertKafka();
        int[] pk = primaryKey;
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(ProviderContext providerContext, StreamExecutionEnvironment env) {
                // A placeholder stream: the executor never runs it, it feeds the operators behind it.
                DataStream<RowData> stream = env.fromSequence(0, 0).map(new Placeholder()).returns(InternalTypeInfo.of(type));
                RunContext.current().sources.put(stream.getTransformation(), new RunContext.SourceTap(name, type, wm, keyOnlyDeletes, pk, metadata));
                return stream;
            }

            @Override
            public boolean isBounded() {
                return false;
            }
        };
    }

    /** Never called: the placeholder source's rows are never produced. */
    static final class Placeholder implements MapFunction<Long, RowData> {
        @Override
        public RowData map(Long value) {
            throw new IllegalStateException("the scenario source is driven by the harness");
        }
    }

    @Override
    public void applyWatermark(WatermarkStrategy<RowData> watermarkStrategy) {
        this.watermarks = watermarkStrategy;
    }

    @Override
    public DynamicTableSource copy() {
        return withStateOf(this, new ScenarioSource(table, kind, options, rowType, primaryKey, watermarks));
    }

    WatermarkStrategy<RowData> watermarks() {
        return watermarks;
    }

    /** A table of an external store: scanned like any other, and also looked up. */
    static final class Lookup extends ScenarioSource implements LookupTableSource {
        Lookup(String table, ConnectorKind kind, Map<String, String> options, RowType rowType, int[] primaryKey, WatermarkStrategy<RowData> watermarks) {
            super(table, kind, options, rowType, primaryKey, watermarks);
        }

        @Override
        public DynamicTableSource copy() {
            return withStateOf(this, new Lookup(table, kind, options, rowType, primaryKey, watermarks()));
        }

        @Override
        public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
            int[][] keys = context.getKeys();
            int[] keyColumns = new int[keys.length];
            for (int i = 0; i < keys.length; i++) {
                if (keys[i].length != 1) throw new Execution.NotExpressible("a lookup key on a nested field");
                keyColumns[i] = keys[i][0];
            }
            ScenarioLookupFunction fn = new ScenarioLookupFunction(table, rowType, primaryKey, keyColumns);
            LookupCache cache = lookupCache();
            return cache == null ? LookupFunctionProvider.of(fn) : PartialCachingLookupProvider.of(fn, new ClockedLookupCache(cache));
        }

        /** The partial cache the real JDBC / HBase connectors build from these options, or null. */
        private LookupCache lookupCache() {
            String type = options.get("lookup.cache");
            if (type != null) {
                switch (type.trim().toUpperCase()) {
                    case "PARTIAL":
                        return DefaultLookupCache.fromConfig(Configuration.fromMap(options));
                    case "NONE":
                        return null;
                    case "FULL":
                        throw new Execution.NotExpressible("the FULL lookup cache reloads on a wall-clock schedule; the harness runs only NONE and PARTIAL");
                    default:
                        throw new IllegalArgumentException("Could not parse value '" + type + "' for key 'lookup.cache'.");
                }
            }
            // the connectors' legacy options: a partial cache when both are set and positive
            String maxRows = options.get("lookup.cache.max-rows");
            String ttl = options.get("lookup.cache.ttl");
            if (maxRows == null || ttl == null) return null;
            Configuration conf = Configuration.fromMap(Map.of("rows", maxRows, "ttl", ttl));
            long rows = Long.parseLong(maxRows.trim());
            Duration ttlDuration = conf.get(org.apache.flink.configuration.ConfigOptions.key("ttl").durationType().noDefaultValue());
            if (rows <= 0 || ttlDuration.isZero() || ttlDuration.isNegative()) return null;
            boolean cacheMissing = Boolean.parseBoolean(options.getOrDefault("lookup.cache.caching-missing-key", "true").trim());
            return DefaultLookupCache.newBuilder().maximumSize(rows).expireAfterWrite(ttlDuration).cacheMissingKey(cacheMissing).build();
        }

    }

    @Override
    public String asSummaryString() {
        return "joinstep scenario table " + table;
    }
}
