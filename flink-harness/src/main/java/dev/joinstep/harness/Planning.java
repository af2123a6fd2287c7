package dev.joinstep.harness;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.operations.CollectModifyOperation;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans a scenario with Flink's own planner: the scenario's DDL and config, the pins that make a
 * run deterministic, Flink's explain text, and the Transformation graph it would deploy.
 */
final class Planning {
    /** A planned query: the graph's root and where the query's rows leave it. */
    record Translated(Transformation<?> root, Transformation<?> tap, RunContext.SinkTap sink) {}

    final StreamTableEnvironment tEnv;
    final Map<String, String> pinned;
    final String query;

    Planning(Map<String, String> scenarioConfig, String sql, String minor) {
        pinned = pins(minor);
        Configuration conf = new Configuration();
        scenarioConfig.forEach(conf::setString);
        pinned.forEach(conf::setString);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        EnvironmentSettings settings = EnvironmentSettings.newInstance()
                .inStreamingMode()
                .withConfiguration(conf)
                .withBuiltInCatalogName("joinstep_builtin")
                .withBuiltInDatabaseName("joinstep_builtin")
                .build();
        tEnv = StreamTableEnvironment.create(env, settings);
        tEnv.registerCatalog(ScenarioCatalog.NAME, new ScenarioCatalog());
        tEnv.useCatalog(ScenarioCatalog.NAME);
        tEnv.useDatabase(ScenarioCatalog.DATABASE);
        scenarioConfig.forEach((k, v) -> tEnv.getConfig().getConfiguration().setString(k, v));
        pinned.forEach((k, v) -> tEnv.getConfig().getConfiguration().setString(k, v));

        String theQuery = null;
        for (String statement : SqlStatements.split(sql)) {
            if (SqlStatements.isQuery(statement)) theQuery = statement;
            else tEnv.executeSql(statement);
        }
        if (theQuery == null) throw new IllegalArgumentException("the scenario's SQL has no SELECT or INSERT statement");
        query = theQuery;
    }

    /** What the harness sets whatever the scenario says, so every run is deterministic. */
    static Map<String, String> pins(String minor) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("table.exec.mini-batch.enabled", "false");
        p.put("table.exec.async-state.enabled", "false");
        if (!minor.equals("2.0")) p.put("table.optimizer.delta-join.strategy", "NONE");
        p.put("state.backend.type", "hashmap");
        p.put("pipeline.auto-watermark-interval", "0");
        p.put("parallelism.default", "1");
        p.put("table.exec.resource.default-parallelism", "1");
        return p;
    }

    private final Map<String, Execution.StoreTable> storeTables = new LinkedHashMap<>();

    boolean hasTable(String name) {
        return tEnv.getCatalog(ScenarioCatalog.NAME).orElseThrow().tableExists(new ObjectPath(ScenarioCatalog.DATABASE, name));
    }

    /** The physical row type and key of a lookup store table (jdbc, hbase), or null for any other table. */
    Execution.StoreTable storeTable(String name) {
        if (storeTables.containsKey(name)) return storeTables.get(name);
        Execution.StoreTable found = null;
        try {
            CatalogBaseTable table = tEnv.getCatalog(ScenarioCatalog.NAME).orElseThrow()
                    .getTable(new ObjectPath(ScenarioCatalog.DATABASE, name));
            if (new ConnectorKind(table.getOptions()).isLookupStore()) {
                ResolvedSchema schema = tEnv.from("`" + name + "`").getResolvedSchema();
                RowType rowType = (RowType) schema.toPhysicalRowDataType().getLogicalType();
                List<String> keyNames = schema.getPrimaryKey().map(UniqueConstraint::getColumns).orElse(List.of());
                int[] pk = keyNames.stream().mapToInt(rowType.getFieldNames()::indexOf).toArray();
                found = new Execution.StoreTable(rowType, pk);
            }
        } catch (TableNotExistException e) {
            found = null;
        }
        storeTables.put(name, found);
        return found;
    }

    private static Transformation<?> findTap(Transformation<?> t, RunContext ctx) {
        if (ctx.sinks.containsKey(t)) return t;
        for (Transformation<?> in : t.getInputs()) {
            Transformation<?> found = findTap(in, ctx);
            if (found != null) return found;
        }
        return null;
    }

    /** Flink's compiled plan JSON; Flink compiles only INSERT statements. */
    String compile() {
        return tEnv.compilePlanSql(query).asJsonString();
    }

    String explain() {
        return tEnv.explainSql(query, ExplainDetail.CHANGELOG_MODE);
    }

    Translated translate() {
        RunContext ctx = RunContext.current();
        if (SqlStatements.isInsert(query)) {
            TableEnvironmentInternal internal = (TableEnvironmentInternal) tEnv;
            List<Operation> ops = internal.getParser().parse(query);
            List<ModifyOperation> modify = new ArrayList<>();
            for (Operation op : ops) modify.add((ModifyOperation) op);
            List<Transformation<?>> out = ((TableEnvironmentImpl) tEnv).getPlanner().translate(modify);
            if (out.size() != 1) throw new IllegalStateException("expected one sink, got " + out.size());
            Transformation<?> tap = findTap(out.get(0), ctx);
            if (tap == null) throw new IllegalStateException("the sink's input is not in the translated graph");
            return new Translated(tap, tap, ctx.sinks.get(tap));
        }
        // A SELECT goes to the collect sink, as in the SQL client's and TableResult.print()'s
        // path; its input is where the query's rows leave the plan.
        Table table = tEnv.sqlQuery(query);
        List<Transformation<?>> out = ((TableEnvironmentImpl) tEnv).getPlanner()
                .translate(List.of(new CollectModifyOperation(table.getQueryOperation())));
        if (out.size() != 1) throw new IllegalStateException("expected one collect sink, got " + out.size());
        Transformation<?> tap = out.get(0);
        while (tap.getClass().getSimpleName().contains("Sink") && tap.getInputs().size() == 1) tap = tap.getInputs().get(0);
        RowType rowType = (RowType) table.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
        return new Translated(out.get(0), tap, new RunContext.SinkTap("collect", rowType, new int[0]));
    }
}
