package io.sluice.coordinator.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.FetchFailure;
import io.sluice.operators.MapStatus;
import io.sluice.operators.Partitioning;
import io.sluice.operators.SplitPoints;
import io.sluice.operators.basic.EmptyExec;
import io.sluice.shuffle.ShuffleClient;
import io.sluice.shuffle.ShuffleReaderExec;
import io.sluice.shuffle.ShuffleWriterExec;
import io.sluice.shuffle.stage.Stage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's order of submission, observed through the task launcher it is given: which tasks
 * are submitted while which others are still running. Task outcomes are decided by the test.
 */
class DagSchedulerTest {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.INT64));

    /** Tasks submitted so far, by "stage/partition", each waiting for the test to finish it. */
    private final Map<String, CompletableFuture<MapStatus>> launched = new ConcurrentHashMap<>();
    /** The same launches in submission order, each as "stage/partition" and its future. */
    private final BlockingQueue<Map.Entry<String, CompletableFuture<MapStatus>>> launches = new LinkedBlockingQueue<>();
    private final ExecutorService jobThread = Executors.newSingleThreadExecutor();
    private RootAllocator allocator;
    private ShuffleClient client;
    private DagScheduler scheduler;
    private TaskLauncher launcher;

    @BeforeEach
    void start() {
        allocator = new RootAllocator();
        client = new ShuffleClient("test");
        launcher = (jobId, stageId, partition, plan) -> {
            CompletableFuture<MapStatus> task = new CompletableFuture<>();
            launched.put(stageId + "/" + partition, task);
            launches.add(Map.entry(stageId + "/" + partition, task));
            return task;
        };
        scheduler = new DagScheduler(launcher, new BlockFetcher(client, allocator), shuffles -> { }, 10_000);
    }

    @AfterEach
    void stop() {
        jobThread.shutdownNow();
        client.close();
        allocator.close();
    }

    /** Two map stages feeding a join stage: both are submitted before either finishes. */
    @Test
    void independentStagesRunAtTheSameTime() throws Exception {
        List<Stage> stages = List.of(stage(0, List.of()), stage(1, List.of()), stage(2, List.of(0, 1)));
        Future<List<MapStatus>> job = jobThread.submit(() -> scheduler.run("job1", stages));

        awaitLaunched("0/0", "1/0");
        assertThat(launched).doesNotContainKey("2/0");
        launched.get("1/0").complete(status("w1"));
        launched.get("0/0").complete(status("w0"));

        awaitLaunched("2/0");
        MapStatus result = status("w-result");
        launched.get("2/0").complete(result);
        assertThat(job.get(5, TimeUnit.SECONDS)).containsExactly(result);
    }

    /** A cancelled job stops at once, cancelling its running tasks. */
    @Test
    void aCancelledJobCancelsItsTasks() throws Exception {
        Future<List<MapStatus>> job = jobThread.submit(() -> scheduler.run("job1", List.of(stage(0, List.of()))));
        CompletableFuture<MapStatus> task = nextLaunch("0/0");
        assertThat(scheduler.cancel("job1", "asked by a test")).isTrue();
        assertThatThrownBy(() -> job.get(5, TimeUnit.SECONDS)).hasRootCauseInstanceOf(io.sluice.common.SluiceException.class)
                .rootCause().hasMessage("job job1 was cancelled: asked by a test");
        assertThat(task.isCancelled()).isTrue();
        assertThat(scheduler.cancel("job1", "again")).isFalse();
    }

    /**
     * When the coordinator's node stops, a running job fails at once with the reason (its tasks
     * cancelled) rather than waiting out the job timeout, and a later job fails before launching.
     */
    @Test
    void aShutDownFailsRunningAndLaterJobsAtOnce() throws Exception {
        Future<List<MapStatus>> job = jobThread.submit(() -> scheduler.run("job1", List.of(stage(0, List.of()))));
        CompletableFuture<MapStatus> task = nextLaunch("0/0");
        scheduler.shutDown("the node stopped");
        assertThatThrownBy(() -> job.get(5, TimeUnit.SECONDS)).rootCause()
                .hasMessage("job job1 was cancelled: the node stopped");
        assertThat(task.isCancelled()).isTrue();

        assertThatThrownBy(() -> scheduler.run("job2", List.of(stage(0, List.of()))))
                .hasMessage("job job2 was cancelled: the node stopped");
        assertThat(launches).isEmpty();
    }

    /** A failed stage fails the job and cancels the other stage's running tasks. */
    @Test
    void aFailedStageCancelsTheStagesRunningBesideIt() throws Exception {
        List<Stage> stages = List.of(stage(0, List.of()), stage(1, List.of()), stage(2, List.of(0, 1)));
        Future<List<MapStatus>> job = jobThread.submit(() -> scheduler.run("job1", stages));

        awaitLaunched("0/0", "1/0");
        launched.get("0/0").completeExceptionally(new TaskFailedException("disk on fire"));

        assertThatThrownBy(() -> job.get(5, TimeUnit.SECONDS)).hasRootCauseInstanceOf(TaskFailedException.class)
                .hasRootCauseMessage("disk on fire");
        assertThat(launched.get("1/0").isCancelled()).isTrue();
        assertThat(launched).doesNotContainKey("2/0");
    }

    /**
     * Resolving a range stage's split points samples its parent's output; when that output is lost
     * the parent's map task runs again and the sampling is repeated, within the same job.
     */
    @Test
    void aLostOutputFoundWhileSamplingIsRecomputed() throws Exception {
        Partitioning.Range range = new Partitioning.Range(
                List.of(new SortKey(new Column("k"), true, false)), SplitPoints.unresolved("range-1"), 2);
        Stage ranged = new Stage(1, "job1-s1", new ShuffleWriterExec(new EmptyExec(SCHEMA), range, "job1-s1"), List.of(0));
        Future<List<MapStatus>> job = jobThread.submit(() -> scheduler.run("job1", List.of(stage(0, List.of()), ranged)));

        nextLaunch("0/0").complete(status("w-lost"));
        String sampling = (DagScheduler.SAMPLE_STAGE_OFFSET + 1) + "/0";
        nextLaunch(sampling).completeExceptionally(new FetchFailedException(
                new FetchFailure("job1-s0", 0, "127.0.0.1", 1, true), "connection refused"));
        nextLaunch("0/0").complete(new MapStatus("w-new", "127.0.0.1", 2, new long[] {0}));
        nextLaunch(sampling).complete(new MapStatus("w-new", "127.0.0.1", 2, new long[] {0}));
        MapStatus result = status("w-result");
        nextLaunch("1/0").complete(result);
        assertThat(job.get(5, TimeUnit.SECONDS)).containsExactly(result);
    }

    /**
     * Two stages reading one lost server's outputs both fail: the lost map output is recomputed
     * once, and both stages are submitted again.
     */
    @Test
    void aBurstOfFetchFailuresFromOneLostWorkerRecomputesOnce() throws Exception {
        List<Stage> stages = List.of(stage(0, List.of()), stage(1, List.of(0)), stage(2, List.of(0)),
                stage(3, List.of(1, 2)));
        Future<List<MapStatus>> job = jobThread.submit(() -> scheduler.run("job1", stages));
        nextLaunch("0/0").complete(new MapStatus("w-lost", "127.0.0.1", 7, new long[] {1}));
        Map<String, CompletableFuture<MapStatus>> readers = nextLaunches(2);
        FetchFailedException lost = new FetchFailedException(new FetchFailure("job1-s0", 0, "127.0.0.1", 7, true),
                "connection refused");
        readers.get("1/0").completeExceptionally(lost);
        nextLaunch("0/0").complete(new MapStatus("w-new", "127.0.0.1", 8, new long[] {1}));
        nextLaunch("1/0").complete(status("w-new"));
        readers.get("2/0").completeExceptionally(lost);
        // the output already moved off the lost server: stage 2 reads it again, nothing is recomputed
        nextLaunch("2/0").complete(status("w-new"));
        MapStatus result = status("w-result");
        nextLaunch("3/0").complete(result);
        assertThat(job.get(5, TimeUnit.SECONDS)).containsExactly(result);
        assertThat(launches).isEmpty();
    }

    /**
     * A worker leaves while a stage reading its outputs runs: the lost output is recomputed at once,
     * before any reader fails; the reader that then fails on the old location only runs again.
     */
    @Test
    void aLeavingWorkersOutputsAreRecomputedAtOnce() throws Exception {
        Future<List<MapStatus>> job = jobThread.submit(() -> scheduler.run("job1", List.of(stage(0, List.of()),
                stage(1, List.of(0)))));
        nextLaunch("0/0").complete(new MapStatus("w-gone", "127.0.0.1", 7, new long[] {1}));
        CompletableFuture<MapStatus> reader = nextLaunch("1/0");
        scheduler.serverLost("127.0.0.1", 7);
        nextLaunch("0/0").complete(new MapStatus("w-new", "127.0.0.1", 8, new long[] {1}));
        reader.completeExceptionally(new FetchFailedException(new FetchFailure("job1-s0", 0, "127.0.0.1", 7, true),
                "connection refused"));
        MapStatus result = status("w-result");
        nextLaunch("1/0").complete(result);
        assertThat(job.get(5, TimeUnit.SECONDS)).containsExactly(result);
        assertThat(launches).isEmpty();
    }

    /** A stage whose output is lost every time fails its job after sluice.stage.max-attempts submissions. */
    @Test
    void aStageIsSubmittedAtMostStageMaxAttemptsTimes() throws Exception {
        scheduler = new DagScheduler(launcher, new BlockFetcher(client, allocator), shuffles -> { },
                new MapOutputTracker(), 10_000, 2, Integer.MAX_VALUE);
        Future<List<MapStatus>> job = jobThread.submit(() -> scheduler.run("job1", List.of(stage(0, List.of()),
                stage(1, List.of(0)))));
        FetchFailedException corrupt = new FetchFailedException(new FetchFailure("job1-s0", 0, "127.0.0.1", 1, false),
                "checksum mismatch");
        nextLaunch("0/0").complete(status("w0"));
        nextLaunch("1/0").completeExceptionally(corrupt);
        nextLaunch("0/0").complete(status("w0"));
        nextLaunch("1/0").completeExceptionally(corrupt);
        // recomputing the lost output would be stage 0's third submission
        assertThatThrownBy(() -> job.get(5, TimeUnit.SECONDS)).hasRootCauseInstanceOf(AttemptsExhaustedException.class)
                .rootCause().hasMessageContaining("stage 0 was submitted 2 times (sluice.stage.max-attempts)")
                .hasMessageContaining("checksum mismatch");
        assertThat(launches).isEmpty();
    }

    /**
     * A reading stage's task carries no map output table: its plan goes out with the shuffle reader
     * unbound, and it is launched expecting to read its own partition, whose one column of block
     * sizes the tracker has registered by then (the dispatcher sends it with the task).
     */
    @Test
    void tasksCarryNoMapOutputTable() throws Exception {
        MapOutputTracker tracker = new MapOutputTracker();
        Partitioning.Hash hash = new Partitioning.Hash(List.of(new Column("k")), 4);
        MapStatus mapOutput = new MapStatus("w0", "127.0.0.1", 1, new long[] {5, 6, 7, 8});
        List<String> checked = new java.util.concurrent.CopyOnWriteArrayList<>();
        TaskLauncher checking = new TaskLauncher() {
            @Override
            public CompletableFuture<MapStatus> launch(String jobId, int stageId, int partition, byte[] plan) {
                throw new AssertionError("the scheduler names what a task reads");
            }

            @Override
            public CompletableFuture<MapStatus> launch(String jobId, int stageId, int partition, byte[] plan,
                    List<String> preferredHosts, ShuffleReads reads) {
                if (stageId == 0) {
                    assertThat(reads).isEqualTo(ShuffleReads.NONE);
                    return CompletableFuture.completedFuture(mapOutput);
                }
                ShuffleWriterExec sent = io.sluice.cluster.serialization.Kryos.deserialize(plan, ShuffleWriterExec.class);
                assertThat(((io.sluice.shuffle.ShuffleReaderExec) sent.input()).mapOutputs()).isEmpty();
                assertThat(reads.reads()).containsExactly(new ShuffleReads.Read("job1-s0", partition));
                assertThat(tracker.columns(jobId, reads)).singleElement()
                        .satisfies(c -> assertThat(c.blocks().get(0).bytesPerPartition()).containsExactly(5L + partition));
                checked.add(stageId + "/" + partition);
                return CompletableFuture.completedFuture(status("w1"));
            }
        };
        DagScheduler s = new DagScheduler(checking, new BlockFetcher(client, allocator), shuffles -> { }, tracker,
                10_000, 4, Integer.MAX_VALUE);
        Stage map = new Stage(0, "job1-s0", new ShuffleWriterExec(new EmptyExec(SCHEMA), hash, "job1-s0"), List.of());
        Stage reader = new Stage(1, "job1-s1", new ShuffleWriterExec(new io.sluice.shuffle.ShuffleReaderExec(SCHEMA,
                "job1-s0", hash, List.of()), new Partitioning.Single(), "job1-s1"), List.of(0));
        assertThat(s.run("job1", List.of(map, reader))).hasSize(4);
        assertThat(checked).containsExactlyInAnyOrder("1/0", "1/1", "1/2", "1/3");
        assertThat(tracker.jobCount()).as("outputs kept after the job ended").isZero();
    }

    /** A stage plan larger than a protocol message may be fails the job at once, naming the limit. */
    @Test
    void aPlanPastTheFrameLimitFailsFast() {
        scheduler = new DagScheduler(launcher, new BlockFetcher(client, allocator), shuffles -> { },
                new MapOutputTracker(), 10_000, 4, DagScheduler.TASK_MESSAGE_OVERHEAD + 16);
        assertThatThrownBy(() -> scheduler.run("job1", List.of(stage(0, List.of()))))
                .isInstanceOf(io.sluice.common.SluiceException.class)
                .hasMessageContaining("stage 0 of job job1 serializes to")
                .hasMessageContaining("limit of a protocol message is " + (DagScheduler.TASK_MESSAGE_OVERHEAD + 16) + " bytes");
        assertThat(launched).isEmpty();
    }

    private Map<String, CompletableFuture<MapStatus>> nextLaunches(int n) throws InterruptedException {
        Map<String, CompletableFuture<MapStatus>> out = new java.util.HashMap<>();
        for (int i = 0; i < n; i++) {
            Map.Entry<String, CompletableFuture<MapStatus>> next = launches.poll(5, TimeUnit.SECONDS);
            assertThat(next).as("launch " + (i + 1) + " of " + n).isNotNull();
            out.put(next.getKey(), next.getValue());
        }
        return out;
    }

    /**
     * Split points already recorded for the query are bound, not sampled: no sampling stage runs,
     * the range stage's tasks carry the recorded boundaries, a map task recomputed after its output
     * was lost carries the very same ones, and so does a second run of the whole job.
     */
    @Test
    void recordedSplitPointsAreBoundByEveryRunAndRecomputation() throws Exception {
        List<List<Object>> boundaries = List.of(List.of(5L));
        ResolvedSplitPoints splits = new ResolvedSplitPoints();
        splits.record("range-1", boundaries);
        List<ShuffleWriterExec> submitted = new java.util.concurrent.CopyOnWriteArrayList<>();
        scheduler.addListener(new DagScheduler.StageListener() {
            @Override
            public void stageCompleted(String jobId, int stageId) {
            }

            @Override
            public void stageSubmitted(String jobId, int stageId, ShuffleWriterExec plan, List<Integer> partitions) {
                if (stageId == 1) {
                    submitted.add(plan);
                }
            }
        });
        for (String jobId : List.of("job1", "job2")) {
            Partitioning.Range range = new Partitioning.Range(
                    List.of(new SortKey(new Column("k"), true, false)), SplitPoints.unresolved("range-1"), 2);
            String shuffle = jobId + "-s1";
            Stage ranged = new Stage(1, shuffle, new ShuffleWriterExec(new EmptyExec(SCHEMA), range, shuffle), List.of());
            Stage result = new Stage(2, jobId + "-s2", new ShuffleWriterExec(
                    new ShuffleReaderExec(SCHEMA, shuffle, range, List.of()), new Partitioning.Single(), jobId + "-s2"),
                    List.of(1));
            Future<List<MapStatus>> job = jobThread.submit(() -> scheduler.run(jobId, List.of(ranged, result), splits));

            nextLaunch("1/0").complete(new MapStatus("w-lost", "127.0.0.1", 1, new long[] {0, 0}));
            // a reader finds the range output gone: that map task runs again, then the readers
            CompletableFuture<MapStatus> reader0 = nextLaunch("2/0");
            nextLaunch("2/1");
            reader0.completeExceptionally(new FetchFailedException(
                    new FetchFailure(shuffle, 0, "127.0.0.1", 1, true), "connection refused"));
            nextLaunch("1/0").complete(new MapStatus("w-new", "127.0.0.1", 2, new long[] {0, 0}));
            MapStatus done0 = status("w-result");
            MapStatus done1 = status("w-result");
            nextLaunch("2/0").complete(done0);
            nextLaunch("2/1").complete(done1);
            assertThat(job.get(5, TimeUnit.SECONDS)).containsExactly(done0, done1);
        }
        assertThat(launches).as("no sampling stage ran").isEmpty();
        assertThat(submitted).hasSize(4); // two jobs, each a first run and a recomputation
        for (ShuffleWriterExec plan : submitted) {
            Partitioning.Range bound = (Partitioning.Range) plan.outputPartitioning();
            assertThat(bound.splits().id()).isEqualTo("range-1");
            assertThat(bound.splits().boundaries()).isEqualTo(boundaries);
        }
        assertThat(splits.all()).containsOnlyKeys("range-1");
    }

    private CompletableFuture<MapStatus> nextLaunch(String expected) throws InterruptedException {
        Map.Entry<String, CompletableFuture<MapStatus>> next = launches.poll(5, TimeUnit.SECONDS);
        assertThat(next).as("a launch of " + expected).isNotNull();
        assertThat(next.getKey()).isEqualTo(expected);
        return next.getValue();
    }

    private void awaitLaunched(String... tasks) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!launched.keySet().containsAll(List.of(tasks))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("tasks " + List.of(tasks) + " not submitted; submitted: " + launched.keySet());
            }
            Thread.sleep(5);
        }
    }

    private static Stage stage(int id, List<Integer> parents) {
        String shuffleId = "job1-s" + id;
        return new Stage(id, shuffleId, new ShuffleWriterExec(new EmptyExec(SCHEMA), new Partitioning.Single(), shuffleId), parents);
    }

    private static MapStatus status(String worker) {
        return new MapStatus(worker, "127.0.0.1", 1, new long[] {0});
    }
}
