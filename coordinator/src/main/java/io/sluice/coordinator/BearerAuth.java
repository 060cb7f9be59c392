package io.sluice.coordinator;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The HTTP routes' authentication, shared by the coordinator's endpoint and {@code sluice
 * history}: with a secret, a request must carry {@code Authorization: Bearer <secret>} (compared
 * in constant time), else it is a 401 whose body is not read. Without a secret every request
 * passes.
 */
final class BearerAuth extends AllDirectives {
    private final byte[] expectedAuthorization;

    /** {@code secret} may be null: then no route asks for a token. */
    BearerAuth(String secret) {
        this.expectedAuthorization = secret == null ? null : ("Bearer " + secret).getBytes(StandardCharsets.UTF_8);
    }

    /** The inner routes, behind the bearer token when there is a secret. */
    Route authenticated(Supplier<Route> inner) {
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
}
