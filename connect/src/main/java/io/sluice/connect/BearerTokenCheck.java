package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Every call must carry the cluster's secret as Spark's clients send their token
 * ({@code sc://host:port/;token=SECRET} becomes {@code Authorization: Bearer SECRET}); any other call
 * is closed {@code UNAUTHENTICATED} before its request is read. Without a secret (a coordinator run
 * without one) every call passes. A call that passes proves its connection to {@link UnprovenTransports}.
 */
final class BearerTokenCheck implements ServerInterceptor {
    private static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final String BEARER = "Bearer ";

    private final byte[] expected;
    private final UnprovenTransports unproven;

    /** @param secret the cluster's shared secret, or null when the coordinator has none */
    BearerTokenCheck(String secret, UnprovenTransports unproven) {
        this.expected = secret == null ? null : secret.getBytes(StandardCharsets.UTF_8);
        this.unproven = requireNonNull(unproven, "unproven is null");
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        if (expected != null && !valid(headers.get(AUTHORIZATION))) {
            call.close(Status.UNAUTHENTICATED.withDescription(
                    "Spark Connect needs the cluster's secret as its token: sc://host:port/;token=SECRET"), new Metadata());
            return new ServerCall.Listener<>() { };
        }
        unproven.proven(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
        return next.startCall(call, headers);
    }

    private boolean valid(String header) {
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        byte[] given = header.substring(BEARER.length()).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, expected);
    }
}
