package dev.joinstep.harness;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The external table behind a lookup source (a database table, an HBase table): the scenario's
 * row events to it are writes, and the lookup function reads it.
 */
final class LookupStore {
    private final RowType rowType;
    private final int[] primaryKey;
    private final RowData.FieldGetter[] getters;
    private final List<RowData> rows = new ArrayList<>();

    LookupStore(RowType rowType, int[] primaryKey) {
        this.rowType = rowType;
        this.primaryKey = primaryKey;
        this.getters = new RowData.FieldGetter[rowType.getFieldCount()];
        for (int i = 0; i < getters.length; i++) getters[i] = RowData.createFieldGetter(rowType.getTypeAt(i), i);
    }

    /** An upsert by primary key (or, without one, by the whole row). */
    void upsert(RowData row) {
        int at = find(row);
        if (at >= 0) rows.set(at, row);
        else rows.add(row);
    }

    void delete(RowData row) {
        int at = find(row);
        if (at >= 0) rows.remove(at);
    }

    private int find(RowData row) {
        int[] cols = primaryKey.length > 0 ? primaryKey : allColumns(getters.length);
        for (int i = 0; i < rows.size(); i++) {
            boolean same = true;
            for (int c : cols) same &= Objects.equals(getters[c].getFieldOrNull(rows.get(i)), getters[c].getFieldOrNull(row));
            if (same) return i;
        }
        return -1;
    }

    /** The stored rows whose key columns equal the lookup key row (SQL equality: null never matches), in store order. */
    Collection<RowData> lookup(RowData key, int[] keyColumns) {
        List<RowData> out = new ArrayList<>();
        Object[] want = new Object[keyColumns.length];
        for (int k = 0; k < keyColumns.length; k++) {
            want[k] = RowData.createFieldGetter(rowType.getTypeAt(keyColumns[k]), k).getFieldOrNull(key);
        }
        for (RowData stored : rows) {
            boolean match = true;
            for (int k = 0; k < keyColumns.length && match; k++) {
                Object have = getters[keyColumns[k]].getFieldOrNull(stored);
                match = want[k] != null && want[k].equals(have);
            }
            if (match) out.add(stored);
        }
        return out;
    }

    private static int[] allColumns(int n) {
        int[] all = new int[n];
        for (int i = 0; i < n; i++) all[i] = i;
        return all;
    }
}
