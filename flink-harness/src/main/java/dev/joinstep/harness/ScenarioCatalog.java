package dev.joinstep.harness;

import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.factories.Factory;

import java.util.Optional;

/** An in-memory catalog whose tables are all created by our scenario table factory. */
final class ScenarioCatalog extends GenericInMemoryCatalog {
    static final String NAME = "default_catalog";
    static final String DATABASE = "default_database";

    ScenarioCatalog() {
        super(NAME, DATABASE);
    }

    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new ScenarioTableFactory());
    }
}
