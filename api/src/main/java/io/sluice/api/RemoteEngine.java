package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.PlanRequest;
import io.sluice.coordinator.PreparedSql;
import io.sluice.coordinator.RunningQueries;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.wire.PlanJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Talks to a coordinator's HTTP endpoint, proving the cluster's secret as a bearer token when one is
 * given. Error responses become {@link SluiceException}s.
 */
final class RemoteEngine implements QueryEngine {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteEngine.class);

    private final URI base;
    private final HttpClient client;
    private final String secret;
    /** Names this session to the coordinator: its tables and views are its own. */
    private final String sessionId = java.util.UUID.randomUUID().toString();
    private final boolean sharedCatalog;

    /**
     * {@code secret} may be null: then requests carry no token (a coordinator without a secret).
     * With {@code sharedCatalog}, SQL works on the cluster's shared catalog instead of this session's.
     * With {@code tls} it speaks HTTPS, trusting the coordinator as that says; null: plain HTTP.
     */
    RemoteEngine(String host, int httpPort, String secret, boolean sharedCatalog, CoordinatorTls tls) {
        requireNonNull(host, "host is null");
        this.base = URI.create((tls != null ? "https://" : "http://") + host + ":" + httpPort + "/v1/");
        this.client = httpClient(tls);
        this.secret = secret;
        this.sharedCatalog = sharedCatalog;
    }

    /** The client every request to a coordinator goes through: HTTPS with {@code tls}, plain HTTP when null. */
    static HttpClient httpClient(CoordinatorTls tls) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
        return (tls != null ? tls.configure(builder) : builder).build();
    }

    /** Why a request failed to reach the coordinator: the message, with a TLS failure's cause (a wrong pin names both fingerprints). */
    static String unreachable(IOException e) {
        // a refused connection has no message, only its type
        String why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof java.security.cert.CertificateException && !why.contains(cause.getMessage())) {
                why += ": " + cause.getMessage();
            }
        }
        return why;
    }

    @Override
    public byte[] runSql(String sql) {
        return checked(post("sql", "text/plain; charset=utf-8", sql.getBytes(StandardCharsets.UTF_8)));
    }

    /** A whole result stream, checked to have ended well (not cut off, no error trailer). */
    private static byte[] checked(byte[] result) {
        io.sluice.kernels.ArrowIpc.checkEnd(result);
        return result;
    }

    @Override
    public byte[] runSql(String sql, String tag) {
        if (!tag.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new SluiceException("a query tag is 1 to 64 letters, digits, '.', '_' or '-', not '" + tag + "'");
        }
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(base.resolve("sql"))
                .header("Content-Type", "text/plain; charset=utf-8").header(RunningQueries.TAG_HEADER, tag)
                .POST(HttpRequest.BodyPublishers.ofByteArray(sql.getBytes(StandardCharsets.UTF_8))));
        return checked(bodyOf(response));
    }

    /** Refused: the coordinator's HTTP API names views by SQL only ({@code CREATE VIEW ... AS SELECT}). */
    @Override
    public void registerView(String name, io.sluice.logical.plan.LogicalPlan plan, boolean replace) {
        throw new io.sluice.common.SluiceException("createOrReplaceTempView('" + name + "') is not available on a remote"
                + " session; use session.sql(\"CREATE OR REPLACE VIEW " + name + " AS SELECT ...\")");
    }

    @Override
    public PreparedSql prepareSql(String sql) {
        return PreparedSql.fromWire(post("prepare", "text/plain; charset=utf-8", sql.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public byte[] run(PlanRequest request) {
        return checked(post("plan", PlanJson.MEDIA_TYPE,
                PlanJson.encode(new PlanJson.Request(request.plan(), request.settings(), request.target()))));
    }

    /**
     * Asks for the plan's result as a stream ({@code X-Sluice-Result: stream}) and reads the
     * response body batch by batch as it arrives; closing the iterator early closes the connection,
     * which makes the coordinator cancel the query.
     */
    @Override
    public RowIterator stream(PlanRequest request) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve("plan"))
                .header("Content-Type", PlanJson.MEDIA_TYPE).header("X-Sluice-Result", "stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(
                        PlanJson.encode(new PlanJson.Request(request.plan(), request.settings(), request.target()))));
        HttpResponse<java.io.InputStream> response = send(builder, HttpResponse.BodyHandlers.ofInputStream());
        java.io.InputStream body = response.body();
        if (response.statusCode() != 200) {
            try (body) {
                throw new SluiceException(new String(body.readNBytes(1 << 20), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new SluiceException("the coordinator answered " + response.statusCode() + " and then broke off");
            }
        }
        return new RowIterator(new StreamedRows(body));
    }

    /** A result body read with Arrow's stream reader, one record batch at a time. */
    private static final class StreamedRows implements RowIterator.Source {
        private final java.io.InputStream body;
        private final org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
        private final org.apache.arrow.vector.ipc.ArrowStreamReader reader;
        private final io.sluice.common.types.Schema schema;
        private boolean closed;

        StreamedRows(java.io.InputStream body) {
            this.body = body;
            this.reader = new org.apache.arrow.vector.ipc.ArrowStreamReader(body, allocator);
            try {
                this.schema = io.sluice.common.types.Schema.fromArrow(reader.getVectorSchemaRoot().getSchema());
            } catch (IOException | RuntimeException e) {
                close();
                throw new SluiceException("cannot read the coordinator's result: " + e.getMessage());
            }
        }

        @Override
        public io.sluice.common.types.Schema schema() {
            return schema;
        }

        @Override
        public List<List<Object>> nextRows() {
            try {
                if (!reader.loadNextBatch()) {
                    io.sluice.kernels.ArrowIpc.checkTrailer(body.readNBytes(1 << 20));
                    return null;
                }
                org.apache.arrow.vector.VectorSchemaRoot root = reader.getVectorSchemaRoot();
                return io.sluice.kernels.ArrowRows.of(root.getFieldVectors(), schema, root.getRowCount());
            } catch (IOException e) {
                close();
                throw new SluiceException("the coordinator's result stream broke off: " + e.getMessage());
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                reader.close();
                body.close();
            } catch (IOException e) {
                // the connection is closed either way
                LOG.debug("closing a result stream failed", e);
            } finally {
                allocator.close();
            }
        }
    }

    @Override
    public String explain(LogicalPlan plan) {
        return new String(post("explain", PlanJson.MEDIA_TYPE, PlanJson.encode(plan)), StandardCharsets.UTF_8);
    }

    @Override
    public String runningQueries() {
        return new String(bodyOf(send(HttpRequest.newBuilder(base.resolve("jobs")).GET())), StandardCharsets.UTF_8);
    }

    @Override
    public java.util.Optional<String> monitoredQuery(String id) {
        if (!id.matches("[A-Za-z0-9_-]+")) {
            throw new SluiceException("not a query id: '" + id + "' (ids look like q12)");
        }
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(base.resolve("/api/v1/queries/" + id)).GET());
        if (response.statusCode() == 404) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new String(bodyOf(response), StandardCharsets.UTF_8));
    }

    @Override
    public boolean cancel(String queryId) {
        if (!queryId.matches("[A-Za-z0-9_-]+")) {
            throw new SluiceException("not a query id: '" + queryId + "' (ids look like q12 or job12)");
        }
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(base.resolve("jobs/" + queryId + "/cancel"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        if (response.statusCode() == 404) {
            return false;
        }
        bodyOf(response);
        return true;
    }

    private byte[] post(String path, String contentType, byte[] body) {
        return bodyOf(send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))));
    }

    /** A 200's body; any other answer is the coordinator's error message. */
    private static byte[] bodyOf(HttpResponse<byte[]> response) {
        if (response.statusCode() != 200) {
            throw new SluiceException(new String(response.body(), StandardCharsets.UTF_8));
        }
        return response.body();
    }

    private HttpResponse<byte[]> send(HttpRequest.Builder builder) {
        return send(builder, HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Sends a request with the bearer token; a coordinator that cannot be reached is a SluiceException. */
    private <T> HttpResponse<T> send(HttpRequest.Builder builder, HttpResponse.BodyHandler<T> handler) {
        if (secret != null) {
            builder.header("Authorization", "Bearer " + secret);
        }
        builder.header("X-Sluice-Session", sessionId);
        if (sharedCatalog) {
            builder.header("X-Sluice-Catalog", "shared");
        }
        HttpRequest request = builder.build();
        HttpResponse<T> response;
        try {
            response = client.send(request, handler);
        } catch (IOException e) {
            throw new SluiceException("cannot reach the coordinator at " + base + ": " + unreachable(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("interrupted while waiting for the coordinator");
        }
        return response;
    }

    @Override
    public void close() {
        // HttpClient has no close on Java 17; its threads are daemons.
    }
}
