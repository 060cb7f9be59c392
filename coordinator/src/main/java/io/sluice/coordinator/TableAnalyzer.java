package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.datasource.FileFormats;
import io.sluice.kernels.QueryResult;
import io.sluice.logical.source.TableSource;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ANALYZE TABLE}: exact statistics from jobs on the cluster (the row count, and per named
 * column its distinct values, NULLs, min and max), kept for the table's current files
 * ({@link FileFormats#recordAnalyzed}); columns not named keep what the footers say.
 */
final class TableAnalyzer {
    private final ResultProducer results;

    TableAnalyzer(ResultProducer results) {
        this.results = requireNonNull(results, "results is null");
    }

    /** Analyzes the table and says what was analyzed. */
    String analyze(Statement.AnalyzeTable analyze, QueryConfig config, InMemoryCatalog catalog,
            QueryScope scope) {
        TableSource table = analyze.table();
        String from = " FROM " + quote(table.name());
        long rows = (Long) query("SELECT count(*)" + from, config, catalog, scope).get(0);
        Statistics known = FileFormats.statistics(table);
        List<ColumnStatistics> columns = new ArrayList<>(known.columns());
        for (String column : analyze.columns()) {
            String c = quote(column);
            int nestedIndex = table.schema().indexOf(column);
            if (table.schema().field(nestedIndex).type().isNested()) {
                // nested values have no order nor distinct count here: only their NULLs are counted
                long nonNull = (Long) query("SELECT count(" + c + ")" + from, config, catalog, scope).get(0);
                columns.set(nestedIndex, new ColumnStatistics(Estimate.ABSENT, Estimate.exact(rows - nonNull), null, null,
                        Estimate.Precision.ABSENT, known.column(nestedIndex).averageWidth()));
                continue;
            }
            List<Object> r = query("SELECT count(DISTINCT " + c + "), count(" + c + "), min(" + c + "), max(" + c + ")" + from,
                    config, catalog, scope);
            int index = table.schema().indexOf(column);
            DataType type = table.schema().field(index).type();
            Object min = statisticsValue(r.get(2), type);
            Object max = statisticsValue(r.get(3), type);
            columns.set(index, new ColumnStatistics(Estimate.exact((Long) r.get(0)), Estimate.exact(rows - (Long) r.get(1)),
                    min, max, min == null ? Estimate.Precision.ABSENT : Estimate.Precision.EXACT,
                    known.column(index).averageWidth()));
        }
        FileFormats.recordAnalyzed(table, Statistics.of(Estimate.exact(rows), columns));
        return "analyzed table " + table.name() + ": " + rows + " rows" + (analyze.columns().isEmpty() ? ""
                : ", columns " + String.join(", ", analyze.columns()));
    }

    /** The single row of a query's result, its names resolved in {@code catalog} (the statement's own). */
    private List<Object> query(String sql, QueryConfig config, InMemoryCatalog catalog, QueryScope scope) {
        Statement.Query statement = (Statement.Query) SqlFrontEnd.parse(sql, catalog);
        return QueryResult.fromIpc(results.run(statement.plan(), config, sql, scope)).rows().get(0);
    }

    private static String quote(String name) {
        return '`' + name.replace("`", "``") + '`'; // a quoted name in every dialect
    }

    /** A result value as table statistics hold it (as the Parquet footers give it): epoch days, unscaled decimals. */
    private static Object statisticsValue(Object value, DataType type) {
        if (value instanceof LocalDate date) {
            return date.toEpochDay();
        }
        if (value instanceof BigDecimal decimal) {
            BigInteger unscaled = decimal.setScale(type.scale(), RoundingMode.UNNECESSARY).unscaledValue();
            return unscaled.bitLength() < 64 ? (Object) unscaled.longValue() : null; // past a long: unknown, as Parquet's
        }
        if (value instanceof Integer i) {
            return i.longValue();
        }
        return value;
    }
}
