package io.sluice.api;

import io.sluice.coordinator.PlanRequest;
import io.sluice.coordinator.PreparedSql;
import io.sluice.logical.plan.LogicalPlan;

/** Where a session's queries run: an in-process coordinator or a remote one over HTTP. */
interface QueryEngine extends AutoCloseable {
    /** Runs a SQL script; the last statement's result as an Arrow IPC stream. */
    byte[] runSql(String sql);

    /** The same, its queries listed with {@code tag} while they run ({@link #runningQueries()}). */
    byte[] runSql(String sql, String tag);

    /** Runs a SQL script's statements but a final query, whose plan it returns unrun. */
    PreparedSql prepareSql(String sql);

    /**
     * Refuses a location the engine's file access policy forbids, before a reader lists it or reads
     * its schema in this JVM: a coordinator's (Spark Connect's readers run there). An engine whose
     * readers list on the user's own machine checks nothing here; the plan is checked when it runs.
     */
    default void checkReadable(String location) {
    }

    /** Runs a plan (or writes its result); the rows (or a status row) as an Arrow IPC stream. */
    byte[] run(PlanRequest request);

    /** Runs a query plan; its rows as they arrive (not capped by {@code sluice.result.max-bytes}). */
    RowIterator stream(PlanRequest request);

    /**
     * Names {@code plan} as a view of this session's catalog (an existing view of that name is an
     * error unless {@code replace}); a remote engine refuses, since a plan cannot be named there yet.
     */
    void registerView(String name, LogicalPlan plan, boolean replace);

    /** EXPLAIN text of a query plan. */
    String explain(LogicalPlan plan);

    /** The running queries as JSON ({@code GET /v1/jobs}). */
    String runningQueries();

    /**
     * The query as the monitoring API answers {@code GET /api/v1/queries/{id}} (JSON); empty when the
     * coordinator does not know it.
     */
    java.util.Optional<String> monitoredQuery(String id);

    /** Cancels a running query by id; false when none such runs. */
    boolean cancel(String queryId);

    @Override
    void close();
}
