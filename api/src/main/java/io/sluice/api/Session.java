package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.settings.Settings;
import io.sluice.coordinator.PlanRequest;
import io.sluice.coordinator.PreparedSql;
import io.sluice.kernels.QueryResult;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.RangeRelation;
import io.sluice.logical.sink.WriteTarget;
import java.util.Map;

/**
 * The entry point: a session on an embedded local cluster ({@link #local}) or on a running
 * coordinator ({@link #connect}). Closing a local session stops its cluster.
 */
public final class Session implements AutoCloseable {
    private final QueryEngine engine;

    private Session(QueryEngine engine) {
        this.engine = requireNonNull(engine, "engine is null");
    }

    QueryEngine engine() {
        return engine;
    }

    static Session of(QueryEngine engine) {
        return new Session(engine);
    }

    /** The system property naming where a job's session runs: {@code local[N]} or {@code host:httpPort}. */
    public static final String MASTER_PROPERTY = ApiSettingsDeclaration.MASTER.name();

    /** The environment variable holding the cluster's shared secret; {@link #connect(String, int)} reads it. */
    public static final String AUTH_SECRET_VARIABLE = "SLUICE_AUTH_SECRET";

    /**
     * The session a job asks for without naming a cluster: in a job submitted with {@code
     * --deploy-mode cluster}, the coordinator it runs on; else where {@code sluice submit} points it
     * ({@value #MASTER_PROPERTY}: {@code local[N]} for an embedded cluster of N workers, or
     * {@code [https://]host:httpPort} of a coordinator, trusted as {@code sluice.master.tls-*} say),
     * else an embedded cluster of two workers.
     */
    public static Session create() {
        QueryEngine bound = ClusterJobs.bound();
        if (bound != null) {
            // a job submitted in cluster mode: its session is the coordinator it runs on
            return new Session(bound);
        }
        String master = Settings.systemProperty(ApiSettingsDeclaration.MASTER);
        java.util.regex.Matcher local = java.util.regex.Pattern.compile("local(?:\\[(\\d+)])?").matcher(master);
        if (local.matches()) {
            return local(local.group(1) == null ? 2 : Integer.parseInt(local.group(1)));
        }
        boolean https = master.startsWith("https://");
        String address = https ? master.substring("https://".length()) : master;
        int colon = address.lastIndexOf(':');
        if (colon <= 0) {
            throw new io.sluice.common.SluiceException(MASTER_PROPERTY + " must be local[N] or [https://]host:port, not '"
                    + master + "'");
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new io.sluice.common.SluiceException(MASTER_PROPERTY + " has a bad port: '" + master + "'");
        }
        String fingerprint = Settings.systemProperty(ApiSettingsDeclaration.MASTER_TLS_FINGERPRINT);
        String trusted = Settings.systemProperty(ApiSettingsDeclaration.MASTER_TLS_CA);
        return connect(address.substring(0, colon), port, AuthSecrets.configured(), CoordinatorTls.of(
                fingerprint.isEmpty() ? null : fingerprint, trusted.isEmpty() ? null : java.nio.file.Path.of(trusted), https));
    }

    /** Starts a coordinator and {@code workers} workers in this JVM, on 127.0.0.1. */
    public static Session local(int workers) {
        return local(LocalCluster.Options.of(workers));
    }

    public static Session local(LocalCluster.Options options) {
        return new Session(LocalCluster.start(options));
    }

    /** A session on a coordinator's HTTP endpoint. File paths must be readable there and here. */
    public static Session connect(String host, int httpPort) {
        return connect(host, httpPort, AuthSecrets.configured());
    }

    /**
     * A session on a coordinator's HTTP endpoint that proves {@code secret} (the cluster's shared
     * secret; null for a coordinator that runs without one).
     */
    public static Session connect(String host, int httpPort, String secret) {
        return connect(host, httpPort, secret, null);
    }

    /**
     * Like {@link #connect(String, int, String)} over HTTPS when {@code tls} is given (how the
     * coordinator's certificate is trusted), plain HTTP when it is null.
     */
    public static Session connect(String host, int httpPort, String secret, CoordinatorTls tls) {
        return new Session(new RemoteEngine(host, httpPort, secret, false, tls));
    }

    /**
     * Like {@link #connect(String, int, String)}, but SQL works on the cluster's shared catalog: tables
     * and views created here are seen by every client that asks for the shared catalog, and by
     * every session (where a session's own names win).
     */
    public static Session connectShared(String host, int httpPort, String secret) {
        return connectShared(host, httpPort, secret, null);
    }

    /** Like {@link #connectShared(String, int, String)}, over HTTPS when {@code tls} is given. */
    public static Session connectShared(String host, int httpPort, String secret, CoordinatorTls tls) {
        return new Session(new RemoteEngine(host, httpPort, secret, true, tls));
    }

    /** Whether this session talks to a coordinator over HTTP (user function classes then travel in jars). */
    boolean isRemote() {
        return engine instanceof RemoteEngine;
    }

    /** The embedded cluster of a local session (for tests and tools). */
    public LocalCluster localCluster() {
        if (engine instanceof LocalCluster cluster) {
            return cluster;
        }
        throw new IllegalStateException("not a local session");
    }

    public DataFrameReader read() {
        return new DataFrameReader(this);
    }

    /**
     * A DataFrame over a logical plan built elsewhere (another front end, such as the Spark Connect
     * endpoint, translating its relations through the DataFrame API).
     */
    public DataFrame dataFrame(LogicalPlan plan) {
        return new DataFrame(this, plan);
    }

    /** The table or view {@code name} of this session's catalog; its columns are qualified by that name in a join. */
    public DataFrame table(String name) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new io.sluice.common.SluiceException("not a table name: '" + name + "'");
        }
        return sql("SELECT * FROM " + name).named(name);
    }

    /** {@code range(0, end, 1)}. */
    public DataFrame range(long end) {
        return range(0, end);
    }

    /** {@code range(start, end, 1)}. */
    public DataFrame range(long start, long end) {
        return range(start, end, 1);
    }

    /** {@code range(start, end, step, n)} with the cluster's default number of partitions. */
    public DataFrame range(long start, long end, long step) {
        return new DataFrame(this, new RangeRelation(start, end, step, 0));
    }

    /**
     * The numbers from {@code start} up to {@code end} (exclusive) by {@code step} (which may be
     * negative) as one BIGINT column {@code id}, as Spark's {@code spark.range}: made on the
     * workers, in {@code numPartitions} partitions, so any size costs nothing to send.
     */
    public DataFrame range(long start, long end, long step, int numPartitions) {
        if (numPartitions < 1) {
            throw new io.sluice.common.SluiceException("range: numPartitions must be positive, not " + numPartitions);
        }
        return new DataFrame(this, new RangeRelation(start, end, step, numPartitions));
    }

    /** The tables and views of this session, as Spark's {@code spark.catalog()}. */
    public SessionCatalog catalog() {
        return new SessionCatalog(this);
    }

    void registerView(String name, LogicalPlan plan, boolean replace) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new io.sluice.common.SluiceException("not a view name: '" + name + "'");
        }
        engine.registerView(name, plan, replace);
    }

    /**
     * A SQL script (statements separated by {@code ;}) as a DataFrame. Every statement but a final
     * query runs now (DDL, writes, {@code SET}, {@code EXPLAIN}); a final query becomes a lazy
     * DataFrame that runs on {@code collect()} or {@code show()}, with the script's {@code SET}s, and
     * composes with the DataFrame API: {@code session.sql("select ...").filter(...).groupBy(...)}.
     * When the last statement is not a query, the DataFrame holds its (already computed) result.
     */
    public DataFrame sql(String sql) {
        PreparedSql prepared = engine.prepareSql(sql);
        if (prepared.plan() != null) {
            return new DataFrame(this, prepared.plan(), prepared.settings());
        }
        return DataFrame.ofResult(this, QueryResult.fromIpc(prepared.result()));
    }

    /**
     * Runs a SQL script whose queries {@link #runningQueries()} lists with {@code tag} while they
     * run (1 to 64 letters, digits, '.', '_' or '-'), so that this client can follow their progress.
     */
    public QueryResult sql(String sql, String tag) {
        return QueryResult.fromIpc(sqlArrow(sql, tag));
    }

    /** As {@link #sql(String, String)}, the last statement's result as the engine sends it: an Arrow IPC stream. */
    public byte[] sqlArrow(String sql, String tag) {
        return engine.runSql(sql, tag);
    }

    QueryResult execute(LogicalPlan plan, Map<String, String> settings) {
        return QueryResult.fromIpc(engine.run(new PlanRequest(plan, settings, null)));
    }

    RowIterator stream(LogicalPlan plan, Map<String, String> settings) {
        return engine.stream(new PlanRequest(plan, settings, null));
    }

    /** Writes the plan's result to {@code target}; the number of rows written. */
    long write(LogicalPlan plan, Map<String, String> settings, WriteTarget target) {
        QueryResult status = QueryResult.fromIpc(engine.run(new PlanRequest(plan, settings, target)));
        return ((Number) status.rows().get(0).get(0)).longValue();
    }

    String explain(LogicalPlan plan) {
        return engine.explain(plan);
    }

    /**
     * The queries running on the cluster now, as the coordinator lists them on {@code GET /v1/jobs}:
     * a JSON array of objects with {@code id}, {@code job}, {@code elapsed_ms} and {@code query}.
     */
    public String runningQueries() {
        return engine.runningQueries();
    }

    /**
     * One query as the coordinator's monitoring API shows it ({@code GET /api/v1/queries/{id}}, JSON:
     * its state, stages and their tasks, plan; docs/monitoring.md); empty when it does not know the id.
     */
    public java.util.Optional<String> monitoredQuery(String id) {
        return engine.monitoredQuery(id);
    }

    /** Cancels a running query by its id ({@code q12}) or its current job's ({@code job12}); false if none runs. */
    public boolean cancel(String queryId) {
        return engine.cancel(queryId);
    }

    @Override
    public void close() {
        engine.close();
    }
}
