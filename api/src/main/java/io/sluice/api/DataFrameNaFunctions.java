package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Spark's {@code df.na()}: replacing and dropping NULLs, and replacing values. As in Spark, a fill
 * value applies only to the columns of a matching type (a number to numeric columns, a string to
 * string columns, a boolean to boolean ones); named columns that do not exist are an error naming them.
 */
public final class DataFrameNaFunctions {
    private final DataFrame df;

    DataFrameNaFunctions(DataFrame df) {
        this.df = requireNonNull(df, "df is null");
    }

    /** NULLs of every column of a matching type replaced by {@code value}. */
    public DataFrame fill(Object value) {
        return fill(value, df.columns());
    }

    /** NULLs of the named columns (those of a matching type) replaced by {@code value}. */
    public DataFrame fill(Object value, String... columns) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (String c : columns) {
            Field f = df.schema().field(c);
            if (matches(f.type(), value)) {
                values.put(f.name(), value);
            }
        }
        return fill(values);
    }

    /** NULLs of each named column replaced by its value. */
    public DataFrame fill(Map<String, Object> values) {
        Map<String, Column> replaced = new LinkedHashMap<>();
        values.forEach((name, value) -> {
            Field f = df.schema().field(name);
            replaced.put(f.name(), Functions.coalesce(Functions.col(f.name()), Functions.lit(value).cast(f.type())));
        });
        return replaced.isEmpty() ? df : df.withColumns(replaced);
    }

    private static boolean matches(DataType type, Object value) {
        return switch (type.kind()) {
            case INT32, INT64, FLOAT64, DECIMAL -> value instanceof Number;
            case UTF8 -> value instanceof String;
            case BOOL -> value instanceof Boolean;
            default -> false;
        };
    }

    /** Rows without a NULL in any column. */
    public DataFrame drop() {
        return drop("any");
    }

    /** {@code "any"}: rows with a NULL in some column dropped; {@code "all"}: rows NULL in every column. */
    public DataFrame drop(String how) {
        return drop(how, df.columns());
    }

    public DataFrame drop(String how, String... columns) {
        return switch (how.toLowerCase(Locale.ROOT)) {
            case "any" -> drop(columns.length, columns);
            case "all" -> drop(1, columns);
            default -> throw new SluiceException("na().drop(how): how must be 'any' or 'all', not '" + how + "'");
        };
    }

    /** Rows with at least {@code minNonNulls} non-NULL values among all columns. */
    public DataFrame drop(int minNonNulls) {
        return drop(minNonNulls, df.columns());
    }

    /** Rows with at least {@code minNonNulls} non-NULL values among the named columns. */
    public DataFrame drop(int minNonNulls, String... columns) {
        Column nonNulls = null;
        for (String c : columns) {
            Column one = Functions.when(Functions.col(df.schema().field(c).name()).isNotNull(), 1).otherwise(0);
            nonNulls = nonNulls == null ? one : nonNulls.plus(one);
        }
        return nonNulls == null ? df : df.filter(nonNulls.geq(minNonNulls));
    }

    /** In the named columns ({@code "*"}: all), each value that is a key of {@code replacement} becomes its value. */
    public DataFrame replace(String column, Map<?, ?> replacement) {
        return replace(column.equals("*") ? df.columns() : new String[] {column}, replacement);
    }

    public DataFrame replace(String[] columns, Map<?, ?> replacement) {
        if (replacement.isEmpty()) {
            return df;
        }
        Map<String, Column> replaced = new LinkedHashMap<>();
        List<String> names = new ArrayList<>(Arrays.asList(columns));
        for (String name : names) {
            Field f = df.schema().field(name);
            Object sample = replacement.keySet().iterator().next();
            if (!matches(f.type(), sample)) {
                continue;
            }
            Column c = Functions.col(f.name());
            Column out = null;
            for (Map.Entry<?, ?> e : replacement.entrySet()) {
                Column value = Functions.lit(e.getValue()).cast(f.type());
                out = out == null ? Functions.when(c.eq(e.getKey()), value) : out.when(c.eq(e.getKey()), value);
            }
            replaced.put(f.name(), out.otherwise(c));
        }
        return replaced.isEmpty() ? df : df.withColumns(replaced);
    }
}
