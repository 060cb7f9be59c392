package io.sluice.sql;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;

/** A hand-built catalog for SQL tests: no files are read. */
final class SqlTestTables {
    static final TableSource T = new TableSource("t", FileFormat.PARQUET, "/data/t", Schema.of(
            new Field("k", DataType.UTF8),
            new Field("v", DataType.INT64),
            new Field("d", DataType.decimal(10, 2)),
            new Field("day", DataType.DATE32),
            new Field("flag", DataType.BOOL)));

    private SqlTestTables() {
    }

    static InMemoryCatalog catalog() {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.register(T);
        catalog.register(new TableSource("u", FileFormat.CSV, "/data/u.csv", Schema.of(new Field("a", DataType.INT64))));
        return catalog;
    }

    /** The plan of a query, as {@code LogicalPlan.explain()} prints it. */
    static String plan(String sql) {
        Statement s = SqlFrontEnd.parse(sql, catalog());
        if (!(s instanceof Statement.Query q)) {
            throw new AssertionError("not a query: " + s);
        }
        return q.plan().explain();
    }

    static LogicalPlan logical(String sql) {
        return ((Statement.Query) SqlFrontEnd.parse(sql, catalog())).plan();
    }
}
