package io.sluice.bench;

import io.sluice.cluster.NodeConfig;
import io.sluice.cluster.SluiceNode;
import io.sluice.cluster.protocol.CoordinatorCommand;
import io.sluice.cluster.protocol.RegisterWorker;
import io.sluice.cluster.protocol.RunTask;
import io.sluice.cluster.protocol.TaskFinished;
import io.sluice.cluster.protocol.WorkerCommand;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.coordinator.ActorTaskLauncher;
import io.sluice.coordinator.CoordinatorActor;
import io.sluice.coordinator.SchedulerSettings;
import io.sluice.coordinator.scheduler.BlockFetcher;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.coordinator.scheduler.MapOutputTracker;
import io.sluice.coordinator.scheduler.TaskLauncher;
import io.sluice.logical.expr.Column;
import io.sluice.operators.MapStatus;
import io.sluice.operators.Partitioning;
import io.sluice.operators.basic.EmptyExec;
import io.sluice.shuffle.ShuffleClient;
import io.sluice.shuffle.ShuffleReaderExec;
import io.sluice.shuffle.ShuffleWriterExec;
import io.sluice.shuffle.stage.Stage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.RootAllocator;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Scheduler throughput: the real {@link DagScheduler} and dispatcher actor ({@link CoordinatorActor},
 * default {@link SchedulerSettings}, task timeouts armed) drive simulated workers, actors in the
 * coordinator's own actor system that answer every task at once. Measured: tasks dispatched and
 * completed per second for one stage of {@code tasks} tasks, from its first launch to the stage's
 * completion, at each worker count (4 slots each). Each count runs a few warm-up jobs, then
 * {@code rounds} measured ones; the median and best are printed.
 *
 * <p>Run: {@code java -cp "bench/target/sluice-bench-*.jar:bench/target/lib/*"
 * io.sluice.bench.SchedulerBenchmark [tasks] [rounds] [workers,...]}
 *
 * <p>{@code SchedulerBenchmark floor [runs] [tpch-directory]} measures the other side of scheduling,
 * what a whole small query costs in a warm embedded cluster ({@link QueryFloor}).
 */
public final class SchedulerBenchmark {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.INT64));
    private static final int SLOTS = 4;

    private SchedulerBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("floor")) {
            QueryFloor.run(Path.of(args.length > 2 ? args[2] : System.getProperty("user.home") + "/.sluice/tpch/sf1-duckdb"),
                    args.length > 1 ? Integer.parseInt(args[1]) : 30);
            return;
        }
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int[] workerCounts = args.length > 2 ? Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray()
                : new int[] {2, 4, 8, 16, 32, 64};
        System.out.printf("%-8s %-6s %14s %14s%n", "workers", "slots", "median tasks/s", "best tasks/s");
        for (int workers : workerCounts) {
            double[] rates = run(workers, tasks, rounds);
            double median = Medians.sortInPlace(rates);
            System.out.printf("%-8d %-6d %,14.0f %,14.0f%n", workers, workers * SLOTS, median,
                    rates[rates.length - 1]);
        }
    }

    private static double[] run(int workerCount, int tasks, int rounds) throws Exception {
        MapOutputTracker tracker = new MapOutputTracker();
        ActorSystem<CoordinatorCommand> system = SluiceNode.start(
                CoordinatorActor.create("bench-coordinator", SchedulerSettings.defaults(), tracker, (job, m) -> { },
                        (host, port) -> { }),
                NodeConfig.coordinator("127.0.0.1", 0).withLogLevel("WARNING"));
        try (RootAllocator allocator = new RootAllocator(); ShuffleClient client = new ShuffleClient("bench")) {
            for (int w = 0; w < workerCount; w++) {
                String id = "sim-" + w;
                ActorRef<WorkerCommand> worker = system.systemActorOf(simulatedWorker(id), id, Props.empty());
                system.tell(new RegisterWorker(id, worker, "127.0.0.1", 1000 + w, SLOTS));
            }
            Thread.sleep(200);
            AtomicLong stageStart = new AtomicLong();
            TaskLauncher actors = new ActorTaskLauncher(system, (job, stage, partition, m) -> { });
            TaskLauncher timed = (jobId, stageId, partition, plan) -> {
                if (stageId == 1 && partition == 0) {
                    stageStart.set(System.nanoTime());
                }
                return actors.launch(jobId, stageId, partition, plan);
            };
            DagScheduler scheduler = new DagScheduler(timed, new BlockFetcher(client, allocator), ids -> { }, tracker,
                    Duration.ofMinutes(5).toMillis(), 4, Integer.MAX_VALUE);
            AtomicLong stageEnd = new AtomicLong();
            scheduler.addListener((jobId, stageId) -> {
                if (stageId == 1) {
                    stageEnd.set(System.nanoTime());
                }
            });
            int warmups = 3;
            double[] rates = new double[rounds];
            for (int round = 0; round < warmups + rounds; round++) {
                int completed = scheduler.run("bench" + round, stages(tasks)).size();
                if (completed != tasks) {
                    throw new IllegalStateException(completed + " of " + tasks + " tasks completed");
                }
                double seconds = (stageEnd.get() - stageStart.get()) / 1e9;
                if (round >= warmups) {
                    rates[round - warmups] = tasks / seconds;
                }
            }
            return rates;
        } finally {
            SluiceNode.terminate(system, Duration.ofSeconds(10));
        }
    }

    /** A map stage of one task, and a stage of {@code tasks} tasks reading it. */
    private static List<Stage> stages(int tasks) {
        Partitioning.Hash hash = new Partitioning.Hash(List.of(new Column("k")), tasks);
        Stage map = new Stage(0, "b-s0", new ShuffleWriterExec(new EmptyExec(SCHEMA), hash, "b-s0"), List.of());
        Stage wide = new Stage(1, "b-s1", new ShuffleWriterExec(new ShuffleReaderExec(SCHEMA, "b-s0", hash, List.of()),
                new Partitioning.Single(), "b-s1"), List.of(0));
        return new ArrayList<>(List.of(map, wide));
    }

    /** Answers each task at once with an empty one-block output. */
    private static Behavior<WorkerCommand> simulatedWorker(String id) {
        return Behaviors.receive(WorkerCommand.class)
                .onMessage(RunTask.class, run -> {
                    run.replyTo().tell(TaskFinished.succeeded(run.task().taskId(), id,
                            new MapStatus(id, "127.0.0.1", 1, new long[] {0})));
                    return Behaviors.same();
                })
                .onAnyMessage(m -> Behaviors.same())
                .build();
    }
}
