package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.coordinator.PlanRequest;
import io.sluice.coordinator.PreparedSql;
import io.sluice.coordinator.QueryScope;
import io.sluice.coordinator.QueryService;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.sql.InMemoryCatalog;

/**
 * Queries run by a coordinator in this process: an embedded cluster's session, and the session a
 * cluster-mode job gets from {@code Session.create()} on the coordinator. Closing it leaves the
 * coordinator running.
 */
final class CoordinatorEngine implements QueryEngine {
    private final QueryService queries;
    private final InMemoryCatalog catalog;

    /** An engine whose SQL works on {@code catalog} (the shared one, or a session's own). */
    CoordinatorEngine(QueryService queries, InMemoryCatalog catalog) {
        this.queries = requireNonNull(queries, "queries is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    @Override
    public void checkReadable(String location) {
        queries.checkReadable(location);
    }

    @Override
    public byte[] runSql(String sql) {
        return queries.runSql(sql, catalog);
    }

    @Override
    public byte[] runSql(String sql, String tag) {
        return queries.runSql(sql, catalog, QueryScope.NONE.tagged(tag));
    }

    @Override
    public PreparedSql prepareSql(String sql) {
        return queries.prepareSql(sql, catalog);
    }

    @Override
    public byte[] run(PlanRequest request) {
        return queries.run(request);
    }

    @Override
    public RowIterator stream(PlanRequest request) {
        return RowIterator.of(queries.open(request, QueryScope.NONE, false));
    }

    @Override
    public void registerView(String name, LogicalPlan plan, boolean replace) {
        catalog.registerView(name, plan, replace);
    }

    @Override
    public String explain(LogicalPlan plan) {
        return queries.explain(plan, false);
    }

    @Override
    public String runningQueries() {
        return queries.running().toJson();
    }

    /**
     * Empty: this engine runs a submitted job's queries inside the coordinator (cluster deploy mode), where
     * no console follows them; the coordinator's own HTTP port shows them ({@code /api/v1/queries}).
     */
    @Override
    public java.util.Optional<String> monitoredQuery(String id) {
        return java.util.Optional.empty();
    }

    @Override
    public boolean cancel(String queryId) {
        return queries.running().cancel(queryId, "cancelled through the session");
    }

    @Override
    public void close() {
        // the coordinator outlives its sessions
    }
}
