package io.sluice.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.QueryResult;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The names completion offers, read from SHOW TABLES and DESCRIBE answers of Sluice's and Spark's shapes. */
class CatalogNamesTest {
    private static QueryResult rows(List<String> columns, List<List<Object>> rows) {
        List<Field> fields = new ArrayList<>();
        for (String c : columns) {
            fields.add(new Field(c, DataType.UTF8));
        }
        return new QueryResult(Schema.of(fields.toArray(new Field[0])), rows);
    }

    @Test
    void namesAreAskedOnceUntilAStatementRuns() {
        List<String> asked = new ArrayList<>();
        Function<String, QueryResult> engine = sql -> {
            asked.add(sql);
            return sql.equals("SHOW TABLES")
                    ? rows(List.of("name", "kind"), List.of(List.of("orders", "table"), List.of("recent", "view")))
                    : rows(List.of("column_name", "column_type"), List.of(List.of("id", "BIGINT"), List.of("total", "DOUBLE")));
        };
        CatalogNames names = new CatalogNames(engine);
        assertThat(names.tables()).containsExactly("orders", "recent");
        assertThat(names.columns("orders")).containsExactly("id", "total");
        assertThat(names.tables()).containsExactly("orders", "recent");
        assertThat(names.columns("ORDERS")).containsExactly("id", "total");
        assertThat(asked).containsExactly("SHOW TABLES", "DESCRIBE orders");

        names.forget();
        names.tables();
        assertThat(asked).containsExactly("SHOW TABLES", "DESCRIBE orders", "SHOW TABLES");
    }

    @Test
    void sparkShapedAnswersAreReadByColumnName() {
        CatalogNames names = new CatalogNames(sql -> sql.equals("SHOW TABLES")
                ? rows(List.of("namespace", "tableName", "isTemporary"), List.of(List.of("default", "orders", "false")))
                : rows(List.of("col_name", "data_type", "comment"), List.of(List.of("id", "bigint", ""),
                        List.of("day", "date", ""), List.of("# Partition Information", "", ""), List.of("day", "date", ""))));
        assertThat(names.tables()).containsExactly("orders");
        assertThat(names.columns("orders")).as("up to DESCRIBE's extra sections").containsExactly("id", "day");
    }

    @Test
    void theTablesATextNames() {
        assertThat(SqlCompleter.named("SELECT o.id FROM Orders o JOIN lines ON x", List.of("orders", "lines", "other")))
                .containsExactly("orders", "lines");
    }
}
