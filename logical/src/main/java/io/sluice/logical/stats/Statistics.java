package io.sluice.logical.stats;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * What the optimizer knows of a relation: its row count and size in bytes (always a number, exact or
 * estimated) and one {@link ColumnStatistics} per output column, in schema order.
 */
public record Statistics(Estimate rows, Estimate bytes, List<ColumnStatistics> columns) {
    /** Rows assumed for a relation nothing is known about. */
    public static final double DEFAULT_ROWS = 1000;

    public Statistics {
        requireNonNull(rows, "rows is null");
        requireNonNull(bytes, "bytes is null");
        if (!rows.isKnown() || !bytes.isKnown()) {
            throw new IllegalArgumentException("rows and bytes are always estimated, at least inexactly");
        }
        columns = List.copyOf(columns);
    }

    /** Statistics whose bytes are the rows times the columns' average widths. */
    public static Statistics of(Estimate rows, List<ColumnStatistics> columns) {
        double width = 0;
        for (ColumnStatistics c : columns) {
            width += c.averageWidth();
        }
        Estimate bytes = new Estimate(rows.value() * width, rows.precision() == Estimate.Precision.EXACT
                ? Estimate.Precision.INEXACT : rows.precision());
        return new Statistics(rows, bytes, columns);
    }

    /** A relation of {@code schema} about which nothing is known but an assumed row count. */
    public static Statistics unknown(Schema schema, double rows) {
        List<ColumnStatistics> columns = new ArrayList<>();
        for (Field f : schema.fields()) {
            columns.add(ColumnStatistics.unknown(f.type()));
        }
        return of(Estimate.inexact(rows), columns);
    }

    public double rowCount() {
        return rows.value();
    }

    public ColumnStatistics column(int index) {
        return columns.get(index);
    }

    /** These statistics with {@code newRows} rows (a filter's or limit's output): counts capped by them. */
    public Statistics withRows(Estimate newRows) {
        List<ColumnStatistics> out = new ArrayList<>(columns.size());
        for (ColumnStatistics c : columns) {
            out.add(newRows.precision() == Estimate.Precision.EXACT && newRows.value() == rows.value() ? c
                    : c.capped(newRows.value()));
        }
        return of(newRows, out);
    }

    @Override
    public String toString() {
        return "rows=" + rows + " bytes=" + bytes;
    }
}
