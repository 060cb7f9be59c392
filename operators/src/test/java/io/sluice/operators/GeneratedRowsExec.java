package io.sluice.operators;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import java.util.List;

/**
 * A test leaf that makes its rows as it goes, in fresh arrays per batch (so whatever an operator
 * keeps is its own memory): {@code id} 0..rows-1, {@code k = (id * 7919) % distinct}, and
 * {@code s}, a 12-character string of k.
 */
final class GeneratedRowsExec implements ExecutionPlan {
    static final Schema SCHEMA = Schema.of(new Field("id", DataType.INT64), new Field("k", DataType.INT64),
            new Field("s", DataType.UTF8));

    private final long rows;
    private final long distinct;
    private final String prefix;
    private final java.util.function.LongUnaryOperator keyMap;

    GeneratedRowsExec(long rows, long distinct, String prefix) {
        this(rows, distinct, prefix, k -> k);
    }

    /** Rows whose key is {@code keyMap} of the usual one. */
    GeneratedRowsExec(long rows, long distinct, String prefix, java.util.function.LongUnaryOperator keyMap) {
        this.rows = rows;
        this.distinct = distinct;
        this.prefix = prefix;
        this.keyMap = keyMap;
    }

    static long key(long id, long distinct) {
        return (id * 7919) % distinct;
    }

    static String string(long k) {
        return String.format("%s%011d", "v", k);
    }

    @Override
    public Schema schema() {
        return prefix.isEmpty() ? SCHEMA : Schema.of(new Field(prefix + "id", DataType.INT64),
                new Field(prefix + "k", DataType.INT64), new Field(prefix + "s", DataType.UTF8));
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public PlanProperties properties() {
        return PlanProperties.of(new Partitioning.Unknown(1));
    }

    @Override
    public String describe() {
        return "GeneratedRowsExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        return new BatchStream() {
            private long next;

            @Override
            public Batch next() {
                if (next >= rows) {
                    return null;
                }
                int n = (int) Math.min(context.batchSize(), rows - next);
                long[] ids = new long[n];
                long[] keys = new long[n];
                String[] strings = new String[n];
                for (int i = 0; i < n; i++) {
                    ids[i] = next + i;
                    keys[i] = keyMap.applyAsLong(key(next + i, distinct));
                    strings[i] = string(keys[i]);
                }
                next += n;
                return Batch.of(schema(), new Col[] {Col.ofLongs(DataType.INT64, ids, null),
                        Col.ofLongs(DataType.INT64, keys, null), Col.ofStrings(strings, null)}, n, context.allocator());
            }

            @Override
            public void close() {
            }
        };
    }
}
