package io.sluice.connect;

import io.sluice.common.types.DataType;
import io.sluice.kernels.QueryResult;
import io.sluice.kernels.ValueFormat;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code df.show()}'s text as Spark prints it: a boxed table, cells right-aligned when truncating
 * (left-aligned otherwise), at least three characters wide, NULL as {@code NULL}, cells longer than
 * {@code truncate} cut to {@code truncate - 3} characters and {@code ...}, then "only showing top N
 * rows" when the result had more; or one block per row when vertical.
 */
final class ShowString {
    private ShowString() {
    }

    /** @param rows at most {@code numRows + 1} rows of the result: one more says that there are more */
    static String format(QueryResult rows, int numRows, int truncate, boolean vertical) {
        boolean more = rows.rows().size() > numRows;
        List<List<Object>> shown = rows.rows().subList(0, Math.min(numRows, rows.rows().size()));
        List<String> names = rows.schema().names();
        List<String[]> cells = new ArrayList<>();
        for (List<Object> row : shown) {
            String[] line = new String[names.size()];
            for (int i = 0; i < line.length; i++) {
                line[i] = cut(cell(row.get(i), rows.schema().field(i).type()), truncate);
            }
            cells.add(line);
        }
        String[] header = names.stream().map(n -> cut(n, truncate)).toArray(String[]::new);
        StringBuilder out = new StringBuilder();
        if (vertical) {
            vertical(out, header, cells);
        } else {
            table(out, header, cells, truncate > 0);
        }
        if (more) {
            out.append("only showing top ").append(numRows).append(numRows == 1 ? " row\n" : " rows\n");
        }
        return out.toString();
    }

    private static void table(StringBuilder out, String[] header, List<String[]> cells, boolean rightAligned) {
        int[] widths = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            widths[i] = Math.max(3, header[i].length());
            for (String[] line : cells) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder rule = new StringBuilder("+");
        for (int w : widths) {
            rule.append("-".repeat(w)).append('+');
        }
        rule.append('\n');
        out.append(rule);
        line(out, header, widths, rightAligned);
        out.append(rule);
        for (String[] line : cells) {
            line(out, line, widths, rightAligned);
        }
        out.append(rule);
    }

    private static void line(StringBuilder out, String[] values, int[] widths, boolean rightAligned) {
        out.append('|');
        for (int i = 0; i < values.length; i++) {
            String pad = " ".repeat(widths[i] - values[i].length());
            out.append(rightAligned ? pad + values[i] : values[i] + pad).append('|');
        }
        out.append('\n');
    }

    private static void vertical(StringBuilder out, String[] header, List<String[]> cells) {
        int nameWidth = 0;
        int valueWidth = 0;
        for (String h : header) {
            nameWidth = Math.max(nameWidth, h.length());
        }
        for (String[] line : cells) {
            for (String v : line) {
                valueWidth = Math.max(valueWidth, v.length());
            }
        }
        if (cells.isEmpty()) {
            out.append("(0 rows)\n");
            return;
        }
        for (int r = 0; r < cells.size(); r++) {
            String head = "-RECORD " + r;
            out.append(head).append("-".repeat(Math.max(0, nameWidth + valueWidth + 3 - head.length()))).append('\n');
            for (int i = 0; i < header.length; i++) {
                out.append(' ').append(header[i]).append(" ".repeat(nameWidth - header[i].length())).append(" | ")
                        .append(cells.get(r)[i]).append(" ".repeat(valueWidth - cells.get(r)[i].length())).append('\n');
            }
        }
    }

    private static String cell(Object value, DataType type) {
        return value == null ? "NULL" : ValueFormat.formatObject(value, type);
    }

    private static String cut(String text, int truncate) {
        if (truncate <= 0 || text.length() <= truncate) {
            return text;
        }
        return truncate < 4 ? text.substring(0, truncate) : text.substring(0, truncate - 3) + "...";
    }
}
