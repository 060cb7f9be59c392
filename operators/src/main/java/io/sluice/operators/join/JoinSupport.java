package io.sluice.operators.join;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.expr.BoundExprs;
import io.sluice.operators.memory.HeapSize;
import io.sluice.operators.memory.MemoryReservation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/** What the join operators share: validation, schemas, and assembling output rows from index pairs. */
final class JoinSupport {
    private JoinSupport() {
    }

    /**
     * Checks the equi-join keys: as many on each side, at least one, and pairwise of types that
     * hash and compare alike (equal types, any two integer types, decimals of one scale, or a NULL
     * literal). Anything else is the planner's to cast first. Returns the left key types.
     */
    static DataType[] checkKeys(String operator, List<Expr> leftKeys, Schema left, List<Expr> rightKeys, Schema right) {
        if (leftKeys.isEmpty()) {
            throw new IllegalArgumentException(operator + " needs at least one key pair");
        }
        if (leftKeys.size() != rightKeys.size()) {
            throw new IllegalArgumentException(operator + " has " + leftKeys.size() + " left keys but "
                    + rightKeys.size() + " right keys");
        }
        DataType[] types = new DataType[leftKeys.size()];
        for (int i = 0; i < types.length; i++) {
            DataType l = leftKeys.get(i).type(left);
            DataType r = rightKeys.get(i).type(right);
            if (!keysCompatible(l, r)) {
                throw new IllegalArgumentException(operator + ": key " + leftKeys.get(i) + " (" + l + ") and "
                        + rightKeys.get(i) + " (" + r + ") differ in type; the planner must cast them to a common type");
            }
            types[i] = l;
        }
        return types;
    }

    private static boolean keysCompatible(DataType l, DataType r) {
        if (l.kind() == Kind.NULL || r.kind() == Kind.NULL || l.equals(r)) {
            return true;
        }
        if (l.isIntegral() && r.isIntegral()) {
            return true;
        }
        return l.kind() == Kind.DECIMAL && r.kind() == Kind.DECIMAL && l.scale() == r.scale();
    }

    /** Left fields then right fields: what the residual filter sees, and the output of non-semi joins. */
    static Schema joinedSchema(String operator, Schema left, Schema right) {
        List<Field> fields = new ArrayList<>(left.fields());
        fields.addAll(right.fields());
        try {
            return new Schema(fields);
        } catch (SluiceException e) {
            throw new IllegalArgumentException(operator + ": the inputs share a column name (" + e.getMessage()
                    + "); qualify or alias the columns below the join", e);
        }
    }

    /**
     * {@link ExecutionPlan#outputKeysOnInputs} for an equi-join: an inner join's output rows, and a
     * semi join's, match on the keys, so a key over one side's columns, or equal to a join key
     * (taken as its pair on the other side), takes that side's values. Other joins answer nothing:
     * their unmatched rows come through untested.
     */
    static List<Optional<List<Expr>>> outputKeysOnInputs(JoinType type, ExecutionPlan left, ExecutionPlan right,
            List<Expr> leftKeys, List<Expr> rightKeys, List<Expr> keys) {
        if (!type.outputsOnlyMatchedRows()) {
            return List.of(Optional.empty(), Optional.empty());
        }
        return List.of(onSide(keys, left, rightKeys, leftKeys), onSide(keys, right, leftKeys, rightKeys));
    }

    /** {@code keys} over {@code side}: each over its columns, or an {@code otherKeys} item taken as its pair. */
    private static Optional<List<Expr>> onSide(List<Expr> keys, ExecutionPlan side, List<Expr> otherKeys,
            List<Expr> sideKeys) {
        List<String> names = side.schema().names();
        List<Expr> mapped = new ArrayList<>(keys.size());
        for (Expr key : keys) {
            int pair = otherKeys.indexOf(key);
            if (names.containsAll(Exprs.columns(key))) {
                mapped.add(key);
            } else if (pair >= 0) {
                mapped.add(sideKeys.get(pair));
            } else {
                return Optional.empty();
            }
        }
        return Optional.of(mapped);
    }

    static Schema outputSchema(JoinType type, Schema left, Schema joined) {
        return type.outputsRight() ? joined : left;
    }

    static void checkFilter(String operator, Expr filter, Schema joined) {
        if (filter != null) {
            TypeRules.checkBoolean(operator + " filter " + filter, filter.type(joined));
        }
    }

    /**
     * A join's output properties on top of its chosen {@code partitioning}: equalities known of an
     * input still hold for the output rows built from it, as long as that input's columns are never
     * NULL-filled (the left of INNER, LEFT and the semi/anti joins, the right of INNER and RIGHT);
     * after an inner join each left key also equals its right key. Without the inputs' equalities a
     * third join or an aggregate on a key equal only through an earlier join would shuffle again.
     */
    static PlanProperties withKeyEquivalences(Partitioning partitioning, JoinType type, ExecutionPlan left,
            ExecutionPlan right, List<Expr> leftKeys, List<Expr> rightKeys) {
        PlanProperties out = PlanProperties.of(partitioning);
        boolean keepsLeft = type != JoinType.RIGHT && type != JoinType.FULL;
        boolean keepsRight = type == JoinType.INNER || type == JoinType.RIGHT;
        if (keepsLeft) {
            out = out.withEquivalences(left.properties().equivalences());
        }
        if (keepsRight) {
            out = out.withEquivalences(right.properties().equivalences());
        }
        if (type != JoinType.INNER) {
            return out;
        }
        List<List<Expr>> groups = new java.util.ArrayList<>();
        for (int i = 0; i < leftKeys.size(); i++) {
            groups.add(List.of(leftKeys.get(i), rightKeys.get(i)));
        }
        return out.withEquivalences(groups);
    }

    /**
     * Fails unless each input's partitioning meets what the join requires of it, and, when
     * {@code coPartitioned}, both have the same partition count. A violation is a planning bug;
     * running anyway would silently lose matches.
     */
    static void checkInputs(ExecutionPlan join, boolean coPartitioned) {
        List<ExecutionPlan> children = join.children();
        List<Distribution> required = join.requiredInputDistribution();
        for (int i = 0; i < children.size(); i++) {
            Partitioning p = children.get(i).properties().partitioning();
            if (!children.get(i).properties().satisfies(required.get(i))) {
                throw new IllegalStateException(join.describe() + ": input " + i + " is partitioned " + p
                        + ", which does not satisfy " + required.get(i));
            }
        }
        if (coPartitioned) {
            int l = children.get(0).properties().partitioning().partitionCount();
            int r = children.get(1).properties().partitioning().partitionCount();
            if (l != r) {
                throw new IllegalStateException(join.describe() + ": co-partitioned inputs have " + l + " and " + r
                        + " partitions");
            }
        }
    }

    /**
     * Output columns (left then right) for {@code count} pairs of left and right row indexes; a
     * negative index gives NULLs on that side (an outer join's unmatched row).
     */
    static Col[] pairColumns(Col[] left, int[] leftRows, Col[] right, int[] rightRows, int count) {
        Col[] out = new Col[left.length + right.length];
        for (int c = 0; c < left.length; c++) {
            out[c] = left[c].gatherOrNull(leftRows, count);
        }
        for (int c = 0; c < right.length; c++) {
            out[left.length + c] = right[c].gatherOrNull(rightRows, count);
        }
        return out;
    }

    /** Rows {@code rows[0..count)} of {@code side}, with an all-NULL column per field of {@code other}. */
    static Col[] withNullSide(Col[] side, int[] rows, int count, Schema other, boolean sideIsLeft) {
        return withNullColumns(gather(side, rows, count), count, other, sideIsLeft);
    }

    /** {@code count} rows of one side's columns ({@code side}, already gathered), with an all-NULL column per field of {@code other}. */
    static Col[] withNullColumns(Col[] side, int count, Schema other, boolean sideIsLeft) {
        Col[] out = new Col[side.length + other.size()];
        int sideAt = sideIsLeft ? 0 : other.size();
        int otherAt = sideIsLeft ? side.length : 0;
        System.arraycopy(side, 0, out, sideAt, side.length);
        for (int c = 0; c < other.size(); c++) {
            out[otherAt + c] = Col.allNull(other.field(c).type(), count);
        }
        return out;
    }

    static Col[] gather(Col[] columns, int[] rows, int count) {
        Col[] out = new Col[columns.length];
        for (int c = 0; c < columns.length; c++) {
            out[c] = columns[c].gather(rows, count);
        }
        return out;
    }

    /** {@code expr} (null: none) bound to {@code input}, as one expression. */
    static BoundExprs bound(Expr expr, Schema input) {
        return expr == null ? null : new BoundExprs(List.of(expr), input);
    }

    /**
     * Positions {@code k < count} whose joined row passes {@code filter} (a condition bound to
     * {@code joined}: TRUE, not NULL), in order. The columns are evaluated on the heap; no Arrow
     * memory stays allocated.
     */
    static int[] passing(BoundExprs filter, Schema joined, Col[] columns, int count, BufferAllocator allocator) {
        try (Batch batch = Batch.of(joined, columns, count, allocator)) {
            return passing(filter, batch);
        }
    }

    /** Positions of {@code batch}'s rows that pass {@code filter} (bound to its schema), in order. */
    static int[] passing(BoundExprs filter, Batch batch) {
        int count = batch.rowCount();
        Col mask = filter.evaluate(0, batch);
        if (mask.type.kind() == Kind.NULL) {
            return new int[0];
        }
        int[] selected = new int[count];
        int n = 0;
        boolean[] values = mask.bools;
        boolean[] nulls = mask.nulls;
        for (int k = 0; k < count; k++) {
            selected[n] = k;
            n += values[k] && (nulls == null || !nulls[k]) ? 1 : 0;
        }
        return java.util.Arrays.copyOf(selected, n);
    }

    /** Positions {@code r < count} where {@code flags[r] == wanted}. */
    static int[] where(boolean[] flags, int count, boolean wanted) {
        int[] out = new int[count];
        int n = 0;
        for (int r = 0; r < count; r++) {
            out[n] = r;
            n += flags[r] == wanted ? 1 : 0;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** Queues output columns in slices of at most {@code batchSize} rows; nothing for zero rows. */
    static void enqueue(java.util.Queue<Col[]> queue, Col[] columns, int rows, int batchSize) {
        for (int from = 0; from < rows; from += batchSize) {
            int count = Math.min(batchSize, rows - from);
            Col[] slice = new Col[columns.length];
            for (int c = 0; c < columns.length; c++) {
                slice[c] = columns[c].slice(from, count);
            }
            queue.add(slice);
        }
    }

    /** Empty columns of a schema's types. */
    static Col[] emptyColumns(Schema schema) {
        Col[] out = new Col[schema.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Col.allocate(schema.field(i).type(), 0, false);
        }
        return out;
    }

    /** A whole build partition: its payload columns (Arrow, owned) and its evaluated key columns (the table's input). */
    record Collected(BuildColumns columns, Col[] keys, int rows) {
    }

    /**
     * Build rows read so far: each batch's vectors, moved into the build's allocator, and its
     * evaluated keys. Closing it frees the vectors not yet handed over by {@link #collected}.
     */
    static final class BuildChunks implements AutoCloseable {
        private final BuildColumns.Appender columns;
        final List<Col[]> keys = new ArrayList<>();

        /** Vectors move into {@code allocator}; {@code owner} (null: none) is closed after them. */
        BuildChunks(Schema schema, BufferAllocator allocator, AutoCloseable owner) {
            this.columns = new BuildColumns.Appender(schema, allocator, owner);
        }

        /**
         * Reads batches into the chunks, each reserving twice the bytes of its vectors and keys:
         * the keys are concatenated while the batches' keys still live, and the hash table is built
         * over them, so a build that fits here leaves room for its table. With {@code spillable}, stops
         * at the first batch whose memory is refused and returns false (that batch is kept,
         * unreserved; the stream stays open); otherwise a refusal fails the task. True when the
         * stream ended.
         */
        boolean read(BatchStream in, List<Expr> keyExprs, MemoryReservation reservation, boolean spillable) {
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
                    Col[] k = bound.evaluateAll(b);
                    keys.add(k);
                    long bytes = 2 * (columns.add(b) + HeapSize.of(k));
                    if (!spillable) {
                        reservation.grow(bytes);
                    } else if (!reservation.tryGrow(bytes)) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** The rows read so far as batches (the caller closes them), in order with {@link #keys}; both are emptied. */
        List<Batch> drain() {
            return columns.drain();
        }

        /** The rows as one build side, their reservation resized to its size; the result owns the vectors. */
        Collected collected(Schema schema, List<Expr> keyExprs, MemoryReservation reservation) {
            Col[] keyCols = new Col[keyExprs.size()];
            for (int i = 0; i < keyCols.length; i++) {
                List<Col> parts = new ArrayList<>(keys.size());
                for (Col[] chunk : keys) {
                    parts.add(chunk[i]);
                }
                keyCols[i] = concat(keyExprs.get(i).type(schema), parts);
            }
            keys.clear();
            BuildColumns cols = columns.finish();
            reservation.resize(cols.bytes() + HeapSize.of(keyCols));
            return new Collected(cols, keyCols, cols.rows());
        }

        @Override
        public void close() {
            columns.close();
        }
    }

    private static Col concat(DataType type, List<Col> parts) {
        return parts.isEmpty() ? Col.allocate(type, 0, false) : Col.concat(parts.get(0).type, parts);
    }
}
