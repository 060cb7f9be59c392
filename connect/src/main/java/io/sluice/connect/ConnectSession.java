package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.sluice.api.DataFrame;
import io.sluice.api.FrontEnds;
import io.sluice.api.Session;
import io.sluice.common.settings.SparkConfigKeys;
import io.sluice.common.types.ArithmeticMode;
import io.sluice.coordinator.PlanRequest;
import io.sluice.coordinator.PreparedSql;
import io.sluice.coordinator.QueryScope;
import io.sluice.coordinator.QueryService;
import io.sluice.coordinator.ResultStream;
import io.sluice.kernels.QueryResult;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.function.CallContext;
import io.sluice.logical.function.FunctionLibrary;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.sql.InMemoryCatalog;
import io.sluice.sql.SqlSettingsDeclaration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One Spark Connect client session (by the client's session id): its own Sluice session over the
 * coordinator (temp views in its own catalog, layered over the shared one), its {@code spark.conf},
 * and its running operations.
 */
final class ConnectSession {
    private final String id;
    private final String serverSideId = UUID.randomUUID().toString();
    private final QueryService queries;
    private final InMemoryCatalog catalog;
    private final Session api;
    private final SparkConf conf = new SparkConf();
    private final ClientCode code;
    private final Map<String, Operation> operations = new ConcurrentHashMap<>();
    private volatile long lastUsedNanos = System.nanoTime();

    ConnectSession(String id, QueryService queries, ClientCode code) {
        this.id = requireNonNull(id, "id is null");
        this.queries = requireNonNull(queries, "queries is null");
        this.code = requireNonNull(code, "code is null");
        this.catalog = queries.newSessionCatalog();
        catalog.useFunctions(code); // spark.sql text calls the functions the client registered
        this.api = FrontEnds.session(queries, catalog);
    }

    String id() {
        return id;
    }

    String serverSideId() {
        return serverSideId;
    }

    Session api() {
        return api;
    }

    InMemoryCatalog catalog() {
        return catalog;
    }

    SparkConf conf() {
        return conf;
    }

    /** The jars and user functions the client added. */
    ClientCode code() {
        return code;
    }

    /** A translator of this session's relations (plan ids are those of one request). */
    RelationTranslator translator() {
        return new RelationTranslator(this, functions());
    }

    /** A translator of constant expressions (SQL arguments). */
    ExpressionTranslator constants() {
        return new ExpressionTranslator(functions(), id -> null);
    }

    /** Spark's functions; the time functions read the session's time zone, arithmetic is in its ANSI mode or not. */
    private SparkFunctions functions() {
        ArithmeticMode mode = Boolean.parseBoolean(conf.get(SparkConfigKeys.ANSI_ENABLED)) ? ArithmeticMode.ANSI
                : ArithmeticMode.LEGACY;
        return new SparkFunctions(FunctionLibrary.builtIn().withContext(new CallContext(conf.timeZone(), Instant.now(), mode)),
                code);
    }

    /** A SQL relation, planned with the session's settings (its ANSI mode, time zone) in Spark's dialect. */
    DataFrame sql(String text) {
        PreparedSql prepared = prepareSql(text, QueryScope.NONE);
        return prepared.plan() != null ? FrontEnds.dataFrame(api, prepared.plan())
                : FrontEnds.dataFrame(api, QueryResult.fromIpc(prepared.result()));
    }

    /**
     * Prepares a statement of {@code spark.sql} with the session's own settings, in Spark's dialect
     * whatever the node's default; a statement that is not a query runs now, and its {@code SET}s
     * stay with the session.
     */
    PreparedSql prepareSql(String text, QueryScope scope) {
        Map<String, String> settings = new LinkedHashMap<>(conf.sluiceSettings());
        settings.put(SqlSettingsDeclaration.DIALECT.name(), "spark");
        PreparedSql prepared = queries.prepareSql(text, catalog, scope, settings);
        // what the statement's SETs changed, under the Spark key where one sets it (so a later
        // spark.conf().set of that key is not shadowed by a stale copy under the Sluice name)
        prepared.settings().forEach((k, v) -> {
            if ((k.startsWith("spark.") || k.startsWith("sluice.")) && !v.equals(settings.get(k))) {
                conf.set(SparkConfigKeys.sparkKeyOf(k).orElse(k), v);
            }
        });
        return prepared;
    }

    /** Runs the DataFrame with the session's settings; every row. */
    QueryResult collect(DataFrame df) {
        return QueryResult.fromIpc(queries.run(new PlanRequest(output(df.logicalPlan()), conf.sluiceSettings(), null)));
    }

    /** Opens the DataFrame's result as a stream of batches, with the session's settings. */
    ResultStream open(DataFrame df, QueryScope scope) {
        return queries.open(new PlanRequest(output(df.logicalPlan()), conf.sluiceSettings(), null), scope, false);
    }

    /** Cancels a running Sluice query by its id. */
    void cancelQuery(String queryId) {
        queries.running().cancel(queryId, "interrupted by the Spark Connect client");
    }

    /**
     * Adds a running operation; operations that ended and sent everything long ago (their client
     * never released them) are forgotten now, so a session's finished operations stay few.
     */
    void register(Operation operation) {
        long now = System.nanoTime();
        operations.values().removeIf(op -> op.doneFor(Operation.ABANDON_AFTER_NANOS, now));
        operations.put(operation.id(), operation);
    }

    Operation operation(String operationId) {
        return operations.get(operationId);
    }

    void release(String operationId) {
        Operation op = operations.remove(operationId);
        if (op != null && !op.isDone()) {
            op.interrupt();
        }
    }

    /** Interrupts the operations that {@code which} selects; their ids. */
    List<String> interrupt(java.util.function.Predicate<Operation> which) {
        List<String> ids = new ArrayList<>();
        for (Operation op : operations.values()) {
            if (which.test(op) && op.interrupt()) {
                ids.add(op.id());
            }
        }
        return ids;
    }

    /** Marks the session used now (each request of its client). */
    void touch() {
        lastUsedNanos = System.nanoTime();
    }

    /** Whether no request came for {@code idleNanos} and no operation of it is still running. */
    boolean idleFor(long idleNanos, long nowNanos) {
        return nowNanos - lastUsedNanos > idleNanos && operations.values().stream().allMatch(Operation::isDone);
    }

    void close() {
        interrupt(op -> true);
        operations.clear();
    }

    /**
     * The plan with Spark's output names: a column qualified by an alias ({@code t.a}, from
     * {@code df.alias("t")}) is output as {@code a}, as Spark shows it, unless that would make two
     * columns of one name.
     */
    static LogicalPlan output(LogicalPlan plan) {
        List<String> names = plan.schema().names();
        List<String> plain = names.stream().map(ConnectSession::unqualified).toList();
        if (plain.equals(names) || new HashSet<>(plain).size() != plain.size()) {
            return plan;
        }
        List<Expr> exprs = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Column c = new Column(names.get(i));
            exprs.add(plain.get(i).equals(names.get(i)) ? c : new Alias(c, plain.get(i)));
        }
        return new Projection(plan, exprs);
    }

    private static String unqualified(String name) {
        int dot = name.lastIndexOf('.');
        if (dot <= 0 || dot == name.length() - 1) {
            return name;
        }
        String qualifier = name.substring(0, dot);
        return qualifier.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_') ? name.substring(dot + 1) : name;
    }

    static Set<String> tags(List<String> tags) {
        return Set.copyOf(tags);
    }
}
