package io.sluice.cli.shell;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.QueryResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The table and column names completion offers, asked of the engine ({@code SHOW TABLES},
 * {@code DESCRIBE t}) when first needed and kept until the next statement runs, which may change
 * them. A failed question offers nothing and is asked again next time.
 */
final class CatalogNames {
    private static final List<String> TABLE_COLUMNS = List.of("tablename", "name", "table_name");
    private static final List<String> COLUMN_COLUMNS = List.of("col_name", "column_name", "name");

    private final Function<String, QueryResult> query;
    private List<String> tables;
    private final Map<String, List<String>> columns = new HashMap<>();

    /** {@code query} runs a query on the session and returns its rows. */
    CatalogNames(Function<String, QueryResult> query) {
        this.query = requireNonNull(query, "query is null");
    }

    synchronized List<String> tables() {
        if (tables == null) {
            tables = names(query.apply("SHOW TABLES"), TABLE_COLUMNS);
        }
        return tables;
    }

    synchronized List<String> columns(String table) {
        String key = table.toLowerCase(Locale.ROOT);
        List<String> known = columns.get(key);
        if (known == null) {
            known = names(query.apply("DESCRIBE " + table), COLUMN_COLUMNS);
            columns.put(key, known);
        }
        return known;
    }

    /** Forgets every name: the statement just run may have created, dropped or altered tables. */
    synchronized void forget() {
        tables = null;
        columns.clear();
    }

    /**
     * The values of the first column named as one of {@code preferred} (else of the first column),
     * up to a blank or {@code #} row, where DESCRIBE's extra sections start.
     */
    private static List<String> names(QueryResult result, List<String> preferred) {
        List<String> fields = result.schema().names().stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
        int column = preferred.stream().mapToInt(fields::indexOf).filter(i -> i >= 0).findFirst().orElse(0);
        List<String> out = new ArrayList<>();
        for (List<Object> row : result.rows()) {
            Object value = row.get(column);
            if (value == null || value.toString().isBlank() || value.toString().startsWith("#")) {
                break;
            }
            out.add(value.toString());
        }
        return List.copyOf(out);
    }
}
