package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.net.UnprovenConnections;
import io.sluice.common.settings.Settings;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.ClassicActorSystemProvider;
import org.apache.pekko.http.javadsl.IncomingConnection;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.ResponseEntity;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.stream.KillSwitches;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.SharedKillSwitch;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;

/**
 * Serves each accepted HTTP connection under the limits of {@link HttpConnections}, so that every
 * HTTP port (the coordinator's and {@code sluice history}'s) holds a client without the secret
 * the same way. The connection is closed through a kill switch on both sides of its handler when
 * it has not proven the secret in time, is evicted for a newer unproven one, or is idle; a request
 * runs and its answer is sent (to its last body byte) before the connection counts as idle. The
 * routes prove the connection through the {@code prove} they are given ({@link
 * io.sluice.coordinator.web.HttpAuth#noteProven}); without a secret, any request proves it.
 */
final class ConnectionGuard implements AutoCloseable {
    private final ClassicActorSystemProvider system;
    private final HttpConnections connections;
    private final boolean anyRequestProves;

    ConnectionGuard(ClassicActorSystemProvider system, UnprovenConnections.Limits limits, Duration idleTimeout,
            boolean anyRequestProves) {
        this.system = requireNonNull(system, "system is null");
        this.connections = new HttpConnections(limits, idleTimeout);
        this.anyRequestProves = anyRequestProves;
    }

    /** With the limits of the node settings ({@link HttpSettingsDeclaration}); {@code secret} null: none. */
    static ConnectionGuard configured(ClassicActorSystemProvider system, String secret) {
        return new ConnectionGuard(system, HttpSettingsDeclaration.UNAUTHENTICATED.configured(),
                Settings.systemProperty(HttpSettingsDeclaration.IDLE_TIMEOUT), secret == null);
    }

    /**
     * Serves {@code connection} with the routes {@code routes} builds from the connection's prove
     * callback. {@code clientGone} runs when the client's side of the connection ends first (the
     * client closed the socket or died) — unless the client asked to close after its request, which
     * ends the request stream at once.
     */
    void serve(IncomingConnection connection, Function<Runnable, Route> routes, Runnable clientGone) {
        SharedKillSwitch kill = KillSwitches.shared("http-connection");
        HttpConnections.Connection guard = connections.open(connection.remoteAddress().getAddress().getHostAddress(),
                kill::shutdown);
        boolean[] closeRequested = {false};
        Flow<HttpRequest, HttpRequest, NotUsed> watched = Flow.of(HttpRequest.class)
                .via(kill.flow())
                .map(request -> {
                    guard.requestStarted();
                    if (anyRequestProves) {
                        guard.prove();
                    }
                    closeRequested[0] |= request.getHeader("Connection")
                            .map(h -> h.value().toLowerCase(Locale.ROOT).contains("close")).orElse(false);
                    return request;
                })
                .watchTermination((notUsed, done) -> {
                    done.whenComplete((ok, error) -> {
                        guard.closed();
                        if (!closeRequested[0]) {
                            clientGone.run();
                        }
                    });
                    return notUsed;
                });
        connection.handleWith(watched.via(routes.apply(guard::prove).flow(system))
                .map(response -> tracked(response, guard)).via(kill.flow()), Materializer.matFromSystem(system));
    }

    /** Connections open now that have not proven the secret (at most the configured limits). */
    int unauthenticated() {
        return connections.unauthenticated();
    }

    /**
     * The response, whose end (when its body has been sent, or failed) tells {@code guard} the
     * request is over. The routes answer with strict or data-only streamed entities, rebuilt here
     * with the same framing.
     */
    private static HttpResponse tracked(HttpResponse response, HttpConnections.Connection guard) {
        ResponseEntity entity = response.entity();
        if (entity.isStrict()) {
            guard.answerEnded();
            return response;
        }
        Source<ByteString, Object> body = entity.getDataBytes().watchTermination((mat, done) -> {
            done.whenComplete((ok, error) -> guard.answerEnded());
            return mat;
        });
        return response.withEntity(entity.isChunked() ? HttpEntities.createChunked(entity.getContentType(), body)
                : entity.getContentLengthOption().isPresent()
                        ? HttpEntities.create(entity.getContentType(), entity.getContentLengthOption().getAsLong(), body)
                        : HttpEntities.createCloseDelimited(entity.getContentType(), body));
    }

    @Override
    public void close() {
        connections.close();
    }
}
