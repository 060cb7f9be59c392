package io.sluice.coordinator.web;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.HttpCookiePair;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Who may use the coordinator's HTTP port: with a cluster secret, a request proves it either by
 * {@code Authorization: Bearer <secret>} (clients, scripts) or by the session cookie a browser got
 * from the login form ({@link UiSessions}); without a secret, anyone. This one check guards the
 * client API ({@code /v1}), the monitoring API ({@code /api}) and the web UI ({@code /ui}); only
 * what a refusal looks like differs: a 401 for the APIs, the login form for a page. The secret is
 * compared in constant time.
 *
 * <p>A browser sends a host's cookies to every port of that host, so the session cookie is named
 * for the server and the port the connection came in on ({@link #onPort}): a coordinator's UI and
 * a history server's on one host keep their logins apart instead of overwriting each other's.
 */
public final class HttpAuth extends AllDirectives {
    /** The header the web UI's own scripts send with a request that changes something (see {@link #authenticated}). */
    public static final String UI_HEADER = "X-Sluice-UI";
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD");
    static final String MISSING = "unauthorized: this cluster needs its secret as a bearer token (set SLUICE_AUTH_SECRET)";
    static final String WRONG = "unauthorized: wrong bearer token for this cluster";

    private final String server;
    private final String cookie;
    private final byte[] secret;
    private final byte[] expectedAuthorization;
    private final UiSessions sessions;

    private HttpAuth(String server, String cookie, byte[] secret, byte[] expectedAuthorization, UiSessions sessions) {
        this.server = requireNonNull(server, "server is null");
        this.cookie = requireNonNull(cookie, "cookie is null");
        this.secret = secret;
        this.expectedAuthorization = expectedAuthorization;
        this.sessions = sessions;
    }

    /** Everyone may use everything (a cluster without a secret, or a history server on loopback). */
    public static HttpAuth none(String server) {
        return new HttpAuth(server, "sluice_" + server, null, null, null);
    }

    /**
     * For the server named {@code server} ({@code coordinator}, {@code history}): {@code secret}
     * null, none needed; else logins last {@code sessionLifetime}.
     */
    public static HttpAuth of(String server, String secret, Duration sessionLifetime) {
        if (secret == null) {
            return none(server);
        }
        if (secret.isEmpty()) {
            throw new IllegalArgumentException("the secret is empty");
        }
        return new HttpAuth(server, "sluice_" + server, secret.getBytes(StandardCharsets.UTF_8),
                ("Bearer " + secret).getBytes(StandardCharsets.UTF_8),
                new UiSessions(sessionLifetime, System::currentTimeMillis));
    }

    /**
     * The same check, with the same login sessions, for a connection accepted on {@code port}: its
     * session cookie is {@link #cookieName}{@code (server, port)}.
     */
    public HttpAuth onPort(int port) {
        return new HttpAuth(server, cookieName(server, port), secret, expectedAuthorization, sessions);
    }

    /** The session cookie of {@code server}'s UI on {@code port}, e.g. {@code sluice_coordinator_8080}. */
    public static String cookieName(String server, int port) {
        return "sluice_" + server + "_" + port;
    }

    /** The name of the session cookie this check reads and the login sets. */
    public String cookie() {
        return cookie;
    }

    /** Whether requests must prove the secret. */
    public boolean required() {
        return secret != null;
    }

    /**
     * The inner routes for API callers: without the bearer secret or a live session cookie, a 401. A
     * request that only has the cookie and changes something (not GET or HEAD) must also carry
     * {@link #UI_HEADER}, which a page of another origin cannot send without a CORS preflight that
     * this server never grants, so a same-site page cannot act with the user's cookie.
     */
    public Route authenticated(Supplier<Route> inner) {
        if (secret == null) {
            return inner.get();
        }
        return check((header, ok) -> ok ? inner.get() : unauthorized(header.isPresent()));
    }

    /**
     * The inner routes for clients of {@code /v1} (SQL, plans, job jars): only the bearer secret; a
     * browser's session cookie never reaches them.
     */
    public Route bearerOnly(Supplier<Route> inner) {
        if (secret == null) {
            return inner.get();
        }
        return optionalHeaderValueByName("Authorization", header -> header.isPresent() && bearerMatches(header.get())
                ? inner.get() : unauthorized(header.isPresent()));
    }

    private Route unauthorized(boolean hadHeader) {
        return complete(HttpResponse.create()
                .withStatus(StatusCodes.UNAUTHORIZED)
                .addHeader(HttpHeader.parse("WWW-Authenticate", "Bearer realm=\"sluice\""))
                .withEntity(ContentTypes.TEXT_PLAIN_UTF8, hadHeader ? WRONG : MISSING));
    }

    /**
     * The inner routes for everyone, after {@code proven} ran when the request proves the secret: how
     * a connection tells that it belongs to someone who holds the secret, so that the limits on
     * unproven connections stop applying to it. Refusing is left to the inner routes.
     */
    public Route noteProven(Runnable proven, Supplier<Route> inner) {
        if (secret == null) {
            return inner.get(); // the connection proves itself by sending a request (ConnectionGuard)
        }
        return check((header, ok) -> {
            if (ok) {
                proven.run();
            }
            return inner.get();
        });
    }

    /** The inner routes for a browser: without the secret or a session, {@code refused} (the login form). */
    Route page(Supplier<Route> inner, Supplier<Route> refused) {
        if (secret == null) {
            return inner.get();
        }
        return check((header, ok) -> ok ? inner.get() : refused.get());
    }

    private interface Outcome {
        Route route(Optional<String> authorization, boolean ok);
    }

    private Route check(Outcome outcome) {
        return optionalHeaderValueByName("Authorization", header -> optionalCookie(this.cookie, cookie ->
                optionalHeaderValueByName(UI_HEADER, fromUi -> extractMethod(method -> outcome.route(header,
                        header.isPresent() ? bearerMatches(header.get()) : hasSession(cookie)
                                && (fromUi.isPresent() || SAFE_METHODS.contains(method.value())))))));
    }

    private boolean bearerMatches(String authorization) {
        return MessageDigest.isEqual(authorization.getBytes(StandardCharsets.UTF_8), expectedAuthorization);
    }

    private boolean hasSession(Optional<HttpCookiePair> cookie) {
        return cookie.isPresent() && sessions.valid(cookie.get().value());
    }

    /** Whether a typed secret is the cluster's (constant time). */
    boolean secretMatches(String typed) {
        return secret != null && typed != null && MessageDigest.isEqual(typed.getBytes(StandardCharsets.UTF_8), secret);
    }

    /** The sessions of logins; null when no secret is needed. */
    UiSessions sessions() {
        return sessions;
    }
}
