package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.coordinator.scheduler.AttemptsExhaustedException;
import io.sluice.coordinator.scheduler.BlockFetcher;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.coordinator.scheduler.ResolvedSplitPoints;
import io.sluice.coordinator.scheduler.TaskFailedException;
import io.sluice.datasource.FileAccessPolicy;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.StatisticsEstimator;
import io.sluice.datasource.sink.FileCommitProtocol;
import io.sluice.datasource.sink.FileWriteExec;
import io.sluice.kernels.ArrowIpc;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.QueryResult;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.TableSource;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.MapStatus;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import io.sluice.optimizer.LogicalOptimizer;
import io.sluice.optimizer.LogicalRule;
import io.sluice.physical.PhysicalOptimizer;
import io.sluice.physical.PhysicalPlanner;
import io.sluice.physical.rules.PhysicalConfig;
import io.sluice.shuffle.ShuffleWriterExec;
import io.sluice.shuffle.stage.Stage;
import io.sluice.shuffle.stage.StageCutter;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.QueryLimits;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's query path: SQL or a logical plan in, the result out as a {@link ResultStream}
 * (or collected into one Arrow IPC stream). Optimizes, plans, cuts stages, runs them through the
 * {@link DagScheduler}, forwards the result blocks over the shuffle service as their tasks finish
 * and removes the job's shuffle files once the result is read. A job that fails for a
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
    private final FileAccessPolicy fileAccess;
    private final Consumer<String> awaitJobTasksEnded;
    /** Threads that run queries' jobs and forward their results (two per query being read). */
    private final java.util.concurrent.ExecutorService resultThreads = java.util.concurrent.Executors.newCachedThreadPool(
            runnable -> {
                Thread thread = new Thread(runnable, "sluice-result");
                thread.setDaemon(true);
                return thread;
            });

    public QueryService(DagScheduler scheduler, BlockFetcher fetcher, BufferAllocator allocator,
            IntSupplier shufflePartitions, Consumer<List<String>> removeShuffles, QueryConfig defaults,
            JobMetrics jobMetrics, FileAccessPolicy fileAccess) {
        this(scheduler, fetcher, allocator, shufflePartitions, removeShuffles, defaults, jobMetrics, fileAccess, jobId -> { });
    }

    /**
     * {@code awaitJobTasksEnded} returns once no task of the given (failed) job runs any more, so
     * that a failed write's files are removed only after its cancelled tasks stopped writing.
     */
    public QueryService(DagScheduler scheduler, BlockFetcher fetcher, BufferAllocator allocator,
            IntSupplier shufflePartitions, Consumer<List<String>> removeShuffles, QueryConfig defaults,
            JobMetrics jobMetrics, FileAccessPolicy fileAccess, Consumer<String> awaitJobTasksEnded) {
        this.fileAccess = requireNonNull(fileAccess, "fileAccess is null");
        this.awaitJobTasksEnded = requireNonNull(awaitJobTasksEnded, "awaitJobTasksEnded is null");
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

    /** The coordinator's allocator (results are encoded from it). */
    BufferAllocator allocator() {
        return allocator;
    }

    /** Runs every statement of a script against the shared catalog; returns the last one's result. */
    public byte[] runSql(String script) {
        return runSql(script, catalog, QueryScope.NONE);
    }

    /** Runs every statement of a script against the shared catalog, telling {@code scope} each query's id. */
    public byte[] runSql(String script, QueryScope scope) {
        return runSql(script, catalog, scope);
    }

    /** A new catalog for one client session: it sees the shared tables, and its own changes stay its own. */
    public InMemoryCatalog newSessionCatalog() {
        return InMemoryCatalog.layeredOver(catalog);
    }

    /**
     * Runs every statement of a script against {@code target} (the shared catalog or a session's);
     * returns the last one's result.
     */
    public byte[] runSql(String script, InMemoryCatalog target) {
        return runSql(script, target, QueryScope.NONE);
    }

    /** The same, telling {@code scope} the id of each query (and write) while it runs. */
    public byte[] runSql(String script, InMemoryCatalog target, QueryScope scope) {
        return collect(openSql(script, target, scope, true));
    }

    /**
     * Runs every statement of a script against {@code target} and opens the last one's result as a
     * stream; a final query streams its batches as its result stage produces them. {@code collect}
     * says the reader will hold the whole result, so {@code sluice.result.max-bytes} applies.
     */
    public ResultStream openSql(String script, InMemoryCatalog target, QueryScope scope, boolean collect) {
        PreparedSql prepared = prepareSql(script, target, scope);
        if (prepared.plan() == null) {
            return ResultStream.ofIpc(prepared.result(), allocator);
        }
        List<String> statements = SqlFrontEnd.splitStatements(script);
        return open(prepared.plan(), config(prepared.settings()), statements.get(statements.size() - 1), scope, collect);
    }

    /** {@link #prepareSql(String, InMemoryCatalog)} against the shared catalog. */
    public PreparedSql prepareSql(String script) {
        return prepareSql(script, catalog, QueryScope.NONE);
    }

    /**
     * Runs every statement of a script but a final query, whose plan is returned instead, with the
     * settings the script's {@code SET}s made (so that a client can build on it before running it).
     */
    public PreparedSql prepareSql(String script, InMemoryCatalog target) {
        return prepareSql(script, target, QueryScope.NONE);
    }

    /** The same, telling {@code scope} the id of each query the script's statements run. */
    public PreparedSql prepareSql(String script, InMemoryCatalog target, QueryScope scope) {
        requireNonNull(target, "target is null");
        requireNonNull(scope, "scope is null");
        QueryLimits.checkText(script);
        List<String> statements = SqlFrontEnd.splitStatements(script);
        if (statements.isEmpty()) {
            throw new SluiceException("no SQL statement given");
        }
        byte[] last = null;
        QueryConfig config = defaults;
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < statements.size(); i++) {
            Statement statement = SqlFrontEnd.parse(statements.get(i), target);
            if (statement instanceof Statement.SetOption set) {
                config = config.with(set.name(), set.value());
                settings.put(set.name(), set.value());
                last = message("status", set.name() + " = " + set.value());
            } else if (i == statements.size() - 1 && statement instanceof Statement.Query query) {
                return PreparedSql.query(query.plan(), settings);
            } else {
                last = runStatement(statement, config, target, statements.get(i), scope);
            }
        }
        return PreparedSql.done(last);
    }

    /** A client's plan request: its rows as an Arrow IPC stream, or for a write a one-row status. */
    public byte[] run(PlanRequest request) {
        return run(request, QueryScope.NONE);
    }

    /** The same, telling {@code scope} the query's (or write's) id while it runs. */
    public byte[] run(PlanRequest request, QueryScope scope) {
        return collect(open(request, scope, true));
    }

    /**
     * A client's plan request opened as a stream of its result batches (a write's one-row status
     * once it is done); with {@code collect}, {@code sluice.result.max-bytes} caps it.
     */
    public ResultStream open(PlanRequest request, QueryScope scope, boolean collect) {
        QueryLimits.checkPlan(request.plan());
        fileAccess.checkTables(request.plan());
        QueryConfig config = config(request.settings());
        if (request.target() == null) {
            return open(request.plan(), config, "(plan) " + request.plan().getClass().getSimpleName(), scope, collect);
        }
        return ResultStream.ofIpc(writeStatus(request, config, scope), allocator);
    }

    private byte[] writeStatus(PlanRequest request, QueryConfig config, QueryScope scope) {
        long rows = write(request.plan(), request.target(), config, "(write) " + request.target().location(), scope);
        Schema schema = Schema.of(new Field("rows_written", DataType.INT64));
        try (Batch batch = Batch.of(schema, new Col[] {Col.ofLongs(DataType.INT64, new long[] {rows}, null)}, 1,
                allocator)) {
            return ArrowIpc.encode(schema, List.of(batch), allocator);
        }
    }

    /** The default settings with these {@code SET}s applied (each checked as {@code SET} checks it). */
    private QueryConfig config(Map<String, String> settings) {
        QueryConfig config = defaults;
        for (Map.Entry<String, String> e : settings.entrySet()) {
            config = config.with(e.getKey(), e.getValue());
        }
        return config;
    }

    private byte[] runStatement(Statement statement, QueryConfig config, InMemoryCatalog catalog, String text,
            QueryScope scope) {
        if (statement instanceof Statement.CreateExternalTable create) {
            fileAccess.check(create.location());
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
        if (statement instanceof Statement.AnalyzeTable analyze) {
            return message("status", analyze(analyze, config, catalog, scope));
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
        if (statement instanceof Statement.CreateTableAs create) {
            if (catalog.hasTable(create.name()) || catalog.view(create.name()) != null) {
                if (create.ifNotExists()) {
                    return message("status", "table " + create.name() + " already exists");
                }
                throw new SluiceException("cannot create table '" + create.name() + "': a table or view of that name "
                        + "already exists");
            }
            long rows = write(create.plan(), create.target(), config, text, scope);
            catalog.register(new TableSource(create.name(), create.target().format(), create.target().location(),
                    create.plan().schema()));
            return message("status", "created table " + create.name() + " with " + rows + " rows");
        }
        if (statement instanceof Statement.Insert insert) {
            TableSource table = insert.table();
            long rows = write(insert.plan(), WriteTarget.of(table.location(), table.format(), insert.mode()), config,
                    text, scope);
            return message("status", (insert.mode() == SaveMode.OVERWRITE ? "overwrote " : "inserted ") + rows
                    + " rows into " + table.name());
        }
        throw new SluiceException("unsupported statement: " + statement);
    }

    /**
     * {@code ANALYZE TABLE}: exact statistics from jobs on the cluster (the row count, and per named
     * column its distinct values, NULLs, min and max), kept for the table's current files
     * ({@link FileFormats#recordAnalyzed}); columns not named keep what the footers say.
     */
    private String analyze(Statement.AnalyzeTable analyze, QueryConfig config, InMemoryCatalog catalog,
            QueryScope scope) {
        TableSource table = analyze.table();
        String from = " FROM " + quote(table.name());
        long rows = (Long) query("SELECT count(*)" + from, config, catalog, scope).get(0);
        Statistics known = FileFormats.statistics(table);
        List<ColumnStatistics> columns = new ArrayList<>(known.columns());
        for (String column : analyze.columns()) {
            String c = quote(column);
            List<Object> r = query("SELECT count(DISTINCT " + c + "), count(" + c + "), min(" + c + "), max(" + c + ")" + from,
                    config, catalog, scope);
            int index = table.schema().indexOf(column);
            DataType type = table.schema().field(index).type();
            Object min = statisticsValue(r.get(2), type);
            Object max = statisticsValue(r.get(3), type);
            columns.set(index, new ColumnStatistics(Estimate.exact((Long) r.get(0)), Estimate.exact(rows - (Long) r.get(1)),
                    min, max, min == null ? Estimate.Precision.ABSENT : Estimate.Precision.EXACT,
                    known.column(index).averageWidth()));
        }
        FileFormats.recordAnalyzed(table, Statistics.of(Estimate.exact(rows), columns));
        return "analyzed table " + table.name() + ": " + rows + " rows" + (analyze.columns().isEmpty() ? ""
                : ", columns " + String.join(", ", analyze.columns()));
    }

    /** The single row of a query's result, its names resolved in {@code catalog} (the statement's own). */
    private List<Object> query(String sql, QueryConfig config, InMemoryCatalog catalog, QueryScope scope) {
        Statement.Query statement = (Statement.Query) SqlFrontEnd.parse(sql, catalog);
        return QueryResult.fromIpc(run(statement.plan(), config, sql, scope)).rows().get(0);
    }

    private static String quote(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** A result value as table statistics hold it (as the Parquet footers give it): epoch days, unscaled decimals. */
    private static Object statisticsValue(Object value, DataType type) {
        if (value instanceof java.time.LocalDate date) {
            return date.toEpochDay();
        }
        if (value instanceof java.math.BigDecimal decimal) {
            java.math.BigInteger unscaled = decimal.setScale(type.scale(), java.math.RoundingMode.UNNECESSARY).unscaledValue();
            return unscaled.bitLength() < 64 ? (Object) unscaled.longValue() : null; // past a long: unknown, as Parquet's
        }
        if (value instanceof Integer i) {
            return i.longValue();
        }
        return value;
    }

    /** Logical and optimized logical plans (with estimated rows), physical and staged plans, as text. */
    public String explain(LogicalPlan plan, boolean verbose) {
        QueryLimits.checkPlan(plan);
        fileAccess.checkTables(plan);
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
        ResolvedSplitPoints splits = new ResolvedSplitPoints();
        // the plans as the tasks ran them: split points and runtime filters bound
        Map<Integer, ShuffleWriterExec> executed = new java.util.concurrent.ConcurrentHashMap<>();
        DagScheduler.StageListener submitted = new DagScheduler.StageListener() {
            @Override
            public void stageCompleted(String job, int stageId) {
            }

            @Override
            public void stageSubmitted(String job, int stageId, ShuffleWriterExec plan, List<Integer> partitions) {
                if (job.equals(jobId) && stageId < DagScheduler.SAMPLE_STAGE_OFFSET) {
                    executed.putIfAbsent(stageId, plan);
                }
            }
        };
        scheduler.addListener(submitted);
        try {
            List<MapStatus> result = scheduler.run(jobId, stages, splits);
            long rows = 0;
            List<Batch> batches = fetcher.fetchAll(jobId, stages.get(stages.size() - 1).shuffleId(), result);
            for (Batch b : batches) {
                rows += b.rowCount();
                b.close();
            }
            long elapsed = System.nanoTime() - start;
            List<Stage> ran = stages.stream().map(st -> executed.containsKey(st.id())
                    ? new Stage(st.id(), st.shuffleId(), executed.get(st.id()), st.parents()) : st).toList();
            return AnalyzedPlanText.render(ran, jobMetrics.take(jobId), splits.all(), rows, elapsed);
        } catch (TaskFailedException e) {
            throw new SluiceException("query failed: " + e.getMessage(), e);
        } finally {
            scheduler.removeListener(submitted);
            jobMetrics.take(jobId);
            List<String> shuffles = new ArrayList<>();
            stages.forEach(s -> shuffles.add(s.shuffleId()));
            removeShuffles.accept(shuffles);
        }
    }

    /** The standard rules, or none when {@code sluice.optimizer.enabled} is false (the plan as written). */
    private static LogicalOptimizer logicalOptimizer(QueryConfig config) {
        List<LogicalRule> rules = config.optimizerEnabled()
                ? LogicalOptimizer.standardRules(config.joinReorder(), config.joinReorderDpLimit(), StatisticsEstimator::new, new EvaluatingConstantFolder()) : List.of();
        return new LogicalOptimizer(rules, config.maxOptimizerPasses(), config.skipFailedRules());
    }

    /** The optimized physical plan of an optimized logical plan, under the default settings. */
    public ExecutionPlan physicalPlan(LogicalPlan optimized) {
        return physicalPlan(optimized, defaults);
    }

    private ExecutionPlan physicalPlan(LogicalPlan optimized, QueryConfig config) {
        ExecutionPlan physical = new PhysicalPlanner(config.joinSelection(), config.rangePartitionedSort(),
                config.rangeSortMinRows()).plan(optimized);
        int partitions = config.shufflePartitions() > 0 ? config.shufflePartitions() : shufflePartitions.getAsInt();
        return physicalOptimizer.optimize(physical, new PhysicalConfig(Math.max(1, partitions)));
    }

    /** Runs a query plan on the cluster under the default settings; the result as one Arrow IPC stream. */
    public byte[] run(LogicalPlan plan) {
        QueryLimits.checkPlan(plan);
        fileAccess.checkTables(plan);
        return run(plan, defaults, "(plan) " + plan.getClass().getSimpleName(), QueryScope.NONE);
    }

    /** The queries (and writes) running now ({@code GET /v1/jobs}); cancel one with {@link RunningQueries#cancel}. */
    public RunningQueries running() {
        return running;
    }

    private byte[] run(LogicalPlan plan, QueryConfig config, String text, QueryScope scope) {
        return collect(open(plan, config, text, scope, true));
    }

    /**
     * Runs {@code work} as one listed query ({@link #running()}), its id told to {@code scope} while
     * it runs; the handle tells the work's jobs whether the query was cancelled.
     */
    private <T> T tracked(String text, QueryScope scope, java.util.function.Function<RunningQueries.Handle, T> work) {
        try (RunningQueries.Handle handle = running.start(text, scope.tag())) {
            scope.started(handle.id());
            try {
                return work.apply(handle);
            } finally {
                scope.ended(handle.id());
            }
        }
    }

    /**
     * Plans the query (a planning error is thrown here, before anything runs) and starts it: a
     * producer thread runs the job and forwards the result stage's blocks into the returned stream,
     * in partition order, each as soon as its task has finished (so the first rows reach the client
     * while later result tasks still run) and only as fast as the reader takes them. The query stays
     * listed until its stream ends; the reader closing it early cancels the query.
     */
    private ResultStream open(LogicalPlan plan, QueryConfig config, String text, QueryScope scope, boolean collect) {
        ExecutionPlan physical = physicalPlan(logicalOptimizer(config).optimize(plan), config);
        ResultStream out = new ResultStream(physical.schema(), config.resultBufferBytes());
        RunningQueries.Handle handle = running.start(text, scope.tag());
        out.onCancel(() -> running.cancel(handle.id(), "its result stream was closed before its end"));
        scope.started(handle.id());
        long maxBytes = collect ? config.resultMaxBytes() : Long.MAX_VALUE;
        try {
            resultThreads.execute(() -> {
                try {
                    produce(physical, handle, out, maxBytes);
                } catch (RuntimeException e) {
                    out.fail(e);
                } catch (Error e) {
                    out.fail(new IllegalStateException("the query's result failed: " + e, e));
                    throw e;
                } finally {
                    scope.ended(handle.id());
                    handle.close();
                    out.producerStopped();
                }
            });
        } catch (RuntimeException e) {
            scope.ended(handle.id());
            handle.close();
            out.producerStopped();
            throw e;
        }
        return out;
    }

    /**
     * Runs the query's job and forwards its result; a job that fails for a reason other than the
     * user's input runs once more from the start, unless rows were already handed to the reader
     * (they cannot be taken back: then the query fails).
     */
    private void produce(ExecutionPlan physical, RunningQueries.Handle handle, ResultStream out, long maxBytes) {
        // split points resolved by the first attempt are bound again, not sampled again, by a second one
        ResolvedSplitPoints splits = new ResolvedSplitPoints();
        for (int attempt = 1; ; attempt++) {
            String jobId = "job" + jobIds.incrementAndGet();
            List<Stage> stages = StageCutter.cut(physical, jobId);
            Stage resultStage = stages.get(stages.size() - 1);
            handle.runningAs(jobId);
            ResultTasks tasks = new ResultTasks(resultStage.taskCount());
            CompletableFuture<List<MapStatus>> job = CompletableFuture.supplyAsync(
                    () -> scheduler.run(jobId, stages, splits, handle::cancelReason, tasks::finished), resultThreads);
            job.whenComplete(tasks::jobEnded);
            try {
                forward(jobId, resultStage, tasks, out, maxBytes, handle);
                return;
            } catch (TaskFailedException e) {
                if (attempt >= JOB_ATTEMPTS || e instanceof AttemptsExhaustedException || out.offeredAny()
                        || handle.cancelReason() != null) {
                    throw new SluiceException("query failed: " + e.getMessage(), e);
                }
                LOG.warn("job {} failed ({}); running it again", jobId, e.getMessage());
            } finally {
                stopJob(jobId, job);
                List<String> shuffles = new ArrayList<>();
                stages.forEach(s -> shuffles.add(s.shuffleId()));
                removeShuffles.accept(shuffles);
            }
        }
    }

    /**
     * Fetches each result block once its task has finished, in partition order, and hands its
     * batches to the reader (waiting while the stream's buffer is full). {@code maxBytes} is checked
     * on the blocks' stored sizes before each fetch and on the fetched Arrow bytes; over it the query
     * fails and what was fetched and not handed over is freed. Returns early when the reader closed.
     */
    private void forward(String jobId, Stage resultStage, ResultTasks tasks, ResultStream out, long maxBytes,
            RunningQueries.Handle handle) {
        long stored = 0;
        long fetched = 0;
        java.util.function.BooleanSupplier cancelled = () -> handle.cancelReason() != null;
        for (int p = 0; p < resultStage.taskCount(); p++) {
            MapStatus status = tasks.await(p, out::isClosed);
            if (status == null) {
                return;
            }
            checkCancelled(handle);
            stored += status.bytesPerPartition()[0];
            checkResultSize(stored, maxBytes);
            List<Batch> batches = fetcher.fetch(jobId, resultStage.shuffleId(), p, status);
            int handed = 0;
            try {
                while (handed < batches.size()) {
                    Batch batch = batches.get(handed);
                    fetched += ResultStream.sizeOf(batch);
                    checkResultSize(fetched, maxBytes);
                    handed++;
                    if (!out.offer(batch, cancelled)) {
                        checkCancelled(handle);
                        return;
                    }
                }
            } finally {
                for (int i = handed; i < batches.size(); i++) {
                    batches.get(i).close();
                }
            }
        }
        tasks.awaitJob(out::isClosed);
        out.finish();
    }

    /** A query cancelled after its job finished (its result still being read) stops forwarding. */
    private static void checkCancelled(RunningQueries.Handle handle) {
        String reason = handle.cancelReason();
        if (reason != null) {
            throw new SluiceException("query " + handle.id() + " was cancelled: " + reason);
        }
    }

    /** Cancels the job if it still runs and waits until its thread has left the scheduler. */
    private void stopJob(String jobId, CompletableFuture<List<MapStatus>> job) {
        while (!job.isDone()) {
            scheduler.cancel(jobId, "its result is no longer read");
            try {
                job.get(100, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // cancel again: the job may not have been registered yet
            } catch (java.util.concurrent.ExecutionException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * The result stage's map outputs as its tasks report them, and how its job ended; the
     * forwarding thread waits here. A partition's first report wins (it names the committed output).
     */
    private static final class ResultTasks {
        private final MapStatus[] statuses;
        private boolean ended;
        private Throwable failure;

        ResultTasks(int partitions) {
            this.statuses = new MapStatus[partitions];
        }

        synchronized void finished(int partition, MapStatus status) {
            if (statuses[partition] == null) {
                statuses[partition] = status;
                notifyAll();
            }
        }

        synchronized void jobEnded(List<MapStatus> result, Throwable error) {
            ended = true;
            if (error != null) {
                Throwable cause = error;
                while (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
                    cause = cause.getCause();
                }
                failure = cause;
            } else {
                for (int p = 0; p < statuses.length; p++) {
                    if (statuses[p] == null) {
                        statuses[p] = result.get(p);
                    }
                }
            }
            notifyAll();
        }

        /** Partition {@code p}'s output once its task finished; null when {@code stop} says so first. */
        synchronized MapStatus await(int p, java.util.function.BooleanSupplier stop) {
            while (true) {
                throwFailure();
                if (statuses[p] != null) {
                    return statuses[p];
                }
                if (ended) {
                    throw new IllegalStateException("the job ended without an output for result partition " + p);
                }
                if (stop.getAsBoolean()) {
                    return null;
                }
                waitQuietly();
            }
        }

        /** Waits for the job to end (its last result task has reported, so it ends at once). */
        synchronized void awaitJob(java.util.function.BooleanSupplier stop) {
            while (!ended && !stop.getAsBoolean()) {
                waitQuietly();
            }
            throwFailure();
        }

        private void throwFailure() {
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            if (failure != null) {
                throw new IllegalStateException("the query's job failed: " + failure, failure);
            }
        }

        private void waitQuietly() {
            try {
                wait(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SluiceException("interrupted while waiting for the query's result");
            }
        }
    }

    /**
     * Reads a whole result stream into one Arrow IPC stream (closing it); the cap was applied as
     * the stream was fetched.
     */
    private byte[] collect(ResultStream stream) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (stream; ArrowIpc.Encoder encoder = new ArrowIpc.Encoder(stream.schema(), allocator)) {
            bytes.writeBytes(encoder.start());
            for (Batch next = stream.next(); next != null; next = stream.next()) {
                try (Batch batch = next) {
                    bytes.writeBytes(encoder.write(batch));
                }
            }
            bytes.writeBytes(encoder.end());
        }
        return bytes.toByteArray();
    }

    /** Writes a query's result under the default settings; the number of rows written. */
    public long write(LogicalPlan plan, WriteTarget target) {
        return write(plan, target, defaults);
    }

    /**
     * Writes a query's result as files at {@code target} (see {@link FileCommitProtocol}): every
     * partition of the query's last stage is written by one task into its attempt directory; once
     * the job succeeded, the attempts whose results arrived are committed; a failed job (after its
     * tasks stopped) is aborted, leaving the target as it was. Returns the number of rows written.
     */
    public long write(LogicalPlan plan, WriteTarget target, QueryConfig config) {
        return write(plan, target, config, "(write) " + target.location(), QueryScope.NONE);
    }

    private long write(LogicalPlan plan, WriteTarget target, QueryConfig config, String text, QueryScope scope) {
        return tracked(text, scope, handle -> write(plan, target, config, handle));
    }

    private long write(LogicalPlan plan, WriteTarget target, QueryConfig config, RunningQueries.Handle handle) {
        fileAccess.check(target.location());
        FileWriteExec.checkWritable(plan.schema());
        ExecutionPlan physical = new FileWriteExec(physicalPlan(logicalOptimizer(config).optimize(plan), config), target);
        boolean existed = FileCommitProtocol.setup(target);
        ResolvedSplitPoints splits = new ResolvedSplitPoints();
        for (int attempt = 1; ; attempt++) {
            String jobId = "job" + jobIds.incrementAndGet();
            List<Stage> stages = StageCutter.cut(physical, jobId);
            boolean committed = false;
            handle.runningAs(jobId);
            try {
                List<MapStatus> result = scheduler.run(jobId, stages, splits, handle::cancelReason);
                List<String> attemptDirs = new ArrayList<>();
                long rows = 0;
                List<Batch> batches = fetcher.fetchAll(jobId, stages.get(stages.size() - 1).shuffleId(), result);
                try {
                    for (Batch b : batches) {
                        Col dirs = b.column(0);
                        Col counts = b.column(1);
                        for (int r = 0; r < b.rowCount(); r++) {
                            attemptDirs.add(dirs.strings[r]);
                            rows += counts.longs[r];
                        }
                    }
                } finally {
                    batches.forEach(Batch::close);
                }
                FileCommitProtocol.commit(target, jobId, attemptDirs);
                committed = true;
                LOG.info("job {} wrote {} rows in {} files to {}", jobId, rows, attemptDirs.size(), target.location());
                return rows;
            } catch (TaskFailedException e) {
                if (attempt >= JOB_ATTEMPTS || e instanceof AttemptsExhaustedException) {
                    throw new SluiceException("write to '" + target.location() + "' failed: " + e.getMessage(), e);
                }
                LOG.warn("job {} failed ({}); running it again", jobId, e.getMessage());
            } finally {
                if (!committed) {
                    abortQuietly(target, jobId, existed);
                }
                List<String> shuffles = new ArrayList<>();
                stages.forEach(s -> shuffles.add(s.shuffleId()));
                removeShuffles.accept(shuffles);
            }
        }
    }

    /** Removes a failed write's files once its tasks stopped; a failure here is logged, not thrown over the job's. */
    private void abortQuietly(WriteTarget target, String jobId, boolean existed) {
        try {
            awaitJobTasksEnded.accept(jobId);
            FileCommitProtocol.abort(target, jobId, existed);
        } catch (RuntimeException e) {
            LOG.warn("job {}: could not remove its unfinished files at {}: {}", jobId, target.location(), e.getMessage());
        }
    }

    private static void checkResultSize(long bytes, long maxBytes) {
        if (bytes > maxBytes) {
            throw new SluiceException("the query's result is larger than sluice.result.max-bytes ("
                    + io.sluice.operators.memory.Bytes.format(maxBytes) + "): at least " + io.sluice.operators.memory.Bytes.format(bytes)
                    + "; add a LIMIT, aggregate further, or raise the setting");
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
