package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.coordinator.scheduler.AttemptsExhaustedException;
import io.sluice.coordinator.scheduler.BlockFetcher;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.coordinator.scheduler.Stage;
import io.sluice.coordinator.scheduler.StageCutter;
import io.sluice.coordinator.scheduler.TaskFailedException;
import io.sluice.optimizer.logical.LogicalOptimizer;
import io.sluice.optimizer.logical.LogicalRule;
import io.sluice.optimizer.physical.PhysicalConfig;
import io.sluice.optimizer.physical.PhysicalOptimizer;
import io.sluice.optimizer.physical.PhysicalPlanner;
import io.sluice.plan.SluiceException;
import io.sluice.plan.exec.ArrowIpc;
import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.logical.StatisticsEstimator;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.MapStatus;
import io.sluice.plan.source.FileFormats;
import io.sluice.plan.sql.InMemoryCatalog;
import io.sluice.plan.sql.SqlFrontEnd;
import io.sluice.plan.sql.Statement;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.Field;
import io.sluice.plan.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
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
    private final PhysicalOptimizer physicalOptimizer = PhysicalOptimizer.standard();
    private final QueryConfig defaults;
    private final DagScheduler scheduler;
    private final BlockFetcher fetcher;
    private final BufferAllocator allocator;
    private final IntSupplier shufflePartitions;
    private final Consumer<List<String>> removeShuffles;
    private final AtomicLong jobIds = new AtomicLong();
    private final JobMetrics jobMetrics;
    private final RunningQueries running;

    public QueryService(DagScheduler scheduler, BlockFetcher fetcher, BufferAllocator allocator,
            IntSupplier shufflePartitions, Consumer<List<String>> removeShuffles, QueryConfig defaults,
            JobMetrics jobMetrics) {
        this.scheduler = requireNonNull(scheduler, "scheduler is null");
        this.fetcher = requireNonNull(fetcher, "fetcher is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.shufflePartitions = requireNonNull(shufflePartitions, "shufflePartitions is null");
        this.removeShuffles = requireNonNull(removeShuffles, "removeShuffles is null");
        this.defaults = requireNonNull(defaults, "defaults is null");
        this.jobMetrics = requireNonNull(jobMetrics, "jobMetrics is null");
        this.running = new RunningQueries(scheduler::cancel, scheduler::progress);
    }

    public InMemoryCatalog catalog() {
        return catalog;
    }

    /** Runs every statement of a script; returns the last one's result. */
    public byte[] runSql(String script) {
        return runSql(script, QueryScope.NONE);
    }

    /** Runs every statement of a script, telling {@code scope} each query's id; returns the last one's result. */
    public byte[] runSql(String script, QueryScope scope) {
        List<String> statements = SqlFrontEnd.splitStatements(script);
        if (statements.isEmpty()) {
            throw new SluiceException("no SQL statement given");
        }
        byte[] last = null;
        QueryConfig config = defaults;
        for (String sql : statements) {
            Statement statement = SqlFrontEnd.parse(sql, catalog);
            if (statement instanceof Statement.SetOption set) {
                config = config.with(set.name(), set.value());
                last = message("status", set.name() + " = " + set.value());
            } else {
                last = runStatement(statement, config, sql, scope);
            }
        }
        return last;
    }

    private byte[] runStatement(Statement statement, QueryConfig config, String text, QueryScope scope) {
        if (statement instanceof Statement.CreateExternalTable create) {
            catalog.register(FileFormats.register(create.name(), create.format(), create.location()));
            return message("status", "created table " + create.name());
        }
        if (statement instanceof Statement.CreateView view) {
            catalog.registerView(view.name(), view.plan(), view.replace());
            return message("status", "created view " + view.name());
        }
        if (statement instanceof Statement.DropView drop) {
            if (!catalog.dropView(drop.name()) && !drop.ifExists()) {
                throw new SluiceException("unknown view '" + drop.name() + "'");
            }
            return message("status", "dropped view " + drop.name());
        }
        if (statement instanceof Statement.Explain explain) {
            if (explain.analyze()) {
                return message("plan", explainAnalyze(explain.plan(), config));
            }
            return message("plan", explain(explain.plan(), explain.verbose(), config));
        }
        if (statement instanceof Statement.Query query) {
            return run(query.plan(), config, text, scope);
        }
        throw new SluiceException("unsupported statement: " + statement);
    }

    /** Logical and optimized logical plans (with estimated rows), physical and staged plans, as text. */
    public String explain(LogicalPlan plan, boolean verbose) {
        return explain(plan, verbose, defaults);
    }

    public String explain(LogicalPlan plan, boolean verbose, QueryConfig config) {
        LogicalOptimizer.Result optimized = logicalOptimizer(config).run(plan);
        ExecutionPlan physical = physicalPlan(optimized.plan(), config);
        StringBuilder out = new StringBuilder();
        StatisticsEstimator statistics = new StatisticsEstimator();
        out.append("== Logical Plan ==\n").append(plan.explain(statistics));
        if (verbose) {
            out.append("== Optimizer Passes ==\n");
            optimized.trace().forEach(t -> out.append(t).append('\n'));
        }
        out.append("== Optimized Logical Plan ==\n").append(optimized.plan().explain(statistics));
        out.append("== Physical Plan ==\n").append(physical.explain());
        out.append("== Stages ==\n").append(StageCutter.explain(StageCutter.cut(physical, "explain")));
        return out.toString();
    }

    /**
     * Runs the query once (no retry: the numbers describe one run) and returns its staged plan with
     * each operator's rows, batches and time over the tasks; the result rows are counted, not kept.
     */
    public String explainAnalyze(LogicalPlan plan, QueryConfig config) {
        ExecutionPlan physical = physicalPlan(logicalOptimizer(config).optimize(plan), config);
        String jobId = "job" + jobIds.incrementAndGet();
        List<Stage> stages = StageCutter.cut(physical, jobId);
        jobMetrics.watch(jobId);
        long start = System.nanoTime();
        try {
            List<MapStatus> result = scheduler.run(jobId, stages);
            long rows = 0;
            List<Batch> batches = fetcher.fetchAll(jobId, stages.get(stages.size() - 1).shuffleId(), result);
            for (Batch b : batches) {
                rows += b.rowCount();
                b.close();
            }
            long elapsed = System.nanoTime() - start;
            return AnalyzedPlanText.render(stages, jobMetrics.take(jobId), rows, elapsed);
        } catch (TaskFailedException e) {
            throw new SluiceException("query failed: " + e.getMessage(), e);
        } finally {
            jobMetrics.take(jobId);
            List<String> shuffles = new ArrayList<>();
            stages.forEach(s -> shuffles.add(s.shuffleId()));
            removeShuffles.accept(shuffles);
        }
    }

    /** The standard rules, or none when {@code sluice.optimizer.enabled} is false (the plan as written). */
    private static LogicalOptimizer logicalOptimizer(QueryConfig config) {
        List<LogicalRule> rules = config.optimizerEnabled()
                ? LogicalOptimizer.standardRules(config.joinReorder(), config.joinReorderDpLimit()) : List.of();
        return new LogicalOptimizer(rules, config.maxOptimizerPasses(), config.skipFailedRules());
    }

    /** The optimized physical plan of an optimized logical plan, under the default settings. */
    public ExecutionPlan physicalPlan(LogicalPlan optimized) {
        return physicalPlan(optimized, defaults);
    }

    private ExecutionPlan physicalPlan(LogicalPlan optimized, QueryConfig config) {
        ExecutionPlan physical = new PhysicalPlanner(config.joinSelection()).plan(optimized);
        int partitions = config.shufflePartitions() > 0 ? config.shufflePartitions() : shufflePartitions.getAsInt();
        return physicalOptimizer.optimize(physical, new PhysicalConfig(Math.max(1, partitions)));
    }

    /** Runs a query plan on the cluster under the default settings; the result as one Arrow IPC stream. */
    public byte[] run(LogicalPlan plan) {
        return run(plan, QueryScope.NONE);
    }

    /** The same, telling {@code scope} the query's id while it runs. */
    public byte[] run(LogicalPlan plan, QueryScope scope) {
        return run(plan, defaults, "(plan) " + plan.getClass().getSimpleName(), scope);
    }

    /** The queries running now ({@code GET /v1/jobs}); cancel one with {@link RunningQueries#cancel}. */
    public RunningQueries running() {
        return running;
    }

    private byte[] run(LogicalPlan plan, QueryConfig config, String text, QueryScope scope) {
        try (RunningQueries.Handle handle = running.start(text, scope.tag())) {
            scope.started(handle.id());
            try {
                return run(plan, config, handle);
            } finally {
                scope.ended(handle.id());
            }
        }
    }

    private byte[] run(LogicalPlan plan, QueryConfig config, RunningQueries.Handle handle) {
        ExecutionPlan physical = physicalPlan(logicalOptimizer(config).optimize(plan), config);
        for (int attempt = 1; ; attempt++) {
            String jobId = "job" + jobIds.incrementAndGet();
            List<Stage> stages = StageCutter.cut(physical, jobId);
            handle.runningAs(jobId);
            try {
                List<MapStatus> result = scheduler.run(jobId, stages, handle::cancelReason);
                return collect(jobId, stages.get(stages.size() - 1), result);
            } catch (TaskFailedException e) {
                if (attempt >= JOB_ATTEMPTS || e instanceof AttemptsExhaustedException) {
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

    private byte[] collect(String jobId, Stage resultStage, List<MapStatus> statuses) {
        List<Batch> batches = fetcher.fetchAll(jobId, resultStage.shuffleId(), statuses);
        try {
            return ArrowIpc.encode(resultStage.plan().schema(), batches, allocator);
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
