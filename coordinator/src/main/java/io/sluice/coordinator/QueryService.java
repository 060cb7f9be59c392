package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.Redaction;
import io.sluice.common.settings.SparkConfigKeys;
import io.sluice.coordinator.catalog.Warehouse;
import io.sluice.coordinator.monitor.EventBus;
import io.sluice.coordinator.scheduler.BlockFetcher;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.datasource.FileAccessPolicy;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.sink.CommitProtocol;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.operators.ExecutionPlan;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.QueryLimits;
import io.sluice.sql.SqlDialect;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.sql.SqlSettingsDeclaration;
import io.sluice.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The coordinator's query intake: SQL scripts and clients' plan requests in, each statement handed
 * to the part that runs it, the result out as a {@link ResultStream} (or collected into one Arrow
 * IPC stream). Planning is the {@link PlanningPipeline}'s job, running a query and producing its
 * result the {@link ResultProducer}'s, writes and their commit the {@link WriteCommitter}'s, DDL the
 * {@link TableCommands}', {@code ANALYZE} the {@link TableAnalyzer}'s and {@code EXPLAIN ANALYZE}
 * the {@link ExplainAnalyzer}'s.
 */
public final class QueryService {
    /** What {@link #warmUp} plans: a scan, a filter, an aggregate and a sort. */
    private static final String WARM_UP_SQL = "SELECT k, count(*) AS n, sum(v) AS s FROM (VALUES (1, 2.5), (2, 3.5)) AS t(k, v) "
            + "WHERE k > 0 GROUP BY k ORDER BY k";

    private final InMemoryCatalog catalog;
    private final QueryConfig defaults;
    private final BufferAllocator allocator;
    private final RunningQueries running;
    private final FileAccessPolicy fileAccess;
    private final PlanningPipeline planning;
    private final ResultProducer results;
    private final WriteCommitter writes;
    private final TableCommands tables;
    private final TableAnalyzer analyzer;
    private final ExplainAnalyzer explainAnalyzer;

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
        this(scheduler, fetcher, allocator, shufflePartitions, removeShuffles, defaults, jobMetrics, fileAccess,
                awaitJobTasksEnded, EventBus.NONE, new InMemoryCatalog(), Warehouse.temporary());
    }

    /**
     * The same, telling {@code events} each query's start, jobs and end (the monitoring API, event
     * log and metrics), with {@code catalog} as the shared catalog and managed tables under {@code warehouse}.
     */
    public QueryService(DagScheduler scheduler, BlockFetcher fetcher, BufferAllocator allocator,
            IntSupplier shufflePartitions, Consumer<List<String>> removeShuffles, QueryConfig defaults,
            JobMetrics jobMetrics, FileAccessPolicy fileAccess, Consumer<String> awaitJobTasksEnded, EventBus events,
            InMemoryCatalog catalog, Warehouse warehouse) {
        requireNonNull(scheduler, "scheduler is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.fileAccess = requireNonNull(fileAccess, "fileAccess is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.defaults = requireNonNull(defaults, "defaults is null");
        this.running = new RunningQueries(scheduler::cancel, scheduler::progress);
        this.planning = new PlanningPipeline(shufflePartitions, fileAccess);
        JobLifecycle jobs = new JobLifecycle(removeShuffles);
        this.results = new ResultProducer(planning, scheduler, fetcher, allocator, jobs, running,
                new QueryEvents(events, jobMetrics));
        this.writes = new WriteCommitter(planning, scheduler, fetcher, jobs, running, fileAccess, awaitJobTasksEnded);
        this.tables = new TableCommands(writes, fileAccess, warehouse);
        this.analyzer = new TableAnalyzer(results);
        this.explainAnalyzer = new ExplainAnalyzer(planning, scheduler, fetcher, jobs, jobMetrics);
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

    /**
     * Plans {@value #WARM_UP_SQL} in a catalog of its own without running it, and opens the local
     * file system: what every first query pays once (class loading and initialization of the SQL
     * front end, the optimizers, Hadoop), paid ahead, e.g. while an embedded cluster's workers join.
     */
    public void warmUp() {
        HadoopConfiguration.loadLocalFileSystem();
        if (SqlFrontEnd.parse(WARM_UP_SQL, newSessionCatalog(), SqlDialect.ANSI) instanceof Statement.Query query) {
            planning.plan(query.plan(), defaults);
        }
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
        return results.collect(openSql(script, target, scope, true));
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
        QueryConfig config = config(prepared.settings());
        List<String> statements = SqlFrontEnd.splitStatements(script, config.settings().get(SqlSettingsDeclaration.DIALECT));
        return HadoopConfiguration.withOverrides(config.hadoopOverrides(), () -> results.open(prepared.plan(), config,
                statements.get(statements.size() - 1), scope, collect));
    }

    /**
     * Refuses a location outside this coordinator's file access policy, naming it: for readers that
     * list files or read a schema on the coordinator before any plan runs (Spark Connect's).
     */
    public void checkReadable(String location) {
        fileAccess.check(location);
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
        return prepareSql(script, target, scope, Map.of());
    }

    /**
     * The same, starting from a client session's own settings (Spark or Sluice names, as {@code SET}
     * takes them) over the node's, for a front end that keeps settings per session (Spark Connect).
     */
    public PreparedSql prepareSql(String script, InMemoryCatalog target, QueryScope scope, Map<String, String> sessionSettings) {
        requireNonNull(target, "target is null");
        requireNonNull(scope, "scope is null");
        QueryLimits.checkText(script);
        QueryConfig config = defaults;
        for (Map.Entry<String, String> e : sessionSettings.entrySet()) {
            config = config.with(e.getKey(), e.getValue());
        }
        List<String> statements = SqlFrontEnd.splitStatements(script, config.settings().get(SqlSettingsDeclaration.DIALECT));
        if (statements.isEmpty()) {
            throw new SluiceException("no SQL statement given");
        }
        byte[] last = null;
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < statements.size(); i++) {
            Statement statement = SqlFrontEnd.parse(statements.get(i), target, config.settings().get(SqlSettingsDeclaration.DIALECT),
                    SqlSettingsDeclaration.callContext(config.settings()));
            if (statement instanceof Statement.SetOption set) {
                config = config.with(set.name(), set.value());
                settings.put(set.name(), set.value());
                last = SparkConfigKeys.isSparkKey(set.name())
                        ? TextResult.keyValue(set.name(), set.value(), allocator) // as Spark answers
                        : message("status", set.name() + " = " + Redaction.value(set.name(), set.value()));
            } else if (statement instanceof Statement.ShowSetting show) {
                last = TextResult.keyValue(show.name(), config.sparkValue(show.name()), allocator);
            } else if (i == statements.size() - 1 && statement instanceof Statement.Query query) {
                return PreparedSql.query(query.plan(), settings);
            } else {
                last = runStatement(statement, config, target, statements.get(i), scope);
            }
        }
        return PreparedSql.done(last, settings);
    }

    /** A client's plan request: its rows as an Arrow IPC stream, or for a write a one-row status. */
    public byte[] run(PlanRequest request) {
        return run(request, QueryScope.NONE);
    }

    /** The same, telling {@code scope} the query's (or write's) id while it runs. */
    public byte[] run(PlanRequest request, QueryScope scope) {
        return results.collect(open(request, scope, true));
    }

    /**
     * A client's plan request opened as a stream of its result batches (a write's one-row status
     * once it is done); with {@code collect}, {@code sluice.result.max-bytes} caps it.
     */
    public ResultStream open(PlanRequest request, QueryScope scope, boolean collect) {
        QueryLimits.checkPlan(request.plan());
        fileAccess.checkTables(request.plan());
        QueryConfig config = config(request.settings());
        return HadoopConfiguration.withOverrides(config.hadoopOverrides(), () -> {
            if (request.target() == null) {
                return results.open(request.plan(), config, "(plan) " + request.plan().getClass().getSimpleName(), scope,
                        collect);
            }
            return ResultStream.ofIpc(writeStatus(request, config, scope), allocator);
        });
    }

    private byte[] writeStatus(PlanRequest request, QueryConfig config, QueryScope scope) {
        long rows = writes.write(request.plan(), request.target(), config, "(write) " + request.target().location(), scope);
        return TextResult.count("rows_written", rows, allocator);
    }

    /** The default settings with these {@code SET}s applied (each checked as {@code SET} checks it). */
    private QueryConfig config(Map<String, String> settings) {
        QueryConfig config = defaults;
        for (Map.Entry<String, String> e : settings.entrySet()) {
            config = config.with(e.getKey(), e.getValue());
        }
        return config;
    }

    /** Runs a statement with the session's Hadoop overrides in force: its listing, planning and commit open files with them. */
    private byte[] runStatement(Statement statement, QueryConfig config, InMemoryCatalog catalog, String text,
            QueryScope scope) {
        return HadoopConfiguration.withOverrides(config.hadoopOverrides(),
                () -> runStatementWithOverrides(statement, config, catalog, text, scope));
    }

    private byte[] runStatementWithOverrides(Statement statement, QueryConfig config, InMemoryCatalog catalog, String text,
            QueryScope scope) {
        String status = catalogCommand(statement, config, catalog, text, scope);
        if (status != null) {
            return message("status", status);
        }
        if (statement instanceof Statement.AnalyzeTable analyze) {
            return message("status", analyzer.analyze(analyze, config, catalog, scope));
        }
        if (statement instanceof Statement.Explain explain) {
            if (explain.analyze()) {
                return message("plan", explainAnalyzer.explainAnalyze(explain.plan(), config));
            }
            return message("plan", planning.explain(explain.plan(), explain.verbose(), config));
        }
        if (statement instanceof Statement.Query query) {
            return results.run(query.plan(), config, text, scope);
        }
        throw new SluiceException("unsupported statement: " + statement);
    }

    /** The status line of a statement that changes the catalog (or writes a table), or null for another. */
    private String catalogCommand(Statement statement, QueryConfig config, InMemoryCatalog catalog, String text,
            QueryScope scope) {
        if (statement instanceof Statement.CreateTable create) {
            return tables.createTable(create, config, catalog, text, scope);
        }
        if (statement instanceof Statement.DropTable drop) {
            return tables.dropTable(drop, catalog);
        }
        if (statement instanceof Statement.RenameTable rename) {
            return tables.renameTable(rename, catalog);
        }
        if (statement instanceof Statement.AddColumns add) {
            return tables.addColumns(add, catalog);
        }
        if (statement instanceof Statement.CreateView view) {
            return tables.createView(view, catalog);
        }
        if (statement instanceof Statement.DropView drop) {
            return tables.dropView(drop, catalog);
        }
        if (statement instanceof Statement.CreateDatabase create) {
            return tables.createDatabase(create, catalog);
        }
        if (statement instanceof Statement.DropDatabase drop) {
            return tables.dropDatabase(drop, catalog);
        }
        if (statement instanceof Statement.UseDatabase use) {
            return tables.use(use, catalog);
        }
        if (statement instanceof Statement.Insert insert) {
            return tables.insert(insert, config, text, scope);
        }
        return null;
    }

    /** Logical and optimized logical plans (with estimated rows), physical and staged plans, as text. */
    public String explain(LogicalPlan plan, boolean verbose) {
        QueryLimits.checkPlan(plan);
        fileAccess.checkTables(plan);
        return explain(plan, verbose, defaults);
    }

    public String explain(LogicalPlan plan, boolean verbose, QueryConfig config) {
        return planning.explain(plan, verbose, config);
    }

    /**
     * Runs the query once (no retry: the numbers describe one run) and returns its staged plan with
     * each operator's rows, batches and time over the tasks; the result rows are counted, not kept.
     */
    public String explainAnalyze(LogicalPlan plan, QueryConfig config) {
        return explainAnalyzer.explainAnalyze(plan, config);
    }

    /** The optimized physical plan of an optimized logical plan, under the default settings. */
    public ExecutionPlan physicalPlan(LogicalPlan optimized) {
        return planning.physicalPlan(optimized, defaults);
    }

    /** Runs a query plan on the cluster under the default settings; the result as one Arrow IPC stream. */
    public byte[] run(LogicalPlan plan) {
        QueryLimits.checkPlan(plan);
        fileAccess.checkTables(plan);
        return results.run(plan, defaults, "(plan) " + plan.getClass().getSimpleName(), QueryScope.NONE);
    }

    /** The queries (and writes) running now ({@code GET /v1/jobs}); cancel one with {@link RunningQueries#cancel}. */
    public RunningQueries running() {
        return running;
    }

    /** Writes a query's result under the default settings; the number of rows written. */
    public long write(LogicalPlan plan, WriteTarget target) {
        return write(plan, target, defaults);
    }

    /**
     * Writes a query's result as files at {@code target} (see {@link CommitProtocol}): every
     * partition of the query's last stage is written by one task into its attempt directory; once
     * the job succeeded, the attempts whose results arrived are committed; a failed job (after its
     * tasks stopped) is aborted, leaving the target as it was. Returns the number of rows written.
     */
    public long write(LogicalPlan plan, WriteTarget target, QueryConfig config) {
        return writes.write(plan, target, config, "(write) " + target.location(), QueryScope.NONE);
    }

    /** A one-column text result, one row per line. */
    private byte[] message(String column, String text) {
        return TextResult.encode(column, text, allocator);
    }
}
