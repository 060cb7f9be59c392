package io.sluice.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.logical.source.FileFormat;
import io.sluice.sql.CatalogDatabase;
import io.sluice.sql.CatalogTable;
import io.sluice.sql.CatalogView;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlDialect;
import io.sluice.sql.TableColumn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The catalog files: what a catalog saves, a new catalog loads; files it cannot trust stop the load, naming them. */
class CatalogFilesTest {
    @TempDir
    Path dir;

    private static CatalogTable table(String database, String name, boolean external) {
        return new CatalogTable(database, name, List.of(new TableColumn("id", DataType.INT64, true, "the key"),
                new TableColumn("tags", DataType.list(DataType.UTF8), false, null),
                new TableColumn("s", DataType.struct(List.of(new Field("a b", DataType.decimal(12, 2)))), false, null),
                new TableColumn("day", DataType.DATE32, false, null)), FileFormat.PARQUET, Map.of("compression", "zstd"),
                List.of("day"), "/w/" + name, external, "a 'comment'", Map.of("owner", "ops"));
    }

    @Test
    void aNewCatalogLoadsWhatTheOldOneSaved() {
        CatalogFiles files = new CatalogFiles(dir.resolve("catalog"));
        InMemoryCatalog catalog = InMemoryCatalog.stored(files);
        catalog.createDatabase(new CatalogDatabase("sales", "/w/sales", "money"), false);
        catalog.createTable(table("sales", "orders", false));
        catalog.createTable(table("default", "ext", true));
        catalog.createView(new CatalogView("sales", "big", "SELECT id FROM orders WHERE id > 7", List.of("k"), null), false);
        catalog.createView(new CatalogView("sales", "halves", "SELECT id DIV 2 FROM orders ORDER BY 1", List.of(), null,
                SqlDialect.ANSI), false);
        catalog.registerView("temporary", new io.sluice.logical.plan.EmptyRelation(
                new io.sluice.common.types.Schema(List.of(new Field("x", DataType.INT32)))), false);

        InMemoryCatalog loaded = InMemoryCatalog.stored(new CatalogFiles(dir.resolve("catalog")));
        assertThat(loaded.databaseNames()).containsExactly("default", "sales");
        assertThat(loaded.database("sales")).isEqualTo(new CatalogDatabase("sales", "/w/sales", "money"));
        assertThat(loaded.catalogTable("sales.orders")).isEqualTo(table("sales", "orders", false));
        assertThat(loaded.catalogTable("ext")).isEqualTo(table("default", "ext", true));
        assertThat(loaded.catalogView("sales.big")).isEqualTo(
                new CatalogView("sales", "big", "SELECT id FROM orders WHERE id > 7", List.of("k"), null));
        assertThat(loaded.catalogView("sales.halves").dialect()).as("the dialect it was created in").isEqualTo(SqlDialect.ANSI);
        assertThat(loaded.view("temporary")).isNull();
        assertThat(dir.resolve("catalog")).isDirectoryContaining("glob:**/sales.json")
                .isDirectoryNotContaining("glob:**/*.tmp");

        loaded.dropDatabase("sales", false, true);
        assertThat(dir.resolve("catalog/sales.json")).doesNotExist();
        assertThat(InMemoryCatalog.stored(new CatalogFiles(dir.resolve("catalog"))).databaseNames())
                .containsExactly("default");
    }

    @Test
    void aFileItCannotTrustStopsTheLoadNamingIt() throws Exception {
        Path catalogDir = dir.resolve("catalog");
        InMemoryCatalog.stored(new CatalogFiles(catalogDir)).createDatabase(CatalogDatabase.named("sales"), false);
        Path file = catalogDir.resolve("sales.json");
        String json = Files.readString(file);

        Files.writeString(file, json.replace("\"version\" : 1", "\"version\" : 7"));
        assertThatThrownBy(() -> new CatalogFiles(catalogDir).load()).isInstanceOf(SluiceException.class)
                .hasMessage("cannot load the catalog file " + file + ": catalog format version 7 is not one this Sluice"
                        + " reads (1)");
        Files.writeString(file, json.substring(0, json.length() / 2));
        assertThatThrownBy(() -> new CatalogFiles(catalogDir).load()).hasMessageStartingWith(
                "cannot load the catalog file " + file + ": ");
        Files.writeString(file, json.replace("\"sales\"", "\"other\""));
        assertThatThrownBy(() -> new CatalogFiles(catalogDir).load()).hasMessage("cannot load the catalog file " + file
                + ": it holds database 'other', which belongs in other.json");
    }

    @Test
    void aViewStoredBeforeDialectsWereKeptReadsAsSparksAndAnUnknownDialectIsNamed() throws Exception {
        Path catalogDir = dir.resolve("catalog");
        InMemoryCatalog.stored(new CatalogFiles(catalogDir)).createView(
                new CatalogView("default", "v", "SELECT 1", List.of(), null, SqlDialect.ANSI), false);
        Path file = catalogDir.resolve("default.json");
        String json = Files.readString(file);
        assertThat(json).contains("\"dialect\" : \"ansi\"");

        Files.writeString(file, json.replace(",\n    \"dialect\" : \"ansi\"", ""));
        assertThat(Files.readString(file)).doesNotContain("dialect");
        assertThat(InMemoryCatalog.stored(new CatalogFiles(catalogDir)).catalogView("v").dialect()).isEqualTo(SqlDialect.SPARK);
        Files.writeString(file, json.replace("\"ansi\"", "\"hive\""));
        assertThatThrownBy(() -> new CatalogFiles(catalogDir).load()).hasMessage("cannot load the catalog file " + file
                + ": view 'v' has dialect 'hive' (expected spark or ansi)");
    }
}
