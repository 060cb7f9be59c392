package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.coordinator.scheduler.Stage;
import io.sluice.coordinator.scheduler.StageCutter;
import io.sluice.coordinator.scheduler.TaskFailedException;
import io.sluice.optimizer.logical.LogicalOptimizer;
import io.sluice.optimizer.physical.PhysicalConfig;
import io.sluice.optimizer.physical.PhysicalOptimizer;
import io.sluice.optimizer.physical.PhysicalPlanner;
import io.sluice.plan.SluiceException;
import io.sluice.plan.exec.ArrowIpc;
import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.MapStatus;
import io.sluice.plan.source.FileFormats;
import io.sluice.plan.sql.InMemoryCatalog;
import io.sluice.plan.sql.SqlFrontEnd;
import io.sluice.plan.sql.Statement;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.Field;
import io.sluice.plan.types.Schema;
import io.sluice.shuffle.ShuffleClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's query path: SQL or a logical plan in, an Arrow IPC stream of the result out.
 * Optimizes, plans, cuts stages, runs them through the {@link DagScheduler}, collects the result
 * blocks over the shuffle service and removes the job's shuffle files. A job that fails for a
 * reason other than the user's input (a lost worker whose map output is gone) runs once more.
 */
public final class QueryService {
    private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);
    private static final int JOB_ATTEMPTS = 2;

    private final InMemoryCatalog catalog = new InMemoryCatalog();
    private final LogicalOptimizer logicalOptimizer;
    private final PhysicalPlanner planner = new PhysicalPlanner();
    private final PhysicalOptimizer physicalOptimizer = PhysicalOptimizer.standard();
    private final DagScheduler scheduler;
    private final ShuffleClient shuffleClient;
    private final BufferAllocator allocator;
    private final IntSupplier shufflePartitions;
    private final Consumer<List<String>> removeShuffles;
    private final AtomicLong jobIds = new AtomicLong();

    public QueryService(DagScheduler scheduler, ShuffleClient shuffleClient, BufferAllocator allocator,
            IntSupplier shufflePartitions, Consumer<List<String>> removeShuffles, int maxOptimizerPasses) {
        this.scheduler = requireNonNull(scheduler, "scheduler is null");
        this.shuffleClient = requireNonNull(shuffleClient, "shuffleClient is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.shufflePartitions = requireNonNull(shufflePartitions, "shufflePartitions is null");
        this.removeShuffles = requireNonNull(removeShuffles, "removeShuffles is null");
        this.logicalOptimizer = new LogicalOptimizer(LogicalOptimizer.standardRules(), maxOptimizerPasses);
    }

    public InMemoryCatalog catalog() {
        return catalog;
    }

    /** Runs every statement of a script; returns the last one's result. */
    public byte[] runSql(String script) {
        List<String> statements = SqlFrontEnd.splitStatements(script);
        if (statements.isEmpty()) {
            throw new SluiceException("no SQL statement given");
        }
        byte[] last = null;
        for (String sql : statements) {
            last = runStatement(SqlFrontEnd.parse(sql, catalog));
        }
        return last;
    }

    private byte[] runStatement(Statement statement) {
        if (statement instanceof Statement.CreateExternalTable create) {
            catalog.register(FileFormats.register(create.name(), create.format(), create.location()));
            return message("status", "created table " + create.name());
        }
        if (statement instanceof Statement.Explain explain) {
            return message("plan", explain(explain.plan(), explain.verbose()));
        }
        if (statement instanceof Statement.Query query) {
            return run(query.plan());
        }
        throw new SluiceException("unsupported statement: " + statement);
    }

    /** Logical, optimized logical, physical and staged plans, as text. */
    public String explain(LogicalPlan plan, boolean verbose) {
        LogicalOptimizer.Result optimized = logicalOptimizer.run(plan);
        ExecutionPlan physical = physicalPlan(optimized.plan());
        StringBuilder out = new StringBuilder();
        out.append("== Logical Plan ==\n").append(plan.explain());
        if (verbose) {
            out.append("== Optimizer Passes ==\n");
            optimized.trace().forEach(t -> out.append(t).append('\n'));
        }
        out.append("== Optimized Logical Plan ==\n").append(optimized.plan().explain());
        out.append("== Physical Plan ==\n").append(physical.explain());
        out.append("== Stages ==\n").append(StageCutter.explain(StageCutter.cut(physical, "explain")));
        return out.toString();
    }

    public ExecutionPlan physicalPlan(LogicalPlan optimized) {
        ExecutionPlan physical = planner.plan(optimized);
        return physicalOptimizer.optimize(physical, new PhysicalConfig(Math.max(1, shufflePartitions.getAsInt())));
    }

    /** Runs a query plan on the cluster; returns the result as one Arrow IPC stream. */
    public byte[] run(LogicalPlan plan) {
        ExecutionPlan physical = physicalPlan(logicalOptimizer.optimize(plan));
        for (int attempt = 1; ; attempt++) {
            String jobId = "job" + jobIds.incrementAndGet();
            List<Stage> stages = StageCutter.cut(physical, jobId);
            try {
                List<MapStatus> result = scheduler.run(jobId, stages);
                return collect(stages.get(stages.size() - 1), result);
            } catch (TaskFailedException e) {
                if (attempt >= JOB_ATTEMPTS) {
                    throw new SluiceException("query failed: " + e.getMessage(), e);
                }
                LOG.warn("job {} failed ({}); running it again", jobId, e.getMessage());
            } finally {
                List<String> shuffles = new ArrayList<>();
                stages.forEach(s -> shuffles.add(s.shuffleId()));
                removeShuffles.accept(shuffles);
            }
        }
    }

    private byte[] collect(Stage resultStage, List<MapStatus> statuses) {
        Schema schema = resultStage.plan().schema();
        List<Batch> batches = new ArrayList<>();
        try {
            for (int map = 0; map < statuses.size(); map++) {
                MapStatus status = statuses.get(map);
                if (status.bytesPerPartition()[0] == 0) {
                    continue;
                }
                byte[] block = shuffleClient.fetch(status.host(), status.port(), resultStage.shuffleId(), map, 0);
                batches.addAll(ArrowIpc.decode(block, allocator));
            }
            return ArrowIpc.encode(schema, batches, allocator);
        } catch (RuntimeException e) {
            throw new TaskFailedException("could not collect the result: " + e.getMessage());
        } finally {
            batches.forEach(Batch::close);
        }
    }

    /** A one-column text result, one row per line. */
    private byte[] message(String column, String text) {
        String[] lines = text.split("\n");
        Schema schema = Schema.of(new Field(column, DataType.UTF8));
        try (Batch batch = Batch.of(schema, new Col[] {Col.ofStrings(lines, null)}, lines.length, allocator)) {
            return ArrowIpc.encode(schema, List.of(batch), allocator);
        }
    }
}
