package dev.joinstep.harness;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.clock.ManualClock;

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What one request's planning and run share with the table factory: the source and sink
 * transformations the planner asked our connectors for, the lookup stores, and the clock the
 * lookup caches read. The harness serves one request at a time, so one current context is enough.
 */
final class RunContext {
    private static RunContext current = new RunContext();

    /** A scan source as the planner configured it. */
    record SourceTap(String table, RowType producedType, WatermarkStrategy<RowData> watermarks, boolean upsertKeyOnlyDeletes, int[] primaryKey, Metadata metadata) {}

    /** The metadata a scan produces after its physical columns: keys, and the columns that name them. */
    record Metadata(int physicalCount, java.util.List<String> keys, Map<String, String> columnByKey, String topic) {}

    /** The point where the query's rows leave the plan: a sink's input. */
    record SinkTap(String table, RowType rowType, int[] primaryKey) {}

    final Map<Transformation<?>, SourceTap> sources = new IdentityHashMap<>();
    final Map<Transformation<?>, SinkTap> sinks = new IdentityHashMap<>();
    final Map<String, LookupStore> stores = new LinkedHashMap<>();
    /** Processing time for the lookup caches, in step with the operators' processing time. */
    final ManualClock cacheClock = new ManualClock();
    private long cacheClockMs = 0;

    static RunContext current() {
        return current;
    }

    static RunContext reset() {
        current = new RunContext();
        return current;
    }

    LookupStore store(String table, RowType rowType, int[] primaryKey) {
        return stores.computeIfAbsent(table, t -> new LookupStore(rowType, primaryKey));
    }

    void setCacheClock(long ms) {
        if (ms > cacheClockMs) {
            cacheClock.advanceTime(ms - cacheClockMs, TimeUnit.MILLISECONDS);
            cacheClockMs = ms;
        }
    }
}
