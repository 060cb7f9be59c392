package io.sluice.coordinator.scheduler;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Batch;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.MapStatus;
import io.sluice.operators.Partitioning;
import io.sluice.operators.RangeBoundaries;
import io.sluice.operators.basic.SampleExec;
import io.sluice.shuffle.ShuffleWriterExec;
import io.sluice.shuffle.stage.Stage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves range split points before the stages that range-partition over them run: every stage
 * sharing one not-yet-resolved split-point set runs once as a sampling stage, one boundary set is
 * computed from all the samples, and it is bound into each of them, so their partitions line up.
 * Split points an earlier attempt of the query resolved are bound again without sampling.
 */
final class SplitPointResolver {
    private static final Logger LOG = LoggerFactory.getLogger(SplitPointResolver.class);

    /** Sampled key rows per map partition when resolving range split points. */
    static final int SAMPLE_ROWS_PER_PARTITION = 1000;

    /**
     * Map partitions one sampling task samples, one after the other: sampling a partition (a
     * Parquet row group's keys, say) takes milliseconds, a task round trip through the dispatcher
     * much longer, so one task per map partition made the sampling run cost about as much wall
     * time as the map stage itself.
     */
    static final int SAMPLE_PARTITIONS_PER_TASK = 16;

    private final BlockFetcher fetcher;
    private final Consumer<List<String>> removeShuffles;
    private final AtomicLong sampleRuns = new AtomicLong();

    SplitPointResolver(BlockFetcher fetcher, Consumer<List<String>> removeShuffles) {
        this.fetcher = requireNonNull(fetcher, "fetcher is null");
        this.removeShuffles = requireNonNull(removeShuffles, "removeShuffles is null");
    }

    /**
     * Whether {@code candidate}, whose parents are done, may be submitted as far as split points go:
     * true when its writer has none to resolve, or they are bound now (recorded in {@code splits},
     * or resolved here because every pending stage sharing them can run); false while one of those
     * stages waits for its parents. {@code runSampling} runs a sampling stage's tasks on the job.
     */
    boolean bindSplitPoints(String jobId, Stage candidate, List<Stage> pending, Set<Integer> done,
            Map<Integer, ShuffleWriterExec> plans, ResolvedSplitPoints splits,
            Function<Stage, List<MapStatus>> runSampling) {
        Optional<Partitioning.Range> range = unresolvedRange(plans.get(candidate.id()));
        if (range.isEmpty()) {
            return true;
        }
        String id = range.get().splits().id();
        Optional<List<List<Object>>> recorded = splits.get(id);
        if (recorded.isPresent()) {
            bindSplits(plans, candidate, recorded.get());
            return true;
        }
        List<Stage> group = pending.stream()
                .filter(s -> unresolvedRange(plans.get(s.id())).map(r -> r.splits().id().equals(id)).orElse(false))
                .toList();
        if (!group.stream().allMatch(s -> done.containsAll(s.parents()))) {
            return false;
        }
        resolveSplits(jobId, plans, group, splits, runSampling);
        return true;
    }

    private static Optional<Partitioning.Range> unresolvedRange(ShuffleWriterExec writer) {
        if (writer.outputPartitioning() instanceof Partitioning.Range range && !range.splits().resolved()) {
            return Optional.of(range);
        }
        return Optional.empty();
    }

    /**
     * The stage's input narrowed to the columns its sort keys read, when the input can take that
     * projection ({@code trySwappingWithProjection}: a scan then decodes only those columns), so
     * the sampling run reads less than the real one. Partitions are unchanged.
     */
    private static ExecutionPlan keysOnly(ExecutionPlan input, List<SortKey> keys) {
        Set<String> used = new LinkedHashSet<>();
        keys.forEach(k -> used.addAll(Exprs.columns(k.expr())));
        if (used.isEmpty() || used.size() == input.schema().size()) {
            return input;
        }
        List<Expr> projection = used.stream().map(c -> (Expr) new Column(c)).toList();
        return input.trySwappingWithProjection(projection)
                .filter(p -> p.properties().partitioning().partitionCount() == input.properties().partitioning().partitionCount())
                .orElse(input);
    }

    /** The stage's writer bound to the recorded boundaries of its split points. */
    private static void bindSplits(Map<Integer, ShuffleWriterExec> plans, Stage stage, List<List<Object>> boundaries) {
        ShuffleWriterExec writer = plans.get(stage.id());
        Partitioning.Range r = (Partitioning.Range) writer.outputPartitioning();
        plans.put(stage.id(), new ShuffleWriterExec(writer.input(), r.withBoundaries(boundaries), writer.shuffleId())
                .withEstimatedRows(writer.estimatedRows()));
    }

    private void resolveSplits(String jobId, Map<Integer, ShuffleWriterExec> plans, List<Stage> group,
            ResolvedSplitPoints splits, Function<Stage, List<MapStatus>> runSampling) {
        List<Batch> samples = new ArrayList<>();
        List<String> sampleShuffles = new ArrayList<>();
        try {
            Partitioning.Range range = null;
            for (Stage stage : group) {
                ShuffleWriterExec writer = plans.get(stage.id());
                range = (Partitioning.Range) writer.outputPartitioning();
                // A fresh id per try: a retry after a lost input must not meet the first try's cleanup.
                String shuffleId = stage.shuffleId() + "-sample" + sampleRuns.incrementAndGet();
                ShuffleWriterExec sampler = new ShuffleWriterExec(
                        new SampleExec(keysOnly(writer.input(), range.keys()), range.keys(), SAMPLE_ROWS_PER_PARTITION,
                                SAMPLE_PARTITIONS_PER_TASK),
                        new Partitioning.Single(),
                        shuffleId);
                sampleShuffles.add(shuffleId);
                Stage sampling = new Stage(DagScheduler.SAMPLE_STAGE_OFFSET + stage.id(), shuffleId, sampler, stage.parents());
                samples.addAll(fetcher.fetchAll(jobId, shuffleId, runSampling.apply(sampling)));
            }
            List<List<Object>> boundaries = RangeBoundaries.computeFromBatches(samples, range.keys(), range.partitionCount());
            splits.record(range.splits().id(), boundaries);
            for (Stage stage : group) {
                bindSplits(plans, stage, boundaries);
            }
            LOG.debug("job {}: split points {} resolved to {} boundaries", jobId, range.splits().id(), boundaries.size());
        } finally {
            samples.forEach(Batch::close);
            removeShuffles.accept(sampleShuffles);
        }
    }
}
