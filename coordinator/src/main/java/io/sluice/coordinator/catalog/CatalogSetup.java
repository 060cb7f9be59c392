package io.sluice.coordinator.catalog;

import io.sluice.common.settings.Settings;
import io.sluice.sql.CatalogStore;
import io.sluice.sql.InMemoryCatalog;
import java.nio.file.Path;

/**
 * The coordinator's catalog and warehouse from its data directory: the catalog kept in
 * {@code <data-dir>/catalog} and loaded now, managed tables under {@code sluice.sql.warehouse-dir}
 * or {@code <data-dir>/warehouse}. Without a data directory the catalog lives in memory and
 * managed tables go to a temporary directory.
 */
public final class CatalogSetup {
    /** The catalog's folder in the data directory. */
    public static final String CATALOG_DIR = "catalog";
    /** The warehouse's folder in the data directory, unless {@code sluice.sql.warehouse-dir} is set. */
    public static final String WAREHOUSE_DIR = "warehouse";

    private CatalogSetup() {
    }

    public static InMemoryCatalog catalog(Path dataDir) {
        CatalogStore store = dataDir == null ? CatalogStore.NONE : new CatalogFiles(dataDir.resolve(CATALOG_DIR));
        return InMemoryCatalog.stored(store);
    }

    public static Warehouse warehouse(Path dataDir) {
        String configured = Settings.systemProperty(CatalogSettings.WAREHOUSE_DIR);
        if (configured != null && !configured.isBlank()) {
            return new Warehouse(configured.strip());
        }
        return dataDir == null ? Warehouse.temporary() : new Warehouse(dataDir.resolve(WAREHOUSE_DIR).toAbsolutePath().toString());
    }
}
