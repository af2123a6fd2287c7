package dev.joinstep.harness;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.types.logical.RowType;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The one factory behind every table of a scenario, whatever its 'connector' option says: the
 * catalog hands it to the planner for all its tables, so the DDL runs verbatim without the real
 * connectors on the class path and without option validation.
 */
final class ScenarioTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {
    @Override
    public String factoryIdentifier() {
        return "joinstep-scenario";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        Map<String, String> options = context.getCatalogTable().getOptions();
        ConnectorKind kind = new ConnectorKind(options);
        int[] pk = context.getPrimaryKeyIndexes();
        kind.validate(context.getObjectIdentifier().asSummaryString(), pk.length > 0);
        RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
        Map<String, String> metadataColumns = new LinkedHashMap<>();
        for (Column c : context.getCatalogTable().getResolvedSchema().getColumns()) {
            if (c instanceof Column.MetadataColumn) {
                Column.MetadataColumn m = (Column.MetadataColumn) c;
                metadataColumns.put(m.getMetadataKey().orElse(m.getName()), m.getName());
            }
        }
        return ScenarioSource.create(context.getObjectIdentifier().getObjectName(), kind, options, rowType, pk, metadataColumns);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        Map<String, String> options = context.getCatalogTable().getOptions();
        ConnectorKind kind = new ConnectorKind(options);
        int[] pk = context.getPrimaryKeyIndexes();
        kind.validate(context.getObjectIdentifier().asSummaryString(), pk.length > 0);
        RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
        return new ScenarioSink(context.getObjectIdentifier().getObjectName(), kind, rowType, pk);
    }
}
