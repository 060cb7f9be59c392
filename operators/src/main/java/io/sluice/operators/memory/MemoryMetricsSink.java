package io.sluice.operators.memory;

/** Where a reservation reports its operator's peak memory and spills, and its operator its builds and files opened (EXPLAIN ANALYZE's counters). */
public interface MemoryMetricsSink {
    MemoryMetricsSink NONE = new MemoryMetricsSink() {
        @Override
        public void peakMemory(long bytes) {
        }

        @Override
        public void spilled(long bytes, long nanos) {
        }
    };

    /** The reservation now holds {@code bytes}, more than ever before. */
    void peakMemory(long bytes);

    /** One spill of {@code bytes} (as written to disk) that took {@code nanos}. */
    void spilled(long bytes, long nanos);

    /**
     * The operator built a hash table (a join's build side) instead of using one another task of
     * its stage built on this worker; EXPLAIN ANALYZE counts these ({@code builds=}).
     */
    default void built() {
    }

    /** The operator opened a data file (a scan); EXPLAIN ANALYZE counts these ({@code files_opened=}). */
    default void fileOpened() {
    }

    /**
     * The operator (a scan) read {@code rows} rows whose columns other than those of a row test it
     * applied were never decoded; EXPLAIN ANALYZE counts these ({@code rows_skipped=}).
     */
    default void rowsSkipped(long rows) {
    }
}
