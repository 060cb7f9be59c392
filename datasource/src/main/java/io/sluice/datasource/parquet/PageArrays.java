package io.sluice.datasource.parquet;

import java.util.ArrayList;
import java.util.List;

/**
 * The arrays that a scan's compressed pages are decompressed into, one per column, handed from
 * one row group's decoder of that column to the next one's.
 *
 * <p>Why: writers such as DuckDB put a column chunk of a row group in one page (122,880 values,
 * about 1 MiB for a long column), so a decoder sees one page and an array of its own was a new
 * large array (a humongous object for G1) zeroed and page-faulted in for every column of every
 * row group. Caveats: the row groups of one scan are decoded one after another on one thread
 * ({@code SequentialStream} drains and closes a stream before the next), which is what makes the
 * handing over safe; nothing reads a page's array once its decoder opens the next page. An array
 * is as large as the largest page of its column seen by this scan, held until the scan ends.
 */
final class PageArrays {
    private final List<Slot> slots = new ArrayList<>();

    /** The array holder of column {@code column}, the same one for every row group of this scan. */
    synchronized Slot column(int column) {
        if (column < 0) {
            throw new IllegalArgumentException("column is negative: " + column);
        }
        while (slots.size() <= column) {
            slots.add(new Slot());
        }
        return slots.get(column);
    }

    /** One column's array, grown to the largest page asked for. */
    static final class Slot {
        private byte[] array = new byte[0];

        /** An array of at least {@code size} bytes; its contents are the caller's to overwrite. */
        byte[] atLeast(int size) {
            if (size < 0) {
                throw new IllegalArgumentException("size is negative: " + size);
            }
            if (array.length < size) {
                array = new byte[Math.max(size, array.length + (array.length >> 1))];
            }
            return array;
        }
    }
}
