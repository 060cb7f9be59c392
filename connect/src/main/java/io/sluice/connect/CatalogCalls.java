package io.sluice.connect;

import io.sluice.api.DataFrame;
import io.sluice.api.FrontEnds;
import io.sluice.api.SessionCatalog;
import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.connect.proto.Catalog;
import io.sluice.kernels.QueryResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The calls of Spark's {@code spark.catalog} a client makes, answered from the session's catalog in
 * the shapes Spark's client decodes: {@code tableExists} and {@code dropTempView} a boolean,
 * {@code listTables} rows of Spark's {@code Table}, {@code currentDatabase} {@code default}.
 */
final class CatalogCalls {
    private CatalogCalls() {
    }

    static DataFrame translate(Catalog call, ConnectSession session) {
        SessionCatalog catalog = session.api().catalog();
        return switch (call.getCatTypeCase()) {
            case TABLE_EXISTS -> bool(session, catalog.tableExists(call.getTableExists().getTableName()));
            case DROP_TEMP_VIEW -> bool(session, catalog.dropTempView(call.getDropTempView().getViewName()));
            case CURRENT_DATABASE -> text(session, "default");
            case CURRENT_CATALOG -> text(session, "spark_catalog");
            case LIST_TABLES -> listTables(session, catalog.listTables());
            default -> throw new SluiceException("spark.catalog call " + call.getCatTypeCase().name().toLowerCase(Locale.ROOT)
                    + " is not supported by Sluice");
        };
    }

    private static DataFrame bool(ConnectSession session, boolean value) {
        return FrontEnds.dataFrame(session.api(), new QueryResult(Schema.of(new Field("value", DataType.BOOL)),
                List.of(List.of(value))));
    }

    private static DataFrame text(ConnectSession session, String value) {
        return FrontEnds.dataFrame(session.api(), new QueryResult(Schema.of(new Field("value", DataType.UTF8)),
                List.of(List.of(value))));
    }

    private static DataFrame listTables(ConnectSession session, List<String> names) {
        Schema schema = Schema.of(new Field("name", DataType.UTF8), new Field("catalog", DataType.UTF8),
                new Field("description", DataType.UTF8), new Field("tableType", DataType.UTF8),
                new Field("isTemporary", DataType.BOOL));
        List<List<Object>> rows = new ArrayList<>();
        for (String name : names) {
            boolean view = session.catalog().view(name) != null;
            List<Object> row = new ArrayList<>();
            row.add(name);
            row.add("spark_catalog");
            row.add(null);
            row.add(view ? "TEMPORARY" : "EXTERNAL");
            row.add(view);
            rows.add(row);
        }
        return FrontEnds.dataFrame(session.api(), new QueryResult(schema, rows));
    }
}
