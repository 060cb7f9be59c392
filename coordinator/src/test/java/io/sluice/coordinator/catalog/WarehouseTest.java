package io.sluice.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.sql.CatalogDatabase;
import org.junit.jupiter.api.Test;

/** Managed table directories: under the database's, and never elsewhere through the table's name. */
class WarehouseTest {
    private final Warehouse warehouse = new Warehouse("/data/warehouse/");
    private final CatalogDatabase sales = new CatalogDatabase("sales", null, null);

    @Test
    void aTableLivesUnderItsDatabaseInLowerCase() {
        assertThat(warehouse.tableLocation(sales, "Orders")).isEqualTo("/data/warehouse/sales.db/orders");
        assertThat(warehouse.tableLocation(sales, "odd name.v2")).isEqualTo("/data/warehouse/sales.db/odd name.v2");
    }

    @Test
    void aNameThatWouldLeaveItsDirectoryIsRefused() {
        for (String name : new String[] {"../other.db", "a/b", "..", ".", "a\\b", "c:x", "tab\tname"}) {
            assertThatThrownBy(() -> warehouse.tableLocation(sales, name)).as(name).isInstanceOf(SluiceException.class)
                    .hasMessageContaining("the table name '" + name + "' cannot name a directory of the warehouse");
        }
    }
}
