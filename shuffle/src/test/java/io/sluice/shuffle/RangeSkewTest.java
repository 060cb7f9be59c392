package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.Partitioning;
import io.sluice.operators.RangeBoundaries;
import io.sluice.operators.SplitPoints;
import io.sluice.operators.TaskContext;
import io.sluice.operators.basic.SampleExec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Split points from the scheduler's sampling (a {@link SampleExec} reservoir of 1,000 rows per map
 * partition, weighted by the partition's rows, {@link RangeBoundaries}), then every row placed by
 * the {@link RangePartitioner}: on Zipf-distributed keys over map partitions of very different
 * sizes, no partition receives more than twice the mean unless it holds one key alone that is
 * itself larger than that.
 */
class RangeSkewTest {
    static final Schema SCHEMA = Schema.of(new Field("k", DataType.INT64));
    static final List<SortKey> KEYS = List.of(SortKey.asc(new Column("k")));
    static final int SAMPLE_ROWS = 1000; // SplitPointResolver.SAMPLE_ROWS_PER_PARTITION
    static final int PARTITIONS = 8;

    private BufferAllocator root;

    @BeforeEach
    void start() {
        root = new RootAllocator();
    }

    @AfterEach
    void stop() {
        root.close();
    }

    /** Zipf(s) ranks 1..n by inverse CDF, mapped to keys by a fixed random permutation (heavy keys anywhere in key order). */
    static long[] zipf(Random random, int rows, int n, double s, long[] rankToKey) {
        double[] cdf = new double[n];
        double total = 0;
        for (int r = 1; r <= n; r++) {
            total += 1 / Math.pow(r, s);
            cdf[r - 1] = total;
        }
        long[] out = new long[rows];
        for (int i = 0; i < rows; i++) {
            double u = random.nextDouble() * total;
            int lo = 0;
            int hi = n - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cdf[mid] < u) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            out[i] = rankToKey[lo];
        }
        return out;
    }

    static long[] permutation(Random random, int n, long spread) {
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i * spread;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = keys[i];
            keys[i] = keys[j];
            keys[j] = t;
        }
        return keys;
    }

    /** Map partitions as batches of 4096 rows. */
    static ShuffleTestSource source(List<long[]> partitionKeys) {
        List<List<Col[]>> partitions = new ArrayList<>();
        for (long[] keys : partitionKeys) {
            List<Col[]> batches = new ArrayList<>();
            for (int from = 0; from < keys.length; from += 4096) {
                int n = Math.min(4096, keys.length - from);
                batches.add(new Col[] {Col.ofLongs(DataType.INT64, java.util.Arrays.copyOfRange(keys, from, from + n), null)});
            }
            partitions.add(batches);
        }
        return new ShuffleTestSource(SCHEMA, partitions);
    }

    /** Samples every map partition, computes the boundaries and counts the rows each range partition receives. */
    private long[] placedRows(List<long[]> partitionKeys) {
        ShuffleTestSource source = source(partitionKeys);
        SampleExec sample = new SampleExec(source, KEYS, SAMPLE_ROWS);
        List<Batch> samples = new ArrayList<>();
        List<List<Object>> boundaries;
        try (BufferAllocator allocator = root.newChildAllocator("sample", 0, 64L << 20)) {
            try {
                for (int p = 0; p < partitionKeys.size(); p++) {
                    TaskContext context = new TaskContext("sample-" + p, allocator, 8192, Map.of());
                    try (BatchStream stream = sample.execute(p, context)) {
                        for (Batch b = stream.next(); b != null; b = stream.next()) {
                            samples.add(b);
                        }
                    }
                }
                boundaries = RangeBoundaries.computeFromBatches(samples, KEYS, PARTITIONS);
            } finally {
                samples.forEach(Batch::close);
            }
            Partitioning.Range range = new Partitioning.Range(KEYS, SplitPoints.unresolved("range-skew"), PARTITIONS)
                    .withBoundaries(boundaries);
            RangePartitioner partitioner = new RangePartitioner(range, SCHEMA);
            long[] counts = new long[PARTITIONS];
            for (long[] keys : partitionKeys) {
                try (Batch batch = Batch.of(SCHEMA, new Col[] {Col.ofLongs(DataType.INT64, keys, null)}, keys.length, allocator)) {
                    for (int target : partitioner.partitions(batch)) {
                        counts[target]++;
                    }
                }
            }
            return counts;
        }
    }

    /** Each partition is at most twice the mean, or one key alone larger than that. */
    private static void assertBalanced(long[] counts, List<long[]> partitionKeys) {
        long total = 0;
        Map<Long, Long> perKey = new HashMap<>();
        for (long[] keys : partitionKeys) {
            total += keys.length;
            for (long k : keys) {
                perKey.merge(k, 1L, Long::sum);
            }
        }
        assertThat(java.util.Arrays.stream(counts).sum()).isEqualTo(total);
        double bound = 2.0 * total / PARTITIONS;
        long heaviest = perKey.values().stream().mapToLong(Long::longValue).max().orElse(0);
        for (int p = 0; p < counts.length; p++) {
            if (counts[p] > bound) {
                assertThat(perKey).as("partition %d holds %d rows (bound %.0f): only one key alone may exceed it; counts %s",
                        p, counts[p], bound, java.util.Arrays.toString(counts)).containsValue(counts[p]);
                assertThat(counts[p]).isEqualTo(heaviest);
            }
        }
    }

    @Test
    void zipfKeysOverUnevenMapPartitionsStayWithinTwiceTheMean() {
        for (double s : new double[] {0.8, 1.1, 1.5}) {
            Random random = new Random(42);
            long[] rankToKey = permutation(random, 20_000, 3);
            List<long[]> partitions = new ArrayList<>();
            for (int rows : new int[] {3_000, 40_000, 120_000, 17_000}) {
                partitions.add(zipf(random, rows, 20_000, s, rankToKey));
            }
            long[] counts = placedRows(partitions);
            assertBalanced(counts, partitions);
        }
    }

    /**
     * A small map partition with widely spread keys beside a large one with a narrow range: an
     * unweighted sample (half from each) would put the cuts among the small partition's keys and
     * leave nearly all rows in one range partition; weighted by rows, the cuts fall in the large one.
     */
    @Test
    void samplesWeighByTheirPartitionsRows() {
        Random random = new Random(7);
        long[] spread = new long[2_000];
        for (int i = 0; i < spread.length; i++) {
            spread[i] = random.nextInt(1_000_000);
        }
        long[] narrow = new long[150_000];
        for (int i = 0; i < narrow.length; i++) {
            narrow[i] = random.nextInt(10_000);
        }
        List<long[]> partitions = List.of(spread, narrow);
        long[] counts = placedRows(partitions);
        assertBalanced(counts, partitions);
        double mean = (spread.length + narrow.length) / (double) PARTITIONS;
        for (long c : counts) {
            assertThat((double) c).isBetween(0.7 * mean, 1.3 * mean);
        }
    }
}
