package io.sluice.operators.join;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.IntList;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import java.util.ArrayDeque;
import java.util.List;

/**
 * One partition of a {@link SortMergeJoinExec}. Walks both sorted inputs a key group at a time:
 * the smaller key's group is unmatched, equal keys form the cross product of the two groups, and a
 * group with a NULL key matches nothing (skipping it keeps both sides sorted, as NULLs sort last
 * within each key column).
 *
 * <p>Work is recorded as row indexes into the two sides' current chunks (candidate pairs, rows to
 * check for a match, rows known unmatched) and turned into output in bulk by {@link #flush()}:
 * the residual filter runs over all pending pairs at once, sets the matched flags, and only then
 * are the checked rows' fates read. Flushes happen when about a batch of work is pending, and
 * always before a side's chunk is replaced, since that invalidates the indexes. A group's rows are
 * queued for checking only after its whole product has been formed, so their flags are final when
 * read.
 */
final class MergeJoinStream implements BatchStream {
    private final JoinType type;
    private final boolean existence;
    private final boolean emitsLeftUnmatched;
    private final boolean emitsRightUnmatched;
    private final boolean checksLeft;
    private final BoundExprs filter; // bound to the joined pairs' schema
    private final Schema joinedSchema;
    private final Schema outputSchema;
    private final Schema leftSchema;
    private final Schema rightSchema;
    private final TaskContext context;
    private final int batchSize;
    private final KeyOrder order;
    private final MergeSide left;
    private final MergeSide right;

    private final IntList pairLeft;
    private final IntList pairRight;
    private final IntList leftCheck;
    private final IntList rightCheck;
    private final IntList leftUnmatched;
    private final IntList rightUnmatched;
    private final ArrayDeque<Col[]> queue = new ArrayDeque<>();

    // The cross product of two equal-key groups in progress: left rows [l0, l1) by right rows [r0, r1).
    private boolean inProduct;
    private int l0;
    private int l1;
    private int r0;
    private int r1;
    private int li;
    private int rj;

    private boolean finished;
    private boolean closed;

    MergeJoinStream(SortMergeJoinExec join, BatchStream leftStream, BatchStream rightStream, TaskContext context) {
        this.type = join.type();
        this.existence = !type.outputsRight();
        this.emitsLeftUnmatched = type == JoinType.LEFT || type == JoinType.FULL || type == JoinType.LEFT_ANTI;
        this.emitsRightUnmatched = type.preservesRight();
        this.checksLeft = type.preservesLeft() || existence;
        this.joinedSchema = join.joinedSchema();
        this.filter = JoinSupport.bound(join.filter(), joinedSchema);
        this.outputSchema = join.schema();
        this.leftSchema = join.left().schema();
        this.rightSchema = join.right().schema();
        this.context = context;
        this.batchSize = context.batchSize();
        this.order = new KeyOrder(join.leftSortKeys());
        this.left = side(leftStream, join.leftKeys(), leftSchema);
        this.right = side(rightStream, join.rightKeys(), rightSchema);
        this.pairLeft = new IntList(batchSize);
        this.pairRight = new IntList(batchSize);
        this.leftCheck = new IntList(16);
        this.rightCheck = new IntList(16);
        this.leftUnmatched = new IntList(16);
        this.rightUnmatched = new IntList(16);
    }

    private static MergeSide side(BatchStream stream, List<Expr> keys, Schema schema) {
        Col[] emptyKeys = new Col[keys.size()];
        for (int k = 0; k < emptyKeys.length; k++) {
            DataType type = keys.get(k).type(schema);
            emptyKeys[k] = Col.allocate(type, 0, false);
        }
        return new MergeSide(stream, keys, JoinSupport.emptyColumns(schema), emptyKeys);
    }

    @Override
    public Batch next() {
        if (closed) {
            throw new IllegalStateException("stream is closed");
        }
        while (queue.isEmpty()) {
            if (finished) {
                return null;
            }
            step();
        }
        Col[] out = queue.poll();
        return Batch.of(outputSchema, out, out[0].length, context.allocator());
    }

    /** Merges until some output is queued or both inputs are done. */
    private void step() {
        while (queue.isEmpty() && !finished) {
            if (inProduct) {
                continueProduct();
            } else if (left.needsRefill() || right.needsRefill()) {
                flush();
                if (left.needsRefill()) {
                    left.refill();
                }
                if (right.needsRefill()) {
                    right.refill();
                }
            } else {
                boolean la = left.available();
                boolean ra = right.available();
                if (!la && !ra) {
                    flush();
                    finished = true;
                } else if (!ra || (la && left.groupHasNull())) {
                    leftAlone();
                } else if (!la || right.groupHasNull()) {
                    rightAlone();
                } else {
                    int cmp = order.compare(left.keyColumns, left.pos, right.keyColumns, right.pos);
                    if (cmp < 0) {
                        leftAlone();
                    } else if (cmp > 0) {
                        rightAlone();
                    } else {
                        startProduct();
                    }
                }
            }
            if (pending() >= batchSize) {
                flush();
            }
        }
    }

    private int pending() {
        return pairLeft.size() + leftCheck.size() + rightCheck.size() + leftUnmatched.size() + rightUnmatched.size();
    }

    /** The left group at the cursor has no partner. */
    private void leftAlone() {
        int end = left.groupEnd();
        if (emitsLeftUnmatched) {
            leftUnmatched.addRange(left.pos, end);
        }
        left.pos = end;
    }

    private void rightAlone() {
        int end = right.groupEnd();
        if (emitsRightUnmatched) {
            rightUnmatched.addRange(right.pos, end);
        }
        right.pos = end;
    }

    private void startProduct() {
        l0 = left.pos;
        l1 = left.groupEnd();
        r0 = right.pos;
        r1 = right.groupEnd();
        if (existence && filter == null) {
            // Every left row of the group has a partner; no pairs are needed to know it.
            java.util.Arrays.fill(left.matched, l0, l1, true);
            leftCheck.addRange(l0, l1);
            left.pos = l1;
            right.pos = r1;
            return;
        }
        inProduct = true;
        li = l0;
        rj = r0;
    }

    /** Forms pairs of the current product until about a batch is pending or the product is done. */
    private void continueProduct() {
        while (li < l1 && pairLeft.size() < batchSize) {
            int take = Math.min(r1 - rj, batchSize - pairLeft.size());
            for (int k = 0; k < take; k++) {
                pairLeft.add(li);
            }
            pairRight.addRange(rj, rj + take);
            rj += take;
            if (rj == r1) {
                li++;
                rj = r0;
            }
        }
        if (li == l1) {
            if (checksLeft) {
                leftCheck.addRange(l0, l1);
            }
            if (emitsRightUnmatched) {
                rightCheck.addRange(r0, r1);
            }
            left.pos = l1;
            right.pos = r1;
            inProduct = false;
        }
    }

    /** Turns all pending work into queued output; see the class comment for the order of steps. */
    private void flush() {
        int n = pairLeft.size();
        if (n > 0) {
            int[] pl = pairLeft.array();
            int[] pr = pairRight.array();
            Col[] pairs = null;
            if (filter != null || !existence) {
                pairs = JoinSupport.pairColumns(left.columns, pl, right.columns, pr, n);
            }
            int[] selected = filter == null ? null : JoinSupport.passing(filter, joinedSchema, pairs, n, context.allocator());
            int matches = selected == null ? n : selected.length;
            for (int i = 0; i < matches; i++) {
                int k = selected == null ? i : selected[i];
                left.matched[pl[k]] = true;
                right.matched[pr[k]] = true;
            }
            if (!existence && matches > 0) {
                JoinSupport.enqueue(queue, selected == null ? pairs : JoinSupport.gather(pairs, selected, matches),
                        matches, batchSize);
            }
        }
        IntList leftOut = new IntList(leftCheck.size() + leftUnmatched.size());
        boolean keepMatched = type == JoinType.LEFT_SEMI;
        for (int i = 0; i < leftCheck.size(); i++) {
            int row = leftCheck.get(i);
            if (left.matched[row] == keepMatched) {
                leftOut.add(row);
            }
        }
        for (int i = 0; i < leftUnmatched.size(); i++) {
            leftOut.add(leftUnmatched.get(i));
        }
        if (leftOut.size() > 0) {
            Col[] out = existence
                    ? JoinSupport.gather(left.columns, leftOut.array(), leftOut.size())
                    : JoinSupport.withNullSide(left.columns, leftOut.array(), leftOut.size(), rightSchema, true);
            JoinSupport.enqueue(queue, out, leftOut.size(), batchSize);
        }
        IntList rightOut = new IntList(rightCheck.size() + rightUnmatched.size());
        for (int i = 0; i < rightCheck.size(); i++) {
            int row = rightCheck.get(i);
            if (!right.matched[row]) {
                rightOut.add(row);
            }
        }
        for (int i = 0; i < rightUnmatched.size(); i++) {
            rightOut.add(rightUnmatched.get(i));
        }
        if (rightOut.size() > 0) {
            Col[] out = JoinSupport.withNullSide(right.columns, rightOut.array(), rightOut.size(), leftSchema, false);
            JoinSupport.enqueue(queue, out, rightOut.size(), batchSize);
        }
        pairLeft.clear();
        pairRight.clear();
        leftCheck.clear();
        rightCheck.clear();
        leftUnmatched.clear();
        rightUnmatched.clear();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        queue.clear();
        try {
            left.close();
        } finally {
            right.close();
        }
    }
}
