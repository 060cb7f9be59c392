package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Col;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects one output partition's rows, as heap {@link Col}s, across input batches, so a block
 * gets record batches near the task's batch size instead of one sliver per input batch (with
 * many partitions each input batch gives every partition only a few rows). Holds no Arrow memory.
 */
final class PartitionBuffer {
    private final int columnCount;
    private final List<Col[]> pieces = new ArrayList<>();
    private int rows;

    PartitionBuffer(int columnCount) {
        if (columnCount < 0) {
            throw new IllegalArgumentException("negative column count " + columnCount);
        }
        this.columnCount = columnCount;
    }

    int rows() {
        return rows;
    }

    void add(Col[] columns) {
        requireNonNull(columns, "columns is null");
        if (columns.length != columnCount) {
            throw new IllegalArgumentException("got " + columns.length + " columns, expected " + columnCount);
        }
        int count = columns.length == 0 ? 0 : columns[0].length;
        pieces.add(columns);
        rows += count;
    }

    /** The buffered rows in arrival order, as one set of columns; the buffer is empty afterwards. */
    Col[] drain() {
        Col[] out = new Col[columnCount];
        if (pieces.size() == 1) {
            System.arraycopy(pieces.get(0), 0, out, 0, columnCount);
        } else {
            for (int c = 0; c < columnCount; c++) {
                out[c] = concat(c);
            }
        }
        pieces.clear();
        rows = 0;
        return out;
    }

    private Col concat(int column) {
        Col first = pieces.get(0)[column];
        boolean anyNulls = false;
        for (Col[] piece : pieces) {
            anyNulls |= piece[column].nulls != null;
        }
        Col out = Col.allocate(first.type, rows, anyNulls);
        int at = 0;
        for (Col[] piece : pieces) {
            Col part = piece[column];
            int n = part.length;
            switch (first.type.kind()) {
                case FLOAT64 -> System.arraycopy(part.doubles, 0, out.doubles, at, n);
                case BOOL, NULL -> System.arraycopy(part.bools, 0, out.bools, at, n);
                case UTF8 -> System.arraycopy(part.strings, 0, out.strings, at, n);
                default -> System.arraycopy(part.longs, 0, out.longs, at, n);
            }
            if (part.nulls != null) {
                System.arraycopy(part.nulls, 0, out.nulls, at, n);
            }
            at += n;
        }
        return out;
    }
}
