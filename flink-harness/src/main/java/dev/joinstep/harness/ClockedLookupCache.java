package dev.joinstep.harness;

import org.apache.flink.metrics.groups.CacheMetricGroup;
import org.apache.flink.table.connector.source.lookup.cache.LookupCache;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.clock.Clock;

import java.lang.reflect.Method;
import java.util.Collection;

/**
 * Flink's own lookup cache, reading the scenario's processing-time clock instead of the system
 * clock: expiry then happens exactly when the scenario's clock says so.
 */
public final class ClockedLookupCache implements LookupCache {
    private final LookupCache delegate;

    ClockedLookupCache(LookupCache delegate) {
        this.delegate = delegate;
    }

    @Override
    public void open(CacheMetricGroup metricGroup) {
        try {
            // DefaultLookupCache takes a clock only through a package-private hook, read at open
            Method withClock = delegate.getClass().getDeclaredMethod("withClock", Clock.class);
            withClock.setAccessible(true);
            withClock.invoke(delegate, RunContext.current().cacheClock);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot give the lookup cache the scenario's clock", e);
        }
        delegate.open(metricGroup);
    }

    @Override
    public Collection<RowData> getIfPresent(RowData key) {
        return delegate.getIfPresent(key);
    }

    @Override
    public Collection<RowData> put(RowData key, Collection<RowData> value) {
        return delegate.put(key, value);
    }

    @Override
    public void invalidate(RowData key) {
        delegate.invalidate(key);
    }

    @Override
    public long size() {
        return delegate.size();
    }

    @Override
    public void close() throws Exception {
        delegate.close();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
