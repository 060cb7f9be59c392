package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A test's client of the monitoring REST API on a coordinator or history server, with the secret as a bearer token. */
final class MonitorClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;
    private final String secret;

    /** {@code base} as {@code http://127.0.0.1:PORT}. */
    MonitorClient(String base, String secret) {
        this.base = base;
        this.secret = secret;
    }

    String base() {
        return base;
    }

    /** A 200's JSON body. */
    JsonNode get(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + secret).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    /** The answer to a request without the secret. */
    HttpResponse<String> anonymous(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The id of the newest query whose SQL text holds {@code text}. */
    String queryId(String text) throws Exception {
        for (JsonNode q : get("/api/v1/queries")) {
            if (q.get("sql").asText().contains(text)) {
                return q.get("id").asText();
            }
        }
        throw new AssertionError("no query listed with the text " + text);
    }

    /** The query's detail once its end has been applied (events arrive asynchronously), within 10 s. */
    JsonNode finished(String id) throws Exception {
        long deadline = System.currentTimeMillis() + 10_000;
        JsonNode detail = get("/api/v1/queries/" + id);
        while (detail.get("state").asText().equals("RUNNING") && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
            detail = get("/api/v1/queries/" + id);
        }
        return detail;
    }
}
