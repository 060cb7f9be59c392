package io.sluice.plan.operators;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.exec.Col;
import io.sluice.plan.memory.MemoryReservation;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.logical.JoinType;
import io.sluice.plan.physical.TaskContext;
import io.sluice.plan.types.Schema;
import java.util.ArrayDeque;
import java.util.List;

/**
 * One partition of a {@link HashJoinExec}: streams the probe side past a built {@link
 * JoinHashTable}. Per probe batch the keys are hashed and looked up at once, giving each probe row
 * a run of candidate build rows; candidate pairs are then produced in chunks of at most the batch
 * size, filtered in bulk by the residual filter, and gathered into output columns. Unmatched (or,
 * for semi joins, matched) probe rows are output once their batch is done; for FULL the unmatched
 * build rows come last.
 *
 * <p>Output is queued as heap columns and packed into an Arrow batch only when the caller asks,
 * so the stream holds no Arrow memory between calls; each probe batch is unpacked and closed on
 * arrival.
 */
final class HashJoinStream implements BatchStream {
    private final JoinType type;
    private final boolean buildIsLeft;
    private final boolean existence; // semi / anti: only whether a probe row matches matters
    private final boolean nullAware;
    private final Expr filter;
    private final Expr markCondition; // LEFT_MARK only
    private final Schema joinedSchema;
    private final Schema outputSchema;
    private final Schema buildSchema;
    private final Schema probeSchema;
    private final List<Expr> probeKeys;
    private final TaskContext context;
    private final int batchSize;

    private final Col[] buildCols;
    private final JoinHashTable table;
    private final int[] buildOrder;
    private final boolean[] buildMatched; // FULL only

    private final BatchStream probe;
    private final ArrayDeque<Col[]> queue = new ArrayDeque<>();
    private boolean probeDone;
    private boolean finished;
    private boolean closed;
    private final MemoryReservation reservation; // the build rows and table; freed on close

    // The probe batch in progress.
    private Col[] probeCols;
    private int probeRows;
    private int[] candidateFrom; // probe row r's candidates: buildOrder[from[r] .. from[r] + length[r])
    private int[] candidateLength;
    private boolean[] probeKeyNull; // NULL-aware anti only; null when no probe key is NULL
    private boolean[] probeMatched;
    private boolean[] probeMarkNull; // LEFT_MARK: some pair made the mark condition NULL
    private int cursorRow;
    private int cursorOffset;

    HashJoinStream(HashJoinExec join, JoinSupport.Collected built, JoinHashTable table, BatchStream probe,
            List<Expr> probeKeys, TaskContext context, MemoryReservation reservation) {
        this.reservation = reservation;
        this.type = join.type();
        this.buildIsLeft = join.buildsLeft();
        this.existence = !type.outputsRight();
        this.nullAware = type == JoinType.LEFT_ANTI_NULL_AWARE;
        this.filter = join.filter();
        this.markCondition = join.mark() == null ? null : join.mark().condition();
        this.joinedSchema = join.joinedSchema();
        this.outputSchema = join.schema();
        this.buildSchema = (buildIsLeft ? join.left() : join.right()).schema();
        this.probeSchema = (buildIsLeft ? join.right() : join.left()).schema();
        this.probeKeys = probeKeys;
        this.context = context;
        this.batchSize = context.batchSize();
        this.buildCols = built.columns();
        this.table = table;
        this.buildOrder = table.rows();
        this.buildMatched = type == JoinType.FULL ? new boolean[built.rows()] : null;
        this.probe = probe;
        if (nothingToOutput()) {
            probeDone = true;
            finished = true;
        }
    }

    /** Outcomes known from the build side alone, which spare reading the probe side. */
    private boolean nothingToOutput() {
        boolean emptyBuild = table.buildRows() == 0;
        if (emptyBuild && (type == JoinType.INNER || type == JoinType.LEFT_SEMI)) {
            return true;
        }
        // NOT IN over a set holding NULL is never TRUE.
        return nullAware && filter == null && table.nullStart() < table.buildRows();
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
            advance();
        }
        Col[] out = queue.poll();
        return Batch.of(outputSchema, out, out.length == 0 ? 0 : out[0].length, context.allocator());
    }

    /**
     * Does one step of work: a chunk of pairs, the end of a probe batch, a new probe batch, or the end.
     * A probe batch against many build rows is many chunks, so a cancelled task stops between them.
     */
    private void advance() {
        context.checkNotCancelled();
        if (probeCols != null) {
            if (!nextPairs()) {
                finishProbeBatch();
            }
        } else if (!probeDone) {
            Batch batch = probe.next();
            if (batch == null) {
                probeDone = true;
            } else {
                try (Batch b = batch) {
                    startProbeBatch(b);
                }
            }
        } else {
            if (buildMatched != null) {
                int[] rows = JoinSupport.where(buildMatched, buildMatched.length, false);
                // FULL builds the left: unmatched left rows with NULL right columns.
                enqueue(JoinSupport.withNullSide(buildCols, rows, rows.length, probeSchema, true), rows.length);
            }
            finished = true;
        }
    }

    private void startProbeBatch(Batch batch) {
        int rows = batch.rowCount();
        if (rows == 0) {
            return;
        }
        Col[] keys = new Col[probeKeys.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = probeKeys.get(i).evaluate(batch);
        }
        probeCols = batch.columns();
        probeRows = rows;
        int[] groups = table.probe(keys, rows);
        candidateFrom = new int[rows];
        candidateLength = new int[rows];
        for (int r = 0; r < rows; r++) {
            int g = groups[r];
            if (g >= 0) {
                int from = table.groupStart(g);
                candidateFrom[r] = from;
                candidateLength[r] = table.groupEnd(g) - from;
            }
        }
        probeKeyNull = null;
        if (nullAware) {
            // A NULL probe key may be equal to anything: every build row is a candidate.
            probeKeyNull = JoinHashTable.anyNull(keys, rows);
            if (probeKeyNull != null) {
                int all = table.buildRows();
                for (int r = 0; r < rows; r++) {
                    if (probeKeyNull[r]) {
                        candidateFrom[r] = 0;
                        candidateLength[r] = all;
                    }
                }
            }
        }
        probeMatched = new boolean[rows];
        probeMarkNull = markCondition == null ? null : new boolean[rows];
        cursorRow = 0;
        cursorOffset = 0;
        if (existence && filter == null && markCondition == null) {
            // Without a filter every candidate is a match: no pairs need to be formed.
            for (int r = 0; r < rows; r++) {
                probeMatched[r] = candidateCount(r) > 0;
            }
            cursorRow = rows;
        }
    }

    /** Candidates of probe row {@code r}: its key's group, plus for NOT IN the NULL-key build rows. */
    private int candidateCount(int r) {
        int n = candidateLength[r];
        if (nullAware && (probeKeyNull == null || !probeKeyNull[r])) {
            n += table.buildRows() - table.nullStart();
        }
        return n;
    }

    /** The {@code offset}-th candidate build row of probe row {@code r}. */
    private int candidate(int r, int offset) {
        int own = candidateLength[r];
        return offset < own ? buildOrder[candidateFrom[r] + offset] : buildOrder[table.nullStart() + offset - own];
    }

    /** Forms, filters and outputs the next chunk of candidate pairs; false when the batch has none left. */
    private boolean nextPairs() {
        int[] probeIdx = new int[batchSize];
        int[] buildIdx = new int[batchSize];
        int n = 0;
        while (cursorRow < probeRows && n < batchSize) {
            int r = cursorRow;
            int total = candidateCount(r);
            if (total == 0) {
                cursorRow++; // no candidate (most probe rows of a selective join): nothing to copy
                continue;
            }
            int take = Math.min(total - cursorOffset, batchSize - n);
            int own = candidateLength[r];
            if (take == 1 && cursorOffset < own) {
                // one build row per key (a join on a unique key): no range copy
                buildIdx[n] = buildOrder[candidateFrom[r] + cursorOffset];
                probeIdx[n++] = r;
            } else if (cursorOffset + take <= own) {
                // The common case: a run of the key's own group.
                int from = candidateFrom[r] + cursorOffset;
                System.arraycopy(buildOrder, from, buildIdx, n, take);
                java.util.Arrays.fill(probeIdx, n, n + take, r);
                n += take;
            } else {
                for (int k = 0; k < take; k++) {
                    buildIdx[n] = candidate(r, cursorOffset + k);
                    probeIdx[n++] = r;
                }
            }
            cursorOffset += take;
            if (cursorOffset == total) {
                cursorRow++;
                cursorOffset = 0;
            }
        }
        if (n == 0) {
            return false;
        }
        Col[] pairs = null;
        if (filter != null || !existence || markCondition != null) {
            pairs = buildIsLeft
                    ? JoinSupport.pairColumns(buildCols, buildIdx, probeCols, probeIdx, n)
                    : JoinSupport.pairColumns(probeCols, probeIdx, buildCols, buildIdx, n);
        }
        int[] selected = filter == null ? null : JoinSupport.passing(filter, joinedSchema, pairs, n, context.allocator());
        int matches = selected == null ? n : selected.length;
        if (markCondition != null) {
            markPairs(pairs, probeIdx, selected, matches);
            return true;
        }
        for (int i = 0; i < matches; i++) {
            int k = selected == null ? i : selected[i];
            probeMatched[probeIdx[k]] = true;
        }
        if (buildMatched != null) {
            for (int i = 0; i < matches; i++) {
                buildMatched[buildIdx[selected == null ? i : selected[i]]] = true;
            }
        }
        if (!existence && matches > 0) {
            enqueue(selected == null ? pairs : JoinSupport.gather(pairs, selected, matches), matches);
        }
        return true;
    }

    /**
     * LEFT_MARK: evaluates the mark condition over the pairs that passed the filter; a TRUE pair
     * marks its probe row TRUE, a NULL one notes that the row's mark is at least NULL.
     */
    private void markPairs(Col[] pairs, int[] probeIdx, int[] selected, int matches) {
        if (matches == 0) {
            return;
        }
        Col[] passed = selected == null ? pairs : JoinSupport.gather(pairs, selected, matches);
        Col mark;
        try (Batch batch = Batch.of(joinedSchema, passed, matches, context.allocator())) {
            mark = markCondition.evaluate(batch);
        }
        boolean allNull = mark.type.kind() == io.sluice.plan.types.DataType.Kind.NULL;
        boolean[] values = mark.bools;
        boolean[] nulls = mark.nulls;
        for (int i = 0; i < matches; i++) {
            int r = probeIdx[selected == null ? i : selected[i]];
            if (allNull || (nulls != null && nulls[i])) {
                probeMarkNull[r] = true;
            } else if (values[i]) {
                probeMatched[r] = true;
            }
        }
    }

    /** Outputs the probe rows whose fate the batch decided, and lets the batch go. */
    private void finishProbeBatch() {
        switch (type) {
            case LEFT, RIGHT, FULL -> {
                int[] rows = JoinSupport.where(probeMatched, probeRows, false);
                enqueue(JoinSupport.withNullSide(probeCols, rows, rows.length, buildSchema, !buildIsLeft), rows.length);
            }
            case LEFT_SEMI -> {
                int[] rows = JoinSupport.where(probeMatched, probeRows, true);
                enqueue(JoinSupport.gather(probeCols, rows, rows.length), rows.length);
            }
            case LEFT_ANTI, LEFT_ANTI_NULL_AWARE -> {
                int[] rows = JoinSupport.where(probeMatched, probeRows, false);
                enqueue(JoinSupport.gather(probeCols, rows, rows.length), rows.length);
            }
            case LEFT_MARK -> {
                Col[] out = java.util.Arrays.copyOf(probeCols, probeCols.length + 1);
                boolean[] nulls = null;
                for (int r = 0; r < probeRows; r++) {
                    if (!probeMatched[r] && probeMarkNull[r]) {
                        if (nulls == null) {
                            nulls = new boolean[probeRows];
                        }
                        nulls[r] = true;
                    }
                }
                out[probeCols.length] = Col.ofBools(java.util.Arrays.copyOf(probeMatched, probeRows), nulls);
                enqueue(out, probeRows);
            }
            case INNER -> {
            }
        }
        probeCols = null;
        probeMarkNull = null;
        candidateFrom = null;
        candidateLength = null;
        probeKeyNull = null;
        probeMatched = null;
    }

    private void enqueue(Col[] columns, int rows) {
        JoinSupport.enqueue(queue, columns, rows, batchSize);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        queue.clear();
        try {
            probe.close();
        } finally {
            reservation.close();
        }
    }
}
