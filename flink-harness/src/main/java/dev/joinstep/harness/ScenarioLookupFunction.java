package dev.joinstep.harness;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.LookupFunction;
import org.apache.flink.table.types.logical.RowType;

import java.util.Collection;

/** Answers a lookup join's key from the scenario's writes to the external store. */
public final class ScenarioLookupFunction extends LookupFunction {
    private final String table;
    private final RowType rowType;
    private final int[] primaryKey;
    private final int[] keyColumns;

    public ScenarioLookupFunction(String table, RowType rowType, int[] primaryKey, int[] keyColumns) {
        this.table = table;
        this.rowType = rowType;
        this.primaryKey = primaryKey;
        this.keyColumns = keyColumns;
    }

    @Override
    public Collection<RowData> lookup(RowData keyRow) {
        return RunContext.current().store(table, rowType, primaryKey).lookup(keyRow, keyColumns);
    }
}
