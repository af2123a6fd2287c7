package dev.joinstep.harness;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.types.RowKind;

import java.util.List;
import java.util.Map;

/**
 * What a table's 'connector' and format options mean for the plan: the changelog modes the real
 * connectors declare, and whether the table is looked up (an external store) or scanned.
 */
final class ConnectorKind {
    /** Formats whose messages carry the row kind (a CDC changelog), not insert-only rows. */
    static final List<String> CDC_FORMATS = List.of("debezium-json", "debezium-avro-confluent", "canal-json", "maxwell-json", "ogg-json");

    static final List<String> LOOKUP_CONNECTORS = List.of("jdbc", "hbase", "hbase-1.4", "hbase-2.2");

    final String connector;
    final String format;

    ConnectorKind(Map<String, String> options) {
        this.connector = options.getOrDefault("connector", "");
        this.format = options.getOrDefault("format", options.getOrDefault("value.format", ""));
    }

    boolean isUpsertKafka() {
        return connector.equals("upsert-kafka");
    }

    boolean isCdc() {
        return CDC_FORMATS.contains(format) || connector.endsWith("-cdc");
    }

    boolean isLookupStore() {
        return LOOKUP_CONNECTORS.contains(connector);
    }

    /** The scan source's changelog mode, as the real connector declares it. */
    ChangelogMode sourceMode() {
        if (isUpsertKafka()) {
            // upsert-kafka: every value is an upsert, a tombstone a delete that carries only the key
            return ChangelogMode.newBuilder().addContainedKind(RowKind.UPDATE_AFTER).addContainedKind(RowKind.DELETE).build();
        }
        if (isCdc()) return ChangelogMode.all();
        return ChangelogMode.insertOnly();
    }

    /** The sink's changelog mode for what the planner requests. */
    ChangelogMode sinkMode(ChangelogMode requested, boolean hasPrimaryKey) {
        switch (connector) {
            case "upsert-kafka":
                return upsert();
            case "jdbc":
                return hasPrimaryKey ? upsert() : ChangelogMode.insertOnly();
            case "print":
                return requested;
            case "blackhole": {
                ChangelogMode.Builder b = ChangelogMode.newBuilder();
                for (RowKind k : requested.getContainedKinds()) if (k != RowKind.UPDATE_BEFORE) b.addContainedKind(k);
                return b.build();
            }
            default:
                return isCdc() ? ChangelogMode.all() : ChangelogMode.insertOnly();
        }
    }

    private static ChangelogMode upsert() {
        return ChangelogMode.newBuilder()
                .addContainedKind(RowKind.INSERT)
                .addContainedKind(RowKind.UPDATE_AFTER)
                .addContainedKind(RowKind.DELETE)
                .build();
    }

    /** The checks the real connector factories make on the key / primary key combination. */
    void validate(String qualifiedName, boolean hasPrimaryKey) {
        if (connector.isEmpty()) {
            throw new ValidationException("Table options do not contain an option key 'connector' for discovering a connector.");
        }
        if (isUpsertKafka() && !hasPrimaryKey) {
            throw new ValidationException(
                    "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY specifies which columns should be read from or write to the Kafka message key. The PRIMARY KEY also defines records in the 'upsert-kafka' table should update or delete on which keys.");
        }
        if (connector.equals("kafka") && hasPrimaryKey && !isCdc()) {
            throw new ValidationException(String.format(
                    "The Kafka table '%s' with '%s' format doesn't support defining PRIMARY KEY constraint on the table, because it can't guarantee the semantic of primary key.",
                    qualifiedName, format.isEmpty() ? "json" : format));
        }
    }
}
