package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.ClusterJobRunner;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The client side of cluster deploy mode ({@code sluice submit --deploy-mode cluster}): uploads a
 * job jar to a coordinator's {@code POST /v1/submit}, proving the cluster's secret as a bearer
 * token, and waits for the job's output and exit code.
 */
public final class JobSubmitter {
    private JobSubmitter() {
    }

    /** Like {@link #submit(String, int, String, CoordinatorTls, Path, String, List)} over plain HTTP. */
    public static ClusterJobRunner.Outcome submit(String host, int httpPort, String secret, Path jar, String mainClass,
            List<String> args) {
        return submit(host, httpPort, secret, null, jar, mainClass, args);
    }

    /**
     * Runs the jar's {@code mainClass} (null: its Main-Class) with {@code args} on the coordinator at
     * {@code host:httpPort}; {@code secret} may be null for a coordinator without one, {@code tls}
     * null for plain HTTP.
     */
    public static ClusterJobRunner.Outcome submit(String host, int httpPort, String secret, CoordinatorTls tls, Path jar,
            String mainClass, List<String> args) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(jar);
        } catch (IOException e) {
            throw new SluiceException("cannot read job jar " + jar + ": " + e.getMessage());
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create((tls != null ? "https://" : "http://") + host + ":" + httpPort + "/v1/submit"))
                .header("Content-Type", "application/java-archive")
                .header("X-Sluice-Args", args.stream().map(a -> URLEncoder.encode(a, StandardCharsets.UTF_8))
                        .collect(Collectors.joining(",")))
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
        if (mainClass != null) {
            request.header("X-Sluice-Main-Class", mainClass);
        }
        if (secret != null) {
            request.header("Authorization", "Bearer " + secret);
        }
        HttpResponse<String> response;
        try {
            response = RemoteEngine.httpClient(tls)
                    .send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new SluiceException("cannot reach the coordinator at " + host + ":" + httpPort + ": "
                    + RemoteEngine.unreachable(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("interrupted while the job ran");
        }
        if (response.statusCode() != 200) {
            throw new SluiceException(response.body());
        }
        int exit = Integer.parseInt(response.headers().firstValue("X-Sluice-Exit-Code").orElse("1"));
        String error = response.headers().firstValue("X-Sluice-Error")
                .map(e -> URLDecoder.decode(e, StandardCharsets.UTF_8)).orElse(null);
        return new ClusterJobRunner.Outcome(exit, response.body(), error);
    }
}
