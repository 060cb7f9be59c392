package io.sluice.operators.join;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import io.sluice.operators.hash.JoinHashTable;
import io.sluice.operators.memory.MemoryReservation;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

/**
 * One partition of a {@link HashJoinExec}: streams the probe side past a built {@link
 * JoinHashTable}. Per probe batch the keys are hashed and looked up at once, giving each probe row
 * a run of candidate build rows; candidate pairs are then produced in chunks of at most the batch
 * size, filtered in bulk by the residual filter, and gathered into output columns. Unmatched (or,
 * for semi joins, matched) probe rows are output once their batch is done; for FULL the unmatched
 * build rows come last.
 *
 * <p>Output rows are assembled straight into Arrow vectors by {@link JoinedRows}; a residual
 * filter or mark condition is evaluated over those joined vectors and the passing rows gathered
 * from them. The probe batch in progress stays open until its rows are done; the stream holds at
 * most that batch and one output batch between calls, and closes both on close.
 *
 * <p>One state machine over the probe batch in progress (its candidate runs, the next pair, the
 * matched flags, the output queue): the pair forming, marking and unmatched-row output all advance
 * that state in the probe's hot loop; only the assembly of output columns from a chunk of pairs,
 * which needs none of it, is apart.
 */
final class HashJoinStream implements BatchStream {
    private final JoinType type;
    private final boolean buildIsLeft;
    private final boolean existence; // semi / anti: only whether a probe row matches matters
    private final boolean nullAware;
    private final BoundExprs filter; // bound to the joined pairs' schema
    private final BoundExprs markCondition; // LEFT_MARK only, bound to the joined pairs' schema
    private final Schema outputSchema;
    private final BoundExprs probeKeys;
    private final TaskContext context;
    private final int batchSize;

    private final BuildColumns build;
    private final JoinHashTable table;
    private final int[] buildOrder;
    private final boolean rowPerGroup; // build row of group g is g
    private final boolean[] buildMatched; // FULL, and a left-preserving join that builds the left
    private final boolean leftBuiltAndFlagged; // LEFT, LEFT_SEMI, LEFT_ANTI building the left: see HashJoinExec

    private final BatchStream probe;
    private final ArrayDeque<Batch> queue = new ArrayDeque<>();
    private boolean probeDone;
    private boolean finished;
    private boolean closed;
    private final MemoryReservation reservation; // the build rows and table; freed on close
    private final boolean ownsBuild; // closes the build's vectors on close (a shared build is the cache's)

    // The probe batch in progress (open until its rows are done), and its heap columns once asked for.
    private Batch probeBatch;
    private Col[] probeCols;
    private int probeRows;
    private int[] candidateFrom; // probe row r's candidates: buildOrder[from[r] .. from[r] + length[r])
    private int[] candidateLength;
    private boolean[] probeKeyNull; // NULL-aware anti only; null when no probe key is NULL
    private boolean[] probeMatched;
    private boolean[] probeMarkNull; // LEFT_MARK: some pair made the mark condition NULL
    private int cursorRow;
    private int[] pairProbeRows; // the chunk of pairs in progress, reused from chunk to chunk
    private int[] pairBuildRows;
    private final JoinedRows joinedRows;
    private int cursorOffset;

    HashJoinStream(HashJoinExec join, JoinSupport.Collected built, boolean ownsBuild, JoinHashTable table,
            BatchStream probe, List<Expr> probeKeys, TaskContext context, MemoryReservation reservation) {
        this.reservation = reservation;
        this.ownsBuild = ownsBuild;
        this.type = join.type();
        this.buildIsLeft = join.buildsLeft();
        this.existence = !type.outputsRight();
        this.nullAware = type == JoinType.LEFT_ANTI_NULL_AWARE;
        Schema joinedSchema = join.joinedSchema();
        this.filter = JoinSupport.bound(join.filter(), joinedSchema);
        this.markCondition = join.mark() == null ? null : JoinSupport.bound(join.mark().condition(), joinedSchema);
        this.outputSchema = join.schema();
        this.probeKeys = new BoundExprs(probeKeys, (buildIsLeft ? join.right() : join.left()).schema());
        this.joinedRows = new JoinedRows(join, built.columns(), probeKeys);
        this.context = context;
        this.batchSize = context.batchSize();
        this.build = built.columns();
        this.table = table;
        this.buildOrder = table.rows();
        this.rowPerGroup = table.rowPerGroup();
        this.leftBuiltAndFlagged = join.leftBuildChosen();
        this.buildMatched = type == JoinType.FULL || leftBuiltAndFlagged ? new boolean[built.rows()] : null;
        this.probe = probe;
        if (nothingToOutput()) {
            probeDone = true;
            finished = true;
        }
    }

    /** Outcomes known from the build side alone, which spare reading the probe side. */
    private boolean nothingToOutput() {
        boolean emptyBuild = table.buildRows() == 0;
        if (emptyBuild && (type == JoinType.INNER || type == JoinType.LEFT_SEMI || leftBuiltAndFlagged)) {
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
        return queue.poll();
    }

    /**
     * Does one step of work: a chunk of pairs, the end of a probe batch, a new probe batch, or the end.
     * A probe batch against many build rows is many chunks, so a cancelled task stops between them.
     */
    private void advance() {
        context.checkNotCancelled();
        if (probeBatch != null) {
            if (!nextPairs()) {
                finishProbeBatch();
            }
        } else if (!probeDone) {
            Batch batch = probe.next();
            if (batch == null) {
                probeDone = true;
            } else if (batch.rowCount() == 0) {
                batch.close();
            } else {
                probeBatch = batch; // closed when its rows are done, or by close()
                startProbeBatch(batch);
            }
        } else {
            if (buildMatched != null) {
                // The built left's rows whose fate the whole probe side decided: the matched ones
                // for a semi join, else the unmatched ones (FULL and LEFT with NULL right columns).
                int[] rows = JoinSupport.where(buildMatched, buildMatched.length, type == JoinType.LEFT_SEMI);
                for (int from = 0; from < rows.length; from += batchSize) {
                    int n = Math.min(batchSize, rows.length - from);
                    int[] slice = Arrays.copyOfRange(rows, from, from + n);
                    queue.add(type.outputsRight() ? joinedRows.assemble(null, slice, null, n, false, context.allocator())
                            : Batch.of(outputSchema, new Col[build.width()], build.gatherAll(slice, n, context.allocator()),
                                    n, context.allocator()));
                }
            }
            finished = true;
        }
    }

    private void startProbeBatch(Batch batch) {
        int rows = batch.rowCount();
        // one long-backed key held as a vector (a shuffle fetch, a scan) is read in place, not unpacked
        InPlaceValues inPlace = nullAware || probeKeys.size() != 1 || !table.probesInPlace() ? null
                : probeKeys.expr(0, batch).inPlace(batch);
        if (inPlace != null && inPlace.doubles) {
            inPlace = null;
        }
        Col[] keys = inPlace == null ? probeKeys.evaluateAll(batch) : null;
        probeCols = null;
        probeRows = rows;
        int[] groups = inPlace != null ? table.probe(inPlace, rows) : table.probe(keys, rows);
        // Per-batch arrays are kept and reused across probe batches: a probe loop that allocates
        // nothing per batch leaves the young collections little to do but the build side.
        if (candidateFrom == null || candidateFrom.length < rows) {
            candidateFrom = new int[rows];
            candidateLength = new int[rows];
            probeMatched = new boolean[rows];
        } else {
            Arrays.fill(probeMatched, 0, rows, false);
        }
        if (table.rowPerGroup()) {
            for (int r = 0; r < rows; r++) {
                int g = groups[r];
                candidateFrom[r] = g; // group g is build row g, at rows()[g]
                candidateLength[r] = g >= 0 ? 1 : 0;
            }
        } else {
            for (int r = 0; r < rows; r++) {
                int g = groups[r];
                if (g >= 0) {
                    int from = table.groupStart(g);
                    candidateFrom[r] = from;
                    candidateLength[r] = table.groupEnd(g) - from;
                } else {
                    candidateLength[r] = 0;
                }
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
        probeMarkNull = markCondition == null ? null : new boolean[rows];
        cursorRow = 0;
        cursorOffset = 0;
        if (existence && filter == null && markCondition == null) {
            // Without a filter every candidate is a match: no pairs need to be formed.
            for (int r = 0; r < rows; r++) {
                probeMatched[r] = candidateCount(r) > 0;
            }
            if (buildMatched != null) {
                // the built left's rows: each candidate is matched
                for (int r = 0; r < rows; r++) {
                    for (int k = 0, from = candidateFrom[r]; k < candidateLength[r]; k++) {
                        buildMatched[buildOrder[from + k]] = true;
                    }
                }
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
        if (pairProbeRows == null) {
            pairProbeRows = new int[batchSize];
            pairBuildRows = new int[batchSize];
        }
        int[] probeIdx = pairProbeRows; // reused: every use below is done before the next chunk
        int[] buildIdx = pairBuildRows;
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
                // (cursorOffset is not 0 when one candidate is left of a longer run: NOT IN's NULL
                // probe key, whose candidates are every build row)
                buildIdx[n] = rowPerGroup ? candidateFrom[r] + cursorOffset : buildOrder[candidateFrom[r] + cursorOffset];
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
        if (!existence && filter == null && markCondition == null) {
            // Every candidate pair is an output row: each column gathered once in the form it is
            // held (pairs): no string is decoded or encoded here.
            for (int i = 0; i < n; i++) {
                probeMatched[probeIdx[i]] = true;
            }
            if (buildMatched != null) {
                for (int i = 0; i < n; i++) {
                    buildMatched[buildIdx[i]] = true;
                }
            }
            queue.add(joinedRows.assemble(probeBatch, buildIdx, probeIdx, n, true, context.allocator()));
            return true;
        }
        // Candidate pairs have equal keys, except NOT IN's (a NULL key is a candidate of every row).
        Batch pairs = joinedRows.assemble(probeBatch, buildIdx, probeIdx, n, !nullAware, context.allocator());
        int[] selected;
        try {
            selected = filter == null ? null : JoinSupport.passing(filter, pairs);
        } catch (RuntimeException | Error e) {
            pairs.close();
            throw e;
        }
        int matches = selected == null ? n : selected.length;
        if (markCondition != null) {
            try (pairs) {
                markPairs(pairs, probeIdx, selected, matches);
            }
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
        if (existence || matches == 0) {
            pairs.close();
        } else if (selected == null) {
            queue.add(pairs);
        } else {
            try (pairs) {
                queue.add(pairs.gather(selected, matches, context.allocator()));
            }
        }
        return true;
    }

    /** The probe batch's heap columns, unpacked on first use (only paths that need heap columns ask). */
    private Col[] probeCols() {
        if (probeCols == null) {
            probeCols = probeBatch.columns();
        }
        return probeCols;
    }

    /**
     * LEFT_MARK: evaluates the mark condition over the pairs that passed the filter; a TRUE pair
     * marks its probe row TRUE, a NULL one notes that the row's mark is at least NULL.
     */
    private void markPairs(Batch pairs, int[] probeIdx, int[] selected, int matches) {
        if (matches == 0) {
            return;
        }
        Col mark;
        if (selected == null) {
            mark = markCondition.evaluate(0, pairs);
        } else {
            try (Batch passed = pairs.gather(selected, matches, context.allocator())) {
                mark = markCondition.evaluate(0, passed);
            }
        }
        boolean allNull = mark.type.kind() == io.sluice.common.types.DataType.Kind.NULL;
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
        // A join that builds and flags its left outputs no probe (right) row on its own.
        switch (leftBuiltAndFlagged ? JoinType.INNER : type) {
            case LEFT, RIGHT, FULL -> {
                int[] rows = JoinSupport.where(probeMatched, probeRows, false);
                for (int from = 0; from < rows.length; from += batchSize) {
                    int n = Math.min(batchSize, rows.length - from);
                    queue.add(joinedRows.assemble(probeBatch, null, Arrays.copyOfRange(rows, from, from + n), n, false,
                            context.allocator()));
                }
            }
            case LEFT_SEMI -> enqueueProbeRows(JoinSupport.where(probeMatched, probeRows, true));
            case LEFT_ANTI, LEFT_ANTI_NULL_AWARE -> enqueueProbeRows(JoinSupport.where(probeMatched, probeRows, false));
            case LEFT_MARK -> {
                Col[] probeSide = probeCols();
                Col[] out = java.util.Arrays.copyOf(probeSide, probeSide.length + 1);
                boolean[] nulls = null;
                for (int r = 0; r < probeRows; r++) {
                    if (!probeMatched[r] && probeMarkNull[r]) {
                        if (nulls == null) {
                            nulls = new boolean[probeRows];
                        }
                        nulls[r] = true;
                    }
                }
                out[probeSide.length] = Col.ofBools(java.util.Arrays.copyOf(probeMatched, probeRows), nulls);
                enqueue(out, probeRows);
            }
            case INNER -> {
            }
        }
        probeCols = null;
        probeBatch.close();
        probeBatch = null;
        probeMarkNull = null;
        probeKeyNull = null;
    }

    /**
     * Queues probe rows {@code rows} (a semi or anti join's output): each column gathered once in
     * the form the probe batch holds it (a string vector stays bytes, not decoded to be copied).
     */
    private void enqueueProbeRows(int[] rows) {
        if (rows.length == 0) {
            return;
        }
        if (rows.length <= batchSize && probeBatch.schema().equals(outputSchema)) {
            queue.add(probeBatch.gather(rows, rows.length, context.allocator()));
        } else {
            enqueue(JoinSupport.gather(probeCols(), rows, rows.length), rows.length);
        }
    }

    /** Queues heap output columns as batches of at most the batch size (made Arrow when a consumer asks). */
    private void enqueue(Col[] columns, int rows) {
        ArrayDeque<Col[]> slices = new ArrayDeque<>();
        JoinSupport.enqueue(slices, columns, rows, batchSize);
        for (Col[] slice : slices) {
            queue.add(Batch.of(outputSchema, slice, slice.length == 0 ? 0 : slice[0].length, context.allocator()));
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            queue.forEach(Batch::close);
            queue.clear();
            if (probeBatch != null) {
                probeBatch.close();
                probeBatch = null;
            }
            probe.close();
        } finally {
            try {
                if (ownsBuild) {
                    build.close();
                }
            } finally {
                reservation.close();
            }
        }
    }
}
