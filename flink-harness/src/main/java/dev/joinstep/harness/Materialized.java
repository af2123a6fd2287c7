package dev.joinstep.harness;

import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The final result of a changelog: a multiset of rows, or, for a sink with a primary key, one row
 * per key (the upsert table the sink maintains).
 */
final class Materialized {
    private final int[] primaryKey;
    private final List<String> bag = new ArrayList<>();
    private final Map<String, String> byKey = new LinkedHashMap<>();

    Materialized(int[] primaryKey) {
        this.primaryKey = primaryKey;
    }

    void apply(Row row) {
        RowKind kind = row.getKind();
        Row plain = Row.copy(row);
        plain.setKind(RowKind.INSERT);
        // Row.toString prints the kind first: "+I[...]"; the result shows the bare row
        String text = plain.toString().substring(2);
        boolean add = kind == RowKind.INSERT || kind == RowKind.UPDATE_AFTER;
        if (primaryKey.length > 0) {
            StringBuilder key = new StringBuilder();
            for (int k : primaryKey) key.append(row.getField(k)).append('\u0000');
            if (add) byKey.put(key.toString(), text);
            else byKey.remove(key.toString());
        } else if (add) {
            bag.add(text);
        } else {
            bag.remove(text);
        }
    }

    List<String> rows() {
        List<String> out = new ArrayList<>(primaryKey.length > 0 ? byKey.values() : bag);
        out.sort(null);
        return out;
    }
}
