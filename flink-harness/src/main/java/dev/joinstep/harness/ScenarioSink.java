package dev.joinstep.harness;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** A scenario's INSERT target: the rows reaching it are the query's changelog. */
final class ScenarioSink implements DynamicTableSink {
    private final String table;
    private final ConnectorKind kind;
    private final RowType rowType;
    private final int[] primaryKey;

    ScenarioSink(String table, ConnectorKind kind, RowType rowType, int[] primaryKey) {
        this.table = table;
        this.kind = kind;
        this.rowType = rowType;
        this.primaryKey = primaryKey;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return kind.sinkMode(requestedMode, primaryKey.length > 0);
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        String name = table;
        RowType type = rowType;
        int[] pk = primaryKey;
        return new DataStreamSinkProvider() {
            @Override
            public DataStreamSink<?> consumeDataStream(ProviderContext providerContext, DataStream<RowData> dataStream) {
                RunContext.current().sinks.put(dataStream.getTransformation(), new RunContext.SinkTap(name, type, pk));
                return dataStream.sinkTo(new DiscardingSink<>());
            }
        };
    }

    @Override
    public DynamicTableSink copy() {
        return new ScenarioSink(table, kind, rowType, primaryKey);
    }

    @Override
    public String asSummaryString() {
        return "joinstep scenario table " + table;
    }
}
