package io.sluice.coordinator.web;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpCharsets;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.Query;
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.Uri;
import org.apache.pekko.http.javadsl.model.headers.HttpCookie;
import org.apache.pekko.http.javadsl.model.headers.SameSite;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.japi.Pair;

/**
 * The web UI: {@code /ui/} (the cluster), {@code /ui/queries/ID} (a query, its stage DAG and plan)
 * and {@code /ui/queries/ID/stages/N} (a stage's tasks) are one HTML page whose script renders
 * what the monitoring API ({@code /api/v1}) answers; {@code /ui/static/*} are its script and style,
 * all served from this package's resources (no CDN). With a secret ({@link HttpAuth}), a browser
 * without a session is sent to {@code GET /login}, a form whose {@code POST /login} checks the
 * secret and sets an HttpOnly, SameSite=Strict session cookie; {@code POST /logout} ends it. Every
 * answer forbids framing and scripts from anywhere but this server.
 */
public final class WebUi extends AllDirectives {
    private static final String RESOURCES = "/io/sluice/coordinator/web/";
    /** Where a login may send the browser afterwards: a UI page (no empty or dot segments), nothing else. */
    private static final Pattern SAFE_NEXT = Pattern.compile("/ui(/[A-Za-z0-9._~%/-]*)?");
    private static final ContentType JAVASCRIPT = ContentTypes.create(MediaTypes.APPLICATION_JAVASCRIPT, HttpCharsets.UTF_8);
    private static final ContentType CSS = ContentTypes.create(MediaTypes.TEXT_CSS, HttpCharsets.UTF_8);
    private static final List<HttpHeader> SECURITY_HEADERS = List.of(
            HttpHeader.parse("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; "
                    + "img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"),
            HttpHeader.parse("X-Content-Type-Options", "nosniff"),
            HttpHeader.parse("X-Frame-Options", "DENY"),
            HttpHeader.parse("Referrer-Policy", "no-referrer"),
            HttpHeader.parse("Cache-Control", "no-store"));

    private final HttpAuth auth;
    private final String app;
    private final String login;
    private final Map<String, Asset> assets;

    private record Asset(ContentType type, byte[] bytes) {
    }

    public WebUi(HttpAuth auth) {
        this(auth, resource("app.html").replace("{{logout}}", auth.required()
                ? "<form method=\"post\" action=\"/logout\" id=\"logout\"><button type=\"submit\">Log out</button></form>"
                : ""), resource("login.html"), Map.of(
                "sluice.js", new Asset(JAVASCRIPT, resource("sluice.js").getBytes(StandardCharsets.UTF_8)),
                "sluice.css", new Asset(CSS, resource("sluice.css").getBytes(StandardCharsets.UTF_8))));
    }

    private WebUi(HttpAuth auth, String app, String login, Map<String, Asset> assets) {
        this.auth = requireNonNull(auth, "auth is null");
        this.app = app;
        this.login = login;
        this.assets = assets;
    }

    /**
     * The same pages (read once) checked by {@code connection}, the check of one connection ({@link
     * HttpAuth#onPort}), whose login cookie they set and clear; it must need the secret as this one's does.
     */
    public WebUi with(HttpAuth connection) {
        if (connection.required() != auth.required()) {
            throw new IllegalArgumentException("a connection's check needs the secret exactly when the server's does");
        }
        return new WebUi(connection, app, login, assets);
    }

    public Route routes() {
        return respondWithHeaders(SECURITY_HEADERS, () -> concat(
                pathSingleSlash(() -> get(() -> redirect(Uri.create("/ui/"), StatusCodes.SEE_OTHER))),
                path("login", () -> concat(
                        get(() -> parameterOptional("next", next -> loginForm(next, null, StatusCodes.OK))),
                        post(() -> withSizeLimit(MAX_FORM_BYTES, () -> formFieldOptional("secret", secret ->
                                formFieldOptional("next", next -> login(secret, next))))))),
                path("logout", () -> post(this::logout)),
                pathPrefix("ui", () -> concat(
                        pathPrefix("static", () -> path(PathMatchers.segment(), name -> get(() -> asset(name)))),
                        get(() -> extractUri(uri -> auth.page(() -> html(StatusCodes.OK, app),
                                () -> redirect(Uri.create("/login").query(Query.create(Pair.create("next", uri.path()))),
                                        StatusCodes.SEE_OTHER))))))));
    }

    /** A login form is a few hundred bytes; nothing larger is read. */
    private static final long MAX_FORM_BYTES = 16 * 1024;

    private Route loginForm(Optional<String> next, String message, StatusCode status) {
        if (!auth.required()) {
            return redirect(Uri.create("/ui/"), StatusCodes.SEE_OTHER);
        }
        return html(status, login.replace("{{next}}", escape(safeNext(next)))
                .replace("{{message}}", message == null ? "" : "<p class=\"error\" id=\"login-error\">" + escape(message) + "</p>"));
    }

    private Route login(Optional<String> secret, Optional<String> next) {
        if (!auth.required()) {
            return redirect(Uri.create("/ui/"), StatusCodes.SEE_OTHER);
        }
        if (secret.isEmpty() || secret.get().isEmpty()) {
            return loginForm(next, "type the cluster's secret (SLUICE_AUTH_SECRET)", StatusCodes.UNAUTHORIZED);
        }
        if (!auth.secretMatches(secret.get())) {
            return loginForm(next, "wrong secret for this cluster", StatusCodes.UNAUTHORIZED);
        }
        UiSessions sessions = auth.sessions();
        HttpCookie cookie = HttpCookie.create(auth.cookie(), sessions.open()).withPath("/").withHttpOnly(true)
                .withSameSite(SameSite.Strict).withMaxAge(sessions.lifetime().toSeconds());
        return setCookie(cookie, () -> redirect(Uri.create(safeNext(next)), StatusCodes.SEE_OTHER));
    }

    private Route logout() {
        return optionalCookie(auth.cookie(), cookie -> {
            if (auth.sessions() != null) {
                cookie.ifPresent(c -> auth.sessions().close(c.value()));
            }
            return deleteCookie(auth.cookie(), "", "/", () -> redirect(Uri.create(auth.required() ? "/login" : "/ui/"),
                    StatusCodes.SEE_OTHER));
        });
    }

    private Route asset(String name) {
        Asset asset = assets.get(name);
        if (asset == null) {
            return complete(HttpResponse.create().withStatus(StatusCodes.NOT_FOUND)
                    .withEntity(ContentTypes.TEXT_PLAIN_UTF8, "no UI asset " + name));
        }
        return complete(HttpResponse.create().withStatus(StatusCodes.OK).withEntity(asset.type(), asset.bytes()));
    }

    private Route html(StatusCode status, String page) {
        return complete(HttpResponse.create().withStatus(status).withEntity(ContentTypes.TEXT_HTML_UTF8, page));
    }

    static String safeNext(Optional<String> next) {
        return next.filter(n -> SAFE_NEXT.matcher(n).matches() && !n.contains("//") && !n.contains("/.")).orElse("/ui/");
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }

    private static String resource(String name) {
        try (InputStream in = WebUi.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("the UI resource " + RESOURCES + name + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the UI resource " + RESOURCES + name, e);
        }
    }
}
