package io.sluice.operators.join;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowKernels;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.NullVectors;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Assembles a {@link HashJoinStream}'s joined rows (build and probe columns in the join's joined
 * schema) from pairs of build and probe row indexes, each column in one pass straight into a new
 * Arrow vector: build columns gathered from the build batches' vectors ({@link BuildColumns}),
 * probe columns from the probe batch's vectors (shared without a copy when the pairs are every
 * probe row once, in order: a key/foreign-key join) or, for a column an operator below made on the
 * heap, gathered as a heap column. A missing side (an outer join's unmatched rows) is all NULL.
 *
 * <p>Holds only scratch arrays between calls (one stream's, not thread-safe); the caller owns the
 * batches it returns.
 */
final class JoinedRows {
    private final BuildColumns build;
    private final Schema joinedSchema;
    private final int probeWidth;
    private final boolean buildIsLeft;
    private final int[] buildColumnAsProbeKey; // per build column: the probe column equal to it in every pair, or -1
    private int[] buildChunkOf; // scratch of the build gather: each pair's build batch and row in it
    private int[] buildRowOf;

    JoinedRows(HashJoinExec join, BuildColumns build, List<Expr> probeKeys) {
        this.build = requireNonNull(build, "build is null");
        this.buildIsLeft = join.buildsLeft();
        this.joinedSchema = join.joinedSchema();
        Schema buildSchema = (buildIsLeft ? join.left() : join.right()).schema();
        Schema probeSchema = (buildIsLeft ? join.right() : join.left()).schema();
        this.probeWidth = probeSchema.size();
        this.buildColumnAsProbeKey = keyColumnsEqualInPairs(buildIsLeft ? join.leftKeys() : join.rightKeys(), probeKeys,
                buildSchema, probeSchema);
    }

    /**
     * Per build column, the probe column holding the same value in every matched pair, or -1: a
     * build key that is a plain column, paired with a probe key that is a plain column of the same
     * type whose equal values are the same bytes (integers, dates, timestamps, decimals of one
     * type, strings). Such a build column is output as a copy of the probe key, read in order,
     * instead of gathered from the build side at random (a key/foreign-key join's key).
     */
    private static int[] keyColumnsEqualInPairs(List<Expr> buildKeys, List<Expr> probeKeys, Schema buildSchema,
            Schema probeSchema) {
        int[] out = new int[buildSchema.size()];
        Arrays.fill(out, -1);
        for (int k = 0; k < buildKeys.size(); k++) {
            if (!(buildKeys.get(k) instanceof Column b) || !(probeKeys.get(k) instanceof Column p)) {
                continue;
            }
            int bi = buildSchema.indexOf(b.column());
            int pi = probeSchema.indexOf(p.column());
            if (bi < 0 || pi < 0) {
                continue;
            }
            DataType type = buildSchema.field(bi).type();
            boolean sameBytes = switch (type.kind()) {
                case INT32, INT64, DATE32, TIMESTAMP, DECIMAL, UTF8 -> true;
                default -> false; // doubles: -0.0 equals 0.0; booleans and NULL are not worth it
            };
            if (sameBytes && type.equals(probeSchema.field(pi).type())) {
                out[bi] = pi;
            }
        }
        return out;
    }

    /**
     * The joined rows of {@code n} pairs: build row {@code buildIdx[i]} with row {@code
     * probeIdx[i]} of {@code probeBatch}. A null index array gives that side's columns all NULL
     * ({@code probeBatch} may then be null too). With {@code shareKeys} (every pair's keys are
     * equal) a build key is output as a copy of its probe key, read in order rather than gathered
     * at random.
     */
    Batch assemble(Batch probeBatch, int[] buildIdx, int[] probeIdx, int n, boolean shareKeys,
            BufferAllocator allocator) {
        int buildWidth = build.width();
        int buildAt = buildIsLeft ? 0 : probeWidth;
        int probeAt = buildIsLeft ? buildWidth : 0;
        boolean everyProbeRowOnce = probeIdx != null && n == probeBatch.rowCount();
        for (int i = 0; i < n && everyProbeRowOnce; i++) {
            everyProbeRowOnce = probeIdx[i] == i;
        }
        if (buildIdx != null) {
            if (buildChunkOf == null || buildChunkOf.length < n) {
                buildChunkOf = new int[n];
                buildRowOf = new int[n];
            }
            build.locate(buildIdx, n, buildChunkOf, buildRowOf);
        }
        Col[] cols = new Col[buildWidth + probeWidth];
        FieldVector[] out = new FieldVector[buildWidth + probeWidth];
        try {
            for (int c = 0; c < buildWidth; c++) {
                Field field = joinedSchema.field(buildAt + c);
                int probeKey = shareKeys && probeIdx != null ? buildColumnAsProbeKey[c] : -1;
                if (buildIdx == null) {
                    out[buildAt + c] = NullVectors.of(field, n, allocator);
                } else if (probeKey >= 0) {
                    probeColumn(probeBatch, probeKey, probeIdx, n, everyProbeRowOnce, field, allocator, cols, out,
                            buildAt + c);
                } else {
                    out[buildAt + c] = build.gather(c, buildChunkOf, buildRowOf, n, allocator);
                }
            }
            for (int c = 0; c < probeWidth; c++) {
                Field field = joinedSchema.field(probeAt + c);
                if (probeIdx == null) {
                    out[probeAt + c] = NullVectors.of(field, n, allocator);
                } else {
                    probeColumn(probeBatch, c, probeIdx, n, everyProbeRowOnce, field, allocator, cols, out, probeAt + c);
                }
            }
        } catch (RuntimeException | Error e) {
            for (FieldVector v : out) {
                if (v != null) {
                    v.close();
                }
            }
            throw e;
        }
        return Batch.of(joinedSchema, cols, out, n, allocator);
    }

    /**
     * Probe column {@code c} at rows {@code probeIdx[0..n)} as output column {@code at}: a vector
     * of {@code field} when the probe batch holds it as one (shared, or gathered), else a heap column.
     */
    private static void probeColumn(Batch probeBatch, int c, int[] probeIdx, int n, boolean everyProbeRowOnce,
            Field field, BufferAllocator allocator, Col[] cols, FieldVector[] out, int at) {
        FieldVector vector = probeBatch.arrowVector(c);
        if (vector != null && everyProbeRowOnce) {
            TransferPair share = vector.getTransferPair(field.toArrow(), allocator);
            share.splitAndTransfer(0, n);
            out[at] = (FieldVector) share.getTo();
        } else if (vector != null) {
            out[at] = ArrowKernels.gather(vector, probeIdx, n, allocator);
        } else {
            Col col = probeBatch.column(c);
            cols[at] = everyProbeRowOnce ? col : col.gather(probeIdx, n);
        }
    }
}
