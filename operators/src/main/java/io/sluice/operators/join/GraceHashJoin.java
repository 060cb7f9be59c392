package io.sluice.operators.join;

import io.sluice.common.HashMix;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.kernels.KeyHash;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.ColChunks;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import io.sluice.operators.hash.JoinHashTable;
import io.sluice.operators.memory.MemoryReservation;
import io.sluice.operators.memory.SpillFiles;
import io.sluice.operators.memory.SpillRun;
import java.nio.file.Path;
import java.util.List;

/**
 * A hash join whose build side does not fit in memory (a grace hash join): both sides are split by
 * a hash of their join keys into {@value #PARTITIONS} partitions written to disk, then joined
 * partition by partition with the ordinary in-memory join ({@link HashJoinStream}): equal keys
 * land in the same partition, so each probe row meets all its candidates there. Rows with a NULL
 * key, which match nothing, go to partition 0 with the rest, where the join treats them as usual
 * (an outer or anti join outputs them unmatched). Not for {@code NOT IN}
 * ({@code LEFT_ANTI_NULL_AWARE}), whose answer depends on the whole build side.
 *
 * <p>A partition whose build rows still do not fit is split again the same way, by other bits of
 * the key hash (a new salt per level), its two files read back into {@value #PARTITIONS}
 * sub-partitions each, down to {@value #MAX_LEVELS} levels ({@value #PARTITIONS}^3 partitions in
 * all). One that does not fit at the last level (many rows of one key, which no split separates)
 * fails the task with the memory message naming the join and the partition.
 */
public final class GraceHashJoin implements BatchStream {
    static final int PARTITIONS = 32;
    /** Levels of splitting: the first split, then re-splits of partitions that do not fit. */
    static final int MAX_LEVELS = 3;
    private static final long[] SALTS = {0x5DEECE66DL, 0x9E3779B97F4A7C15L, 0xC2B2AE3D27D4EB4FL};

    private final HashJoinExec join;
    private final Schema buildSchema;
    private final Schema probeSchema;
    private final List<Expr> buildKeys;
    private final List<Expr> probeKeys;
    private final DataType[] keyTypes;
    private final TaskContext context;
    private final Path[] buildFiles;
    private final Path[] probeFiles;
    private final int level;
    /** The partition this join re-splits ("" at the first level, else e.g. "5." or "5.17."). */
    private final String label;
    private int partition = -1;
    private BatchStream current;

    static boolean supports(JoinType type) {
        return type != JoinType.LEFT_ANTI_NULL_AWARE;
    }

    private GraceHashJoin(HashJoinExec join, Schema buildSchema, Schema probeSchema, List<Expr> buildKeys,
            List<Expr> probeKeys, DataType[] keyTypes, TaskContext context, Path[] buildFiles, Path[] probeFiles,
            int level, String label) {
        this.level = level;
        this.label = label;
        this.join = join;
        this.buildSchema = buildSchema;
        this.probeSchema = probeSchema;
        this.buildKeys = buildKeys;
        this.probeKeys = probeKeys;
        this.keyTypes = keyTypes;
        this.context = context;
        this.buildFiles = buildFiles;
        this.probeFiles = probeFiles;
    }

    /**
     * Partitions to disk the build rows read so far ({@code chunks}, whose reservation is then
     * closed), the rest of the build input and the whole probe input, and returns the join of the
     * partitions one after the other. Closes both input streams.
     */
    static BatchStream start(HashJoinExec join, JoinSupport.BuildChunks chunks, BatchStream buildRest,
            MemoryReservation reservation, Schema buildSchema, List<Expr> buildKeys, Schema probeSchema,
            List<Expr> probeKeys, DataType[] keyTypes, java.util.function.Supplier<BatchStream> probeInput,
            TaskContext context) {
        return start(join, chunks, buildRest, reservation, buildSchema, buildKeys, probeSchema, probeKeys, keyTypes,
                probeInput, context, 0, "");
    }

    private static BatchStream start(HashJoinExec join, JoinSupport.BuildChunks chunks, BatchStream buildRest,
            MemoryReservation reservation, Schema buildSchema, List<Expr> buildKeys, Schema probeSchema,
            List<Expr> probeKeys, DataType[] keyTypes, java.util.function.Supplier<BatchStream> probeInput,
            TaskContext context, int level, String label) {
        Path[] buildFiles;
        Path[] probeFiles = null;
        try (PartitionWriters build = new PartitionWriters(buildSchema, "join-build", context, reservation, level)) {
            try (BatchStream rest = buildRest; chunks) {
                List<Batch> held = chunks.drain();
                try {
                    for (int i = 0; i < held.size(); i++) {
                        build.write(held.get(i).columns(), chunks.keys.get(i));
                    }
                } finally {
                    held.forEach(Batch::close);
                }
                chunks.keys.clear();
                reservation.free();
                build.writeAll(rest, buildKeys);
            }
            buildFiles = build.finish();
        } catch (RuntimeException | Error e) {
            reservation.close();
            throw e;
        }
        try (PartitionWriters probe = new PartitionWriters(probeSchema, "join-probe", context, reservation, level)) {
            try (BatchStream in = probeInput.get()) {
                probe.writeAll(in, probeKeys);
            }
            probeFiles = probe.finish();
        } catch (RuntimeException | Error e) {
            deleteAll(buildFiles);
            throw e;
        } finally {
            reservation.close();
        }
        return new GraceHashJoin(join, buildSchema, probeSchema, buildKeys, probeKeys, keyTypes, context, buildFiles,
                probeFiles, level, label);
    }

    @Override
    public Batch next() {
        while (true) {
            if (current != null) {
                Batch b = current.next();
                if (b != null) {
                    return b;
                }
                current.close();
                current = null;
            }
            if (++partition >= PARTITIONS) {
                return null;
            }
            if (buildFiles[partition] != null || probeFiles[partition] != null) {
                current = open(partition);
            }
        }
    }

    /**
     * The join of one partition: in memory (its build rows read whole, its probe rows streamed)
     * when its build rows fit, else split again below the last level.
     */
    private BatchStream open(int p) {
        String name = label + p;
        MemoryReservation reservation = context.reserve(join.describe() + " build side, partition " + name + " of "
                + PARTITIONS + (level == 0 ? "" : " (split " + (level + 1) + " times)"));
        JoinSupport.BuildChunks chunks = new JoinSupport.BuildChunks(buildSchema, context.allocator(), null);
        BatchStream buildIn = stream(buildFiles[p], buildSchema);
        buildFiles[p] = null;
        java.util.function.Supplier<BatchStream> probeIn = () -> {
            BatchStream in = stream(probeFiles[p], probeSchema);
            probeFiles[p] = null;
            return in;
        };
        boolean fits;
        try {
            fits = chunks.read(buildIn, buildKeys, reservation, level + 1 < MAX_LEVELS);
        } catch (RuntimeException | Error e) {
            buildIn.close();
            chunks.close();
            reservation.close();
            throw e;
        }
        if (!fits) {
            return start(join, chunks, buildIn, reservation, buildSchema, buildKeys, probeSchema, probeKeys, keyTypes,
                    probeIn, context, level + 1, name + ".");
        }
        JoinSupport.Collected built = null;
        try {
            buildIn.close();
            built = chunks.collected(buildSchema, buildKeys, reservation);
            JoinHashTable table = JoinHashTable.build(built.keys(), keyTypes, built.rows());
            reservation.grow(table.heapBytes());
            return new HashJoinStream(join, built, true, table, probeIn.get(), probeKeys, context, reservation);
        } catch (RuntimeException | Error e) {
            chunks.close();
            if (built != null) {
                built.columns().close();
            }
            reservation.close();
            throw e;
        }
    }

    /** The partition of a key hash at {@code level}: other bits of the hash at each level. */
    public static int partitionOf(long hash, int level) {
        return (int) ((HashMix.mix(hash ^ SALTS[level]) >>> 40) % PARTITIONS);
    }

    private BatchStream stream(Path file, Schema schema) {
        return file == null ? BatchStream.empty() : SpillRun.stream(file, schema, context.allocator());
    }

    @Override
    public void close() {
        try {
            if (current != null) {
                current.close();
                current = null;
            }
        } finally {
            deleteAll(buildFiles);
            deleteAll(probeFiles);
        }
    }

    private static void deleteAll(Path[] files) {
        for (int i = 0; i < files.length; i++) {
            if (files[i] != null) {
                SpillFiles.delete(files[i]);
                files[i] = null;
            }
        }
    }

    /** One spill writer per partition, opened on its first row; rows are routed by key hash. */
    private static final class PartitionWriters implements AutoCloseable {
        private final Schema schema;
        private final String kind;
        private final TaskContext context;
        private final MemoryReservation metrics;
        private final SpillRun.Writer[] writers = new SpillRun.Writer[PARTITIONS];
        private final long start = System.nanoTime();
        private final int level;
        private boolean finished;

        PartitionWriters(Schema schema, String kind, TaskContext context, MemoryReservation metrics, int level) {
            this.level = level;
            this.schema = schema;
            this.kind = kind;
            this.context = context;
            this.metrics = metrics;
        }

        void writeAll(BatchStream in, List<Expr> keyExprs) {
            BoundExprs bound = null; // bound to the first batch's schema
            Batch next;
            while ((next = in.next()) != null) {
                try (Batch b = next) {
                    if (b.rowCount() == 0) {
                        continue;
                    }
                    if (bound == null) {
                        bound = new BoundExprs(keyExprs, b.schema());
                    }
                    Col[] keys = bound.evaluateAll(b);
                    write(b.columns(), keys);
                }
                context.checkNotCancelled();
            }
        }

        /** Routes each row to the partition of its keys' hash (a row with a NULL key to partition 0). */
        void write(Col[] columns, Col[] keys) {
            int rows = columns.length == 0 ? 0 : columns[0].length;
            long[] hashes = new long[rows];
            for (Col k : keys) {
                KeyHash.hashInto(k, hashes, rows);
            }
            int[] part = new int[rows];
            int[] counts = new int[PARTITIONS + 1];
            for (int r = 0; r < rows; r++) {
                int p = partitionOf(hashes[r], level);
                for (Col k : keys) {
                    if (k.isNull(r)) {
                        p = 0;
                        break;
                    }
                }
                part[r] = p;
                counts[p + 1]++;
            }
            for (int p = 0; p < PARTITIONS; p++) {
                counts[p + 1] += counts[p];
            }
            int[] order = new int[rows];
            int[] next = counts.clone();
            for (int r = 0; r < rows; r++) {
                order[next[part[r]]++] = r;
            }
            for (int p = 0; p < PARTITIONS; p++) {
                int n = counts[p + 1] - counts[p];
                if (n == 0) {
                    continue;
                }
                int[] rowsOfP = java.util.Arrays.copyOfRange(order, counts[p], counts[p + 1]);
                if (writers[p] == null) {
                    writers[p] = new SpillRun.Writer(context.spillFiles().newFile(kind), schema, context.allocator());
                }
                writers[p].write(ColChunks.gather(columns, rowsOfP, n), 0, n, n);
            }
        }

        /** The partitions' files (null where no row went), all written. */
        Path[] finish() {
            Path[] files = new Path[PARTITIONS];
            long bytes = 0;
            for (int p = 0; p < PARTITIONS; p++) {
                if (writers[p] != null) {
                    bytes += writers[p].finish();
                    files[p] = writers[p].file();
                }
            }
            finished = true;
            metrics.recordSpill(bytes, System.nanoTime() - start);
            return files;
        }

        /** After a failure: closes and deletes every file. */
        @Override
        public void close() {
            for (SpillRun.Writer w : writers) {
                if (w != null) {
                    w.close();
                    if (!finished) {
                        SpillFiles.delete(w.file());
                    }
                }
            }
        }
    }
}
