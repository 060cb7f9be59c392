package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.QueryResult;
import io.sluice.plan.logical.LogicalPlan;

/**
 * The entry point: a session on an embedded local cluster ({@link #local}) or on a running
 * coordinator ({@link #connect}). Closing a local session stops its cluster.
 */
public final class Session implements AutoCloseable {
    private final QueryEngine engine;

    private Session(QueryEngine engine) {
        this.engine = requireNonNull(engine, "engine is null");
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
        return new Session(new RemoteEngine(host, httpPort));
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

    /** Runs a SQL script (statements separated by {@code ;}); returns the last statement's result. */
    public QueryResult sql(String sql) {
        return QueryResult.fromIpc(engine.runSql(sql));
    }

    QueryResult execute(LogicalPlan plan) {
        return QueryResult.fromIpc(engine.run(plan));
    }

    String explain(LogicalPlan plan) {
        return engine.explain(plan);
    }

    @Override
    public void close() {
        engine.close();
    }
}
