package io.sluice.sql;

import java.util.List;

/**
 * Where a catalog keeps its databases between runs. {@link InMemoryCatalog} calls {@link #save}
 * after every change of a database's tables or views (holding its lock, so saves of one catalog
 * never overlap) and {@link #delete} when one is dropped; a save that throws leaves the change
 * undone in memory too.
 */
public interface CatalogStore {
    /** A store that keeps nothing: the catalog lives as long as its process. */
    CatalogStore NONE = new CatalogStore() {
        @Override
        public List<DatabaseState> load() {
            return List.of();
        }

        @Override
        public void save(DatabaseState state) {
        }

        @Override
        public void delete(String database) {
        }
    };

    /** One database with its tables and views. */
    record DatabaseState(CatalogDatabase database, List<CatalogTable> tables, List<CatalogView> views) {
        public DatabaseState {
            java.util.Objects.requireNonNull(database, "database is null");
            tables = List.copyOf(tables);
            views = List.copyOf(views);
        }
    }

    /** Every database stored. */
    List<DatabaseState> load();

    void save(DatabaseState state);

    void delete(String database);
}
