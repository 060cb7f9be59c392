package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.serialization.Kryos;
import io.sluice.plan.SluiceException;
import io.sluice.plan.logical.LogicalPlan;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's HTTP API for clients: {@code POST /v1/sql} (a SQL script as text) and
 * {@code POST /v1/plan} (a Kryo-serialized logical plan) answer with the result as an Arrow IPC
 * stream, {@code POST /v1/explain} (a plan) with its EXPLAIN text; a user error is a 400 and any other failure a 500, each with a one-line text message.
 * {@code GET /v1/health} answers with the cluster's load as JSON ({@link ClusterLoad#toJson()}).
 * {@code GET /v1/jobs} lists the running queries as JSON, and {@code POST /v1/jobs/ID/cancel}
 * cancels one (404 when none such runs).
 * With a cluster secret, every route but health requires {@code Authorization: Bearer <secret>}
 * (compared in constant time); anything else is a 401 and the request body is not read.
 *
 * <p>One endpoint serves one client connection ({@code connection}): the queries it started are
 * cancelled when that connection closes before their answers are sent (a client killed, or
 * Ctrl-C in {@code sluice sql}).
 */
final class HttpEndpoint extends AllDirectives {
    private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);
    static final String ARROW_STREAM = "application/vnd.apache.arrow.stream";


    private final QueryService queries;
    private final ExecutorService executor;
    private final Supplier<ClusterLoad> load;
    private final byte[] expectedAuthorization;
    private final ConnectionQueries connection;

    /** {@code secret} may be null: then no route asks for a token. */
    HttpEndpoint(QueryService queries, ExecutorService executor, Supplier<ClusterLoad> load, String secret,
            ConnectionQueries connection) {
        this.connection = requireNonNull(connection, "connection is null");
        this.queries = requireNonNull(queries, "queries is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.load = requireNonNull(load, "load is null");
        this.expectedAuthorization = secret == null ? null : ("Bearer " + secret).getBytes(StandardCharsets.UTF_8);
    }

    Route routes() {
        return pathPrefix("v1", () -> concat(
                path("health", () -> get(() -> completeWithFuture(CompletableFuture.supplyAsync(() -> HttpResponse.create()
                        .withStatus(StatusCodes.OK).withEntity(ContentTypes.APPLICATION_JSON, load.get().toJson()), executor)))),
                authenticated(() -> concat(
                        path("sql", () -> post(() -> optionalHeaderValueByName(RunningQueries.TAG_HEADER, tag -> entity(
                                Unmarshaller.entityToString(), sql -> completeWithFuture(answer(() -> queries.runSql(sql,
                                        tag.isPresent() ? connection.tagged(tag.get()) : connection))))))),
                        path("plan", () -> post(() -> entity(Unmarshaller.entityToByteArray(),
                                bytes -> completeWithFuture(answer(() -> queries.run(plan(bytes), connection)))))),
                        path("jobs", () -> get(() -> complete(HttpResponse.create().withStatus(StatusCodes.OK)
                                .withEntity(ContentTypes.APPLICATION_JSON, queries.running().toJson())))),
                        pathPrefix("jobs", () -> pathPrefix(PathMatchers.segment(), id -> path("cancel",
                                () -> post(() -> complete(cancel(id)))))),
                        path("explain", () -> post(() -> entity(Unmarshaller.entityToByteArray(),
                                bytes -> completeWithFuture(answer(() -> queries.explain(plan(bytes),
                                        false).getBytes(StandardCharsets.UTF_8))))))))));
    }

    private HttpResponse cancel(String id) {
        if (queries.running().cancel(id, "cancelled by a client (POST /v1/jobs/" + id + "/cancel)")) {
            return HttpResponse.create().withStatus(StatusCodes.OK).withEntity(ContentTypes.TEXT_PLAIN_UTF8,
                    "cancelled " + id);
        }
        return HttpResponse.create().withStatus(StatusCodes.NOT_FOUND).withEntity(ContentTypes.TEXT_PLAIN_UTF8,
                "no running query " + id);
    }

    /** The inner routes, behind the bearer token when the cluster has a secret. */
    private Route authenticated(Supplier<Route> inner) {
        if (expectedAuthorization == null) {
            return inner.get();
        }
        return optionalHeaderValueByName("Authorization", header -> {
            if (header.isPresent() && MessageDigest.isEqual(header.get().getBytes(StandardCharsets.UTF_8),
                    expectedAuthorization)) {
                return inner.get();
            }
            return complete(HttpResponse.create().withStatus(StatusCodes.UNAUTHORIZED)
                    .addHeader(HttpHeader.parse("WWW-Authenticate", "Bearer realm=\"sluice\""))
                    .withEntity(ContentTypes.TEXT_PLAIN_UTF8, header.isPresent()
                            ? "unauthorized: wrong bearer token for this cluster"
                            : "unauthorized: this cluster needs its secret as a bearer token (set SLUICE_AUTH_SECRET)"));
        });
    }

    /** A client's serialized plan; one that does not decode is the client's error. */
    private static LogicalPlan plan(byte[] bytes) {
        try {
            return Kryos.deserialize(bytes, LogicalPlan.class);
        } catch (RuntimeException e) {
            throw new SluiceException("malformed plan in the request body: " + e.getMessage());
        }
    }

    private CompletableFuture<HttpResponse> answer(Supplier<byte[]> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                byte[] result = work.get();
                return HttpResponse.create().withStatus(StatusCodes.OK)
                        .withEntity(ContentTypes.APPLICATION_OCTET_STREAM, result);
            } catch (SluiceException e) {
                return HttpResponse.create().withStatus(StatusCodes.BAD_REQUEST)
                        .withEntity(ContentTypes.TEXT_PLAIN_UTF8, oneLine(e.getMessage()));
            } catch (RuntimeException e) {
                LOG.error("query failed", e);
                return HttpResponse.create().withStatus(StatusCodes.INTERNAL_SERVER_ERROR)
                        .withEntity(ContentTypes.TEXT_PLAIN_UTF8, oneLine("internal error: " + e));
            }
        }, executor);
    }

    static String oneLine(String message) {
        return message == null ? "unknown error" : message.replace('\n', ' ').strip();
    }
}
