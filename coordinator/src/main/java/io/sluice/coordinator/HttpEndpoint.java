package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.web.HttpAuth;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.wire.PlanJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;
import org.apache.pekko.stream.javadsl.StreamConverters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's HTTP API for clients: {@code POST /v1/sql} (a SQL script as text) and
 * {@code POST /v1/plan} (a {@link PlanJson} request: a logical plan in the versioned JSON format, with
 * settings and an optional write target) answer with the result as a chunked Arrow IPC stream, sent
 * as the result stage produces it and only as fast as the client reads ({@link ResultBody}),
 * {@code POST /v1/prepare} (a SQL script) with a {@link PreparedSql} in its wire form, {@code POST
 * /v1/explain} (a plan) with its EXPLAIN text; a user error is a 400 and any other failure a 500,
 * each with a one-line text message. SQL runs in the client session's catalog ({@link SessionCatalogs}).
 * {@code GET /v1/health} answers with the cluster's load as JSON ({@link ClusterLoad#toJson()}).
 * {@code GET /v1/jobs} lists the running queries as JSON, and {@code POST /v1/jobs/ID/cancel}
 * cancels one (404 when none such runs). {@code POST /v1/submit} runs a job jar on the coordinator
 * (cluster deploy mode, {@link ClusterJobRunner}).
 * With a cluster secret, every route but health requires {@code Authorization: Bearer <secret>}
 * (compared in constant time) or a web UI session cookie ({@link HttpAuth}); anything else is a 401
 * and the request body is not read. Bodies are
 * limited to {@link #MAX_BODY_BYTES} (413) and concurrent queries to the configured number (503
 * "busy" after a wait); a query too deep to process is a 400 "query too complex".
 *
 * <p>One endpoint serves one client connection ({@code connection}): the queries it started are
 * cancelled when that connection closes before their answers are sent (a client killed, or
 * Ctrl-C in {@code sluice sql}). The concurrency gate and the session catalogs are the
 * coordinator's, shared by every connection.
 */
final class HttpEndpoint extends AllDirectives {
    private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);
    static final String ARROW_STREAM = "application/vnd.apache.arrow.stream";


    private final QueryService queries;
    private final ExecutorService executor;
    private final ExecutorService healthExecutor;
    private final Supplier<ClusterLoad> load;
    private final HttpAuth auth;
    private final Route monitor;
    private final Runnable proven;
    private final ConnectionQueries connection;
    private final QueryGate gate;
    private final SessionCatalogs catalogs;
    private final Supplier<ClusterJobRunner> jobs;

    /**
     * {@code auth} says who may use the routes but health. Queries run through {@code gate}
     * (at most so many at once; more wait up to {@link #QUEUE_WAIT_SECONDS} for a turn, then get a
     * 503); listing and cancelling jobs never wait on it. Health is answered on {@code
     * healthExecutor} ({@link #healthExecutor}: bounded, a full one answers 503). {@code proven} runs
     * for each request that carries the secret.
     */
    HttpEndpoint(QueryService queries, ExecutorService executor, ExecutorService healthExecutor,
            Supplier<ClusterLoad> load, HttpAuth auth, Runnable proven, QueryGate gate, SessionCatalogs catalogs,
            ConnectionQueries connection, Supplier<ClusterJobRunner> jobs, Route monitor) {
        this.healthExecutor = requireNonNull(healthExecutor, "healthExecutor is null");
        this.proven = requireNonNull(proven, "proven is null");
        this.jobs = requireNonNull(jobs, "jobs is null");
        this.connection = requireNonNull(connection, "connection is null");
        this.gate = requireNonNull(gate, "gate is null");
        this.catalogs = requireNonNull(catalogs, "catalogs is null");
        this.queries = requireNonNull(queries, "queries is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.load = requireNonNull(load, "load is null");
        this.auth = requireNonNull(auth, "auth is null");
        this.monitor = requireNonNull(monitor, "monitor is null");
    }

    /** The largest request body read (SQL text or a JSON plan); a larger one is a 413. */
    static final long MAX_BODY_BYTES = 16L << 20;
    /** How long a request beyond the concurrency limit waits for a turn before it is told "busy". */
    static final int QUEUE_WAIT_SECONDS = 30;
    static final String BUSY = "busy: the coordinator runs its limit of concurrent queries; try again later";

    /**
     * The client API under {@code /v1}, and the monitoring routes and web UI ({@link MonitorHttp}), which apply the
     * same authentication themselves.
     */
    Route routes() {
        return auth.noteProven(proven, () -> concat(clientApi(), monitor));
    }

    private Route clientApi() {
        return pathPrefix("v1", () -> concat(
                path("health", () -> get(() -> completeWithFuture(health()))),
                authenticated(() -> withSizeLimit(MAX_BODY_BYTES, () -> concat(
                        path("sql", () -> post(this::sql)),
                        path("prepare", () -> post(this::prepare)),
                        path("submit", () -> post(this::submit)),
                        path("plan", () -> post(() -> optionalHeaderValueByName(RESULT_MODE_HEADER, mode ->
                                entity(Unmarshaller.entityToByteArray(), bytes -> completeWithFuture(stream(() ->
                                        queries.open(planRequest(bytes), connection, collects(mode)))))))),
                        path("jobs", () -> get(() -> complete(HttpResponse.create().withStatus(StatusCodes.OK)
                                .withEntity(ContentTypes.APPLICATION_JSON, queries.running().toJson())))),
                        pathPrefix("jobs", () -> pathPrefix(PathMatchers.segment(), id -> path("cancel",
                                () -> post(() -> complete(cancel(id)))))),
                        path("explain", () -> post(() -> entity(Unmarshaller.entityToByteArray(),
                                bytes -> completeWithFuture(answer(() -> queries.explain(plan(bytes),
                                        false).getBytes(StandardCharsets.UTF_8)))))))))));
    }

    /** The cluster's load as JSON, or a 503 when every health thread is busy and its queue full. */
    private CompletableFuture<HttpResponse> health() {
        try {
            return CompletableFuture.supplyAsync(() -> HttpResponse.create().withStatus(StatusCodes.OK)
                    .withEntity(ContentTypes.APPLICATION_JSON, load.get().toJson()), healthExecutor);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return CompletableFuture.completedFuture(HttpResponse.create().withStatus(StatusCodes.SERVICE_UNAVAILABLE)
                    .withEntity(ContentTypes.TEXT_PLAIN_UTF8, "busy: too many health requests at once"));
        }
    }

    /**
     * The pool that answers {@code /v1/health}, open to anyone: {@code threads} threads and 64
     * waiting requests at most, so a flood of health requests costs a fixed number of threads.
     */
    static ExecutorService healthExecutor(int threads) {
        java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
        return new java.util.concurrent.ThreadPoolExecutor(threads, threads, 0, java.util.concurrent.TimeUnit.SECONDS,
                new java.util.concurrent.ArrayBlockingQueue<>(HEALTH_QUEUE), r -> {
                    Thread t = new Thread(r, "sluice-health-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    static final int HEALTH_QUEUE = 64;

    /**
     * A SQL script, run in the catalog the request's session headers name; its queries are listed
     * with the request's tag ({@link RunningQueries#TAG_HEADER}) and belong to this connection.
     */
    private Route sql() {
        return optionalHeaderValueByName(SessionCatalogs.SESSION_HEADER, session ->
                optionalHeaderValueByName(SessionCatalogs.CATALOG_HEADER, catalog ->
                        optionalHeaderValueByName(RunningQueries.TAG_HEADER, tag ->
                                optionalHeaderValueByName(RESULT_MODE_HEADER, mode ->
                                entity(Unmarshaller.entityToString(), sql -> completeWithFuture(stream(() ->
                                        queries.openSql(sql, catalogs.resolve(session.orElse(null), catalog.orElse(null)),
                                                tag.isPresent() ? connection.tagged(tag.get()) : connection,
                                                collects(mode)))))))));
    }

    /** Headers of {@code POST /v1/submit}: the main class, and the arguments (each URL-encoded, comma-separated). */
    static final String MAIN_CLASS_HEADER = "X-Sluice-Main-Class";
    static final String ARGS_HEADER = "X-Sluice-Args";
    static final String EXIT_CODE_HEADER = "X-Sluice-Exit-Code";
    static final String ERROR_HEADER = "X-Sluice-Error";

    /** The longest a client asks its submitted job to run, in seconds (at most the coordinator's limit). */
    static final String TIMEOUT_HEADER = "X-Sluice-Timeout-Seconds";

    /**
     * A job jar (the body) run on the coordinator in cluster deploy mode, when this coordinator
     * allows job jars (else a 404, the body unread): the answer, once the job ended, is what it
     * printed, with its exit code and (URL-encoded) error in headers. The jar is limited to the
     * runner's size (413); the job runs at most the runner's time (or less, if the client asks) and
     * is interrupted when its client disconnects.
     */
    private Route submit() {
        ClusterJobRunner runner = jobs.get();
        if (runner == null) {
            return complete(HttpResponse.create().withStatus(StatusCodes.NOT_FOUND).withEntity(
                    ContentTypes.TEXT_PLAIN_UTF8, "this coordinator does not run submitted jobs: start it with "
                            + "--allow-job-jars (-D" + HttpSettingsDeclaration.ALLOW_JOB_JARS.name() + "=true)"));
        }
        return optionalHeaderValueByName(MAIN_CLASS_HEADER, mainClass -> optionalHeaderValueByName(ARGS_HEADER, args ->
                optionalHeaderValueByName(TIMEOUT_HEADER, timeout -> withSizeLimit(runner.maxJarBytes(), () ->
                entity(Unmarshaller.entityToByteArray(), jar -> completeWithFuture(CompletableFuture.supplyAsync(() -> {
                    List<String> arguments = new java.util.ArrayList<>();
                    for (String a : args.orElse("").split(",", -1)) {
                        if (!a.isEmpty() || args.map(x -> !x.isEmpty()).orElse(false)) {
                            arguments.add(java.net.URLDecoder.decode(a, StandardCharsets.UTF_8));
                        }
                    }
                    java.time.Duration limit = runner.maxRunTime();
                    try {
                        java.time.Duration asked = java.time.Duration.ofSeconds(Long.parseLong(timeout.orElse("0").strip()));
                        if (!asked.isNegative() && !asked.isZero() && asked.compareTo(limit) < 0) {
                            limit = asked;
                        }
                    } catch (NumberFormatException e) {
                        return HttpResponse.create().withStatus(StatusCodes.BAD_REQUEST).withEntity(
                                ContentTypes.TEXT_PLAIN_UTF8, TIMEOUT_HEADER + " is not a number of seconds: "
                                        + oneLine(timeout.orElse("")));
                    }
                    CompletableFuture<Void> cancel = new CompletableFuture<>();
                    connection.onClientGone(() -> cancel.complete(null));
                    ClusterJobRunner.Outcome outcome = runner.run(jar, mainClass.orElse(null), arguments, limit, cancel);
                    HttpResponse response = HttpResponse.create().withStatus(StatusCodes.OK)
                            .withEntity(ContentTypes.TEXT_PLAIN_UTF8, outcome.output())
                            .addHeader(HttpHeader.parse(EXIT_CODE_HEADER, String.valueOf(outcome.exitCode())));
                    return outcome.error() == null ? response : response.addHeader(HttpHeader.parse(ERROR_HEADER,
                            java.net.URLEncoder.encode(oneLine(outcome.error()), StandardCharsets.UTF_8)));
                }, executor)))))));
    }

    /** A SQL script run up to its final query, in the session's catalog; the answer in {@link PreparedSql#toWire()} form. */
    private Route prepare() {
        return optionalHeaderValueByName(SessionCatalogs.SESSION_HEADER, session ->
                optionalHeaderValueByName(SessionCatalogs.CATALOG_HEADER, catalog ->
                        entity(Unmarshaller.entityToString(), sql -> completeWithFuture(answer(() ->
                                queries.prepareSql(sql, catalogs.resolve(session.orElse(null), catalog.orElse(null)),
                                        connection).toWire())))));
    }

    private HttpResponse cancel(String id) {
        if (queries.running().cancel(id, "cancelled by a client (POST /v1/jobs/" + id + "/cancel)")) {
            return HttpResponse.create().withStatus(StatusCodes.OK).withEntity(ContentTypes.TEXT_PLAIN_UTF8,
                    "cancelled " + id);
        }
        return HttpResponse.create().withStatus(StatusCodes.NOT_FOUND).withEntity(ContentTypes.TEXT_PLAIN_UTF8,
                "no running query " + id);
    }

    /** The inner routes, behind the cluster secret as a bearer token when there is one (a UI session cookie is not enough). */
    private Route authenticated(Supplier<Route> inner) {
        return auth.bearerOnly(inner);
    }

    /**
     * A client's plan in the JSON wire format ({@link PlanJson}): no client bytes ever reach Kryo,
     * and one that does not decode is the client's error (400).
     */
    private static LogicalPlan plan(byte[] bytes) {
        return PlanJson.decode(bytes);
    }

    /**
     * A client's plan request in the JSON wire format; a bare plan runs with the default settings.
     * One calling user functions needs a coordinator that runs client code ({@link UserFunctionGate}).
     */
    private PlanRequest planRequest(byte[] bytes) {
        PlanJson.Request request = PlanJson.decodeRequest(bytes);
        UserFunctionGate.check(request.plan(), jobs.get() != null);
        return new PlanRequest(request.plan(), request.settings(), request.target());
    }

    /**
     * The header by which a client says how it reads a result: {@code stream} (batch by batch,
     * holding little: not capped) or {@code collect} (the default: it keeps every row, so {@code
     * sluice.result.max-bytes} applies).
     */
    static final String RESULT_MODE_HEADER = "X-Sluice-Result";

    private static boolean collects(java.util.Optional<String> mode) {
        return !mode.map(m -> m.equalsIgnoreCase("stream")).orElse(false);
    }

    /**
     * Opens a result and answers with it as a chunked Arrow IPC stream, sent as the client reads
     * it. The answer starts once the first batch is ready (or the result ended), so a query that
     * fails before any row is still a 400 or 500 with its message; a later failure ends the stream
     * with an error trailer. The query holds its turn at the gate until its body is closed.
     */
    private CompletableFuture<HttpResponse> stream(Supplier<ResultStream> open) {
        return CompletableFuture.supplyAsync(() -> {
            if (!gate.enter()) {
                return HttpResponse.create().withStatus(StatusCodes.SERVICE_UNAVAILABLE)
                        .withEntity(ContentTypes.TEXT_PLAIN_UTF8, BUSY);
            }
            java.util.concurrent.atomic.AtomicBoolean left = new java.util.concurrent.atomic.AtomicBoolean();
            Runnable leave = () -> {
                if (left.compareAndSet(false, true)) {
                    gate.leave();
                }
            };
            boolean[] handed = {false};
            try {
                return respondWith(() -> {
                    ResultStream result = open.get();
                    try {
                        result.awaitFirst();
                    } catch (RuntimeException | Error e) {
                        result.close();
                        throw e;
                    }
                    ResultBody[] body = new ResultBody[1];
                    body[0] = new ResultBody(result, queries.allocator(), () -> {
                        connection.bodyClosed(body[0]);
                        leave.run();
                    });
                    connection.bodyOpened(body[0]);
                    handed[0] = true;
                    return HttpResponse.create().withStatus(StatusCodes.OK).withEntity(HttpEntities.create(
                            ContentTypes.APPLICATION_OCTET_STREAM,
                            StreamConverters.fromInputStream(() -> body[0], BODY_CHUNK_BYTES)));
                });
            } finally {
                if (!handed[0]) {
                    leave.run();
                }
            }
        }, executor);
    }

    /** Bytes per chunk of a streamed result body. */
    private static final int BODY_CHUNK_BYTES = 64 * 1024;

    private CompletableFuture<HttpResponse> answer(Supplier<byte[]> work) {
        return CompletableFuture.supplyAsync(() -> {
            QueryGate.Outcome<HttpResponse> outcome = gate.run(() -> respond(work));
            return outcome.busy() ? HttpResponse.create().withStatus(StatusCodes.SERVICE_UNAVAILABLE)
                    .withEntity(ContentTypes.TEXT_PLAIN_UTF8, BUSY) : outcome.result();
        }, executor);
    }

    private static HttpResponse respond(Supplier<byte[]> work) {
        return respondWith(() -> HttpResponse.create().withStatus(StatusCodes.OK)
                .withEntity(ContentTypes.APPLICATION_OCTET_STREAM, work.get()));
    }

    /** The work's answer, or its failure as a 400 (the user's error) or a 500 with a one-line message. */
    private static HttpResponse respondWith(Supplier<HttpResponse> work) {
        try {
            return work.get();
        } catch (StackOverflowError e) {
            return HttpResponse.create().withStatus(StatusCodes.BAD_REQUEST)
                    .withEntity(ContentTypes.TEXT_PLAIN_UTF8, "query too complex: it nests too deeply to run");
        } catch (SluiceException e) {
            return HttpResponse.create().withStatus(StatusCodes.BAD_REQUEST)
                    .withEntity(ContentTypes.TEXT_PLAIN_UTF8, oneLine(e.getMessage()));
        } catch (RuntimeException e) {
            LOG.error("query failed", e);
            return HttpResponse.create().withStatus(StatusCodes.INTERNAL_SERVER_ERROR)
                    .withEntity(ContentTypes.TEXT_PLAIN_UTF8, oneLine("internal error: " + e));
        }
    }

    static String oneLine(String message) {
        return message == null ? "unknown error" : message.replace('\n', ' ').strip();
    }
}
