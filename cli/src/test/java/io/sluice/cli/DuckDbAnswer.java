package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Checks {@code sluice sql --format csv} output against DuckDB's answer to the same query. CSV
 * fields are text, so each is typed by DuckDB's column type first and then normalized as
 * {@link DuckDbOracle#normalize} does for both engines.
 */
final class DuckDbAnswer {
    private DuckDbAnswer() {
    }

    /** Header names and rows of {@code csv} equal DuckDB's for {@code query} (row order included). */
    static void assertSame(DuckDbOracle duck, String query, String csv) throws Exception {
        List<List<Object>> columns = duck.query("DESCRIBE " + query);
        List<String> names = columns.stream().map(c -> c.get(0).toString().toLowerCase(Locale.ROOT)).toList();
        List<String> types = columns.stream().map(c -> c.get(1).toString().toUpperCase(Locale.ROOT)).toList();

        List<List<String>> records = CsvOutput.parse(csv);
        assertThat(records).as("CSV output of %s", query).isNotEmpty();
        assertThat(records.get(0).stream().map(n -> n.toLowerCase(Locale.ROOT)).toList()).as("header of %s", query)
                .isEqualTo(names);
        List<List<Object>> actual = new ArrayList<>();
        for (List<String> record : records.subList(1, records.size())) {
            assertThat(record).as("a row of %s", query).hasSameSizeAs(names);
            List<Object> row = new ArrayList<>();
            for (int i = 0; i < record.size(); i++) {
                row.add(DuckDbOracle.normalize(typed(record.get(i), types.get(i))));
            }
            actual.add(row);
        }
        assertThat(actual).as(query).isEqualTo(duck.query(query));
    }

    private static Object typed(String field, String duckType) {
        if (field == null) {
            return null;
        }
        if (duckType.startsWith("DECIMAL")) {
            return new BigDecimal(field);
        }
        return switch (duckType) {
            case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT" ->
                    new BigInteger(field);
            case "DOUBLE", "FLOAT", "REAL" -> Double.parseDouble(field);
            default -> field; // VARCHAR; DATE and BOOLEAN print as their normalized text already
        };
    }
}
