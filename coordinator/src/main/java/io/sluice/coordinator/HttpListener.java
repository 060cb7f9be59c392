package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.ClassicActorSystemProvider;
import org.apache.pekko.http.javadsl.ConnectionContext;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.IncomingConnection;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.ServerBuilder;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * A bound HTTP port that hands each connection to its server: plain HTTP, or HTTPS when the node
 * settings name a certificate or ask for a self-signed one ({@link HttpsCredentials#configured}).
 * The coordinator and {@code sluice history} both listen through it, so both take the same
 * {@code --http-tls-*} options and print the same fingerprint.
 */
final class HttpListener {
    private final ServerBinding binding;
    private final HttpsCredentials https;

    private HttpListener(ServerBinding binding, HttpsCredentials https) {
        this.binding = requireNonNull(binding, "binding is null");
        this.https = https;
    }

    /**
     * Binds {@code host:port} (0: a free port), serving HTTPS with {@code tls} ({@link
     * HttpsCredentials#configured}, read before the server's actor system starts so that a bad
     * option fails fast) or plain HTTP when it is null, and handing every connection to {@code
     * serve}; a failure (the port taken) is an error naming the address and the cause.
     */
    static HttpListener bind(ClassicActorSystemProvider system, String host, int port, HttpsCredentials tls,
            Consumer<IncomingConnection> serve) {
        try {
            ServerBuilder server = Http.get(system).newServerAt(host, port);
            if (tls != null) {
                server = server.enableHttps(ConnectionContext.httpsServer(tls.serverContext()));
            }
            ServerBinding binding = server.connectionSource().to(Sink.foreach(serve::accept)).run(system)
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
            return new HttpListener(binding, tls);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("interrupted while binding HTTP on " + host + ":" + port, e);
        } catch (Exception e) {
            throw new SluiceException("cannot serve HTTP" + (tls != null ? "S" : "") + " on " + host + ":" + port + ": "
                    + e.getMessage(), e);
        }
    }

    int port() {
        return binding.localAddress().getPort();
    }

    /** The SHA-256 fingerprint of the certificate served, for clients to pin; empty for plain HTTP. */
    Optional<String> httpsFingerprint() {
        return Optional.ofNullable(https).map(HttpsCredentials::fingerprint);
    }

    /** The certificate and key served, when HTTPS is. */
    Optional<HttpsCredentials> credentials() {
        return Optional.ofNullable(https);
    }

    /** Stops accepting connections (those open stay until their server closes them). */
    void unbind() {
        binding.unbind().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> null).join();
    }
}
