package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.coordinator.PlanRequest;
import io.sluice.coordinator.PreparedSql;
import io.sluice.coordinator.RunningQueries;
import io.sluice.plan.SluiceException;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.wire.PlanJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Talks to a coordinator's HTTP endpoint, proving the cluster's secret as a bearer token when one is
 * given. Error responses become {@link SluiceException}s.
 */
final class RemoteEngine implements QueryEngine {
    private final URI base;
    private final HttpClient client;
    private final String secret;
    /** Names this session to the coordinator: its tables and views are its own. */
    private final String sessionId = java.util.UUID.randomUUID().toString();
    private final boolean sharedCatalog;

    /**
     * {@code secret} may be null: then requests carry no token (a coordinator without a secret).
     * With {@code sharedCatalog}, SQL works on the cluster's shared catalog instead of this session's.
     */
    RemoteEngine(String host, int httpPort, String secret, boolean sharedCatalog) {
        requireNonNull(host, "host is null");
        this.base = URI.create("http://" + host + ":" + httpPort + "/v1/");
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        this.secret = secret;
        this.sharedCatalog = sharedCatalog;
    }

    @Override
    public byte[] runSql(String sql) {
        return post("sql", "text/plain; charset=utf-8", sql.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public byte[] runSql(String sql, String tag) {
        if (!tag.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new SluiceException("a query tag is 1 to 64 letters, digits, '.', '_' or '-', not '" + tag + "'");
        }
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(base.resolve("sql"))
                .header("Content-Type", "text/plain; charset=utf-8").header(RunningQueries.TAG_HEADER, tag)
                .POST(HttpRequest.BodyPublishers.ofByteArray(sql.getBytes(StandardCharsets.UTF_8))));
        return bodyOf(response);
    }

    @Override
    public PreparedSql prepareSql(String sql) {
        return PreparedSql.fromWire(post("prepare", "text/plain; charset=utf-8", sql.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public byte[] run(PlanRequest request) {
        return post("plan", PlanJson.MEDIA_TYPE,
                PlanJson.encode(new PlanJson.Request(request.plan(), request.settings(), request.target())));
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

    /** Sends a request with the bearer token; a coordinator that cannot be reached is a SluiceException. */
    private HttpResponse<byte[]> send(HttpRequest.Builder builder) {
        if (secret != null) {
            builder.header("Authorization", "Bearer " + secret);
        }
        builder.header("X-Sluice-Session", sessionId);
        if (sharedCatalog) {
            builder.header("X-Sluice-Catalog", "shared");
        }
        HttpRequest request = builder.build();
        HttpResponse<byte[]> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            // a refused connection has no message, only its type
            String why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            throw new SluiceException("cannot reach the coordinator at " + base + ": " + why);
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
