package io.sluice.coordinator.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.Coordinator;
import io.sluice.coordinator.CoordinatorSettings;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The web UI's login on a real coordinator's HTTP port: without the secret, API routes answer 401
 * and pages send the browser to the login form; the form's right secret sets an HttpOnly,
 * SameSite=Strict cookie holding a random session token (not the secret) that opens the API and the
 * pages until logout; a wrong secret, a forged cookie or a login's redirect off this server get
 * nothing. Without a secret there is no login at all.
 */
class WebUiAuthTest {
    private static final String SECRET = "s3cret-for-the-web-ui-test";
    private static Coordinator guarded;
    private static Coordinator open;
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() {
        guarded = Coordinator.start(CoordinatorSettings.defaults("127.0.0.1", 0, 0).withAuthSecret(SECRET));
        open = Coordinator.start(CoordinatorSettings.defaults("127.0.0.1", 0, 0).withAuthSecret(null));
    }

    @AfterAll
    static void stop() {
        if (guarded != null) {
            guarded.close();
        }
        if (open != null) {
            open.close();
        }
    }

    @Test
    void withoutTheSecretApiRoutesAre401AndPagesAskForALogin() throws Exception {
        HttpResponse<String> jobs = get(guarded, "/v1/jobs", List.of());
        assertThat(jobs.statusCode()).isEqualTo(401);
        assertThat(jobs.body()).isEqualTo(HttpAuth.MISSING);

        HttpResponse<String> page = get(guarded, "/ui/queries/q1", List.of());
        assertThat(page.statusCode()).isEqualTo(303);
        assertThat(page.headers().firstValue("Location")).hasValue("/login?next=/ui/queries/q1");
        assertThat(get(guarded, "/", List.of()).headers().firstValue("Location")).hasValue("/ui/");

        HttpResponse<String> form = get(guarded, "/login?next=/ui/queries/q1", List.of());
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(form.body()).contains("<form method=\"post\" action=\"/login\" id=\"login\">")
                .contains("name=\"secret\"").contains("value=\"/ui/queries/q1\"").doesNotContain(SECRET);
        assertThat(form.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
                assertThat(csp).contains("script-src 'self'").contains("frame-ancestors 'none'"));
        assertThat(form.headers().firstValue("X-Frame-Options")).hasValue("DENY");

        // the script and style load without a login (the form needs the style), and hold no data
        HttpResponse<String> script = get(guarded, "/ui/static/sluice.js", List.of());
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type")).hasValue("application/javascript; charset=UTF-8");
        assertThat(script.body()).contains("/api/v1");
        assertThat(get(guarded, "/ui/static/sluice.css", List.of()).headers().firstValue("Content-Type"))
                .hasValue("text/css; charset=UTF-8");
        HttpResponse<String> missing = get(guarded, "/ui/static/nope.js", List.of());
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).isEqualTo("no UI asset nope.js");

        // a bearer header works as for every client, on pages too
        assertThat(get(guarded, "/v1/jobs", List.of("Authorization", "Bearer " + SECRET)).statusCode()).isEqualTo(200);
        assertThat(get(guarded, "/ui/", List.of("Authorization", "Bearer " + SECRET)).body()).contains("/ui/static/sluice.js");
        HttpResponse<String> wrong = get(guarded, "/v1/jobs", List.of("Authorization", "Bearer nope"));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).isEqualTo(HttpAuth.WRONG);
    }

    @Test
    void theLoginFormSetsASessionCookieThatOpensApiAndPagesUntilLogout() throws Exception {
        String cookieName = HttpAuth.cookieName("coordinator", guarded.httpPort());
        HttpResponse<String> wrong = login("not the secret", "/ui/");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).contains("<p class=\"error\" id=\"login-error\">wrong secret for this cluster</p>");
        assertThat(wrong.headers().firstValue("Set-Cookie")).isEmpty();
        HttpResponse<String> empty = login("", "/ui/");
        assertThat(empty.statusCode()).isEqualTo(401);
        assertThat(empty.body()).contains("type the cluster&#39;s secret (SLUICE_AUTH_SECRET)");

        HttpResponse<String> ok = login(SECRET, "/ui/queries/q7/stages/2");
        assertThat(ok.statusCode()).isEqualTo(303);
        assertThat(ok.headers().firstValue("Location")).hasValue("/ui/queries/q7/stages/2");
        String setCookie = ok.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).startsWith(cookieName + "=").contains("HttpOnly").contains("SameSite=Strict")
                .contains("Path=/").contains("Max-Age=43200").doesNotContain(SECRET);
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        List<String> withCookie = List.of("Cookie", cookie);

        assertThat(get(guarded, "/v1/jobs", withCookie).statusCode()).as("the client API takes the bearer secret only")
                .isEqualTo(401);
        HttpResponse<String> page = get(guarded, "/ui/queries/q7", withCookie);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<script src=\"/ui/static/sluice.js\"></script>")
                .contains("action=\"/logout\"");
        assertThat(get(guarded, "/v1/jobs", List.of("Cookie", cookieName + "=forged")).statusCode()).isEqualTo(401);
        // the monitoring API the pages read, and its cancel (the page's button), take the cookie too
        assertThat(get(guarded, "/api/v1/queries", withCookie).statusCode()).isEqualTo(200);
        assertThat(get(guarded, "/api/v1/queries", List.of()).statusCode()).isEqualTo(401);
        HttpResponse<String> crossSite = HTTP.send(request(guarded, "/api/v1/queries/q99/cancel", withCookie)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(crossSite.statusCode()).as("a cookie-only POST without the UI's header").isEqualTo(401);
        List<String> fromTheUi = List.of("Cookie", cookie, HttpAuth.UI_HEADER, "1");
        HttpResponse<String> cancel = HTTP.send(request(guarded, "/api/v1/queries/q99/cancel", fromTheUi)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(cancel.statusCode()).as("authorized, but no such query").isEqualTo(404);
        assertThat(cancel.body()).isEqualTo("{\"error\":\"no running query q99\"}");
        HttpResponse<String> anonymousCancel = HTTP.send(request(guarded, "/api/v1/queries/q99/cancel", List.of())
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(anonymousCancel.statusCode()).isEqualTo(401);

        HttpResponse<String> logout = HTTP.send(request(guarded, "/logout", withCookie)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(logout.statusCode()).isEqualTo(303);
        assertThat(logout.headers().firstValue("Location")).hasValue("/login");
        assertThat(logout.headers().firstValue("Set-Cookie")).hasValueSatisfying(c -> assertThat(c)
                .startsWith(cookieName + "=deleted"));
        assertThat(get(guarded, "/api/v1/queries", withCookie).statusCode()).as("the session ended").isEqualTo(401);
        assertThat(get(guarded, "/ui/", withCookie).statusCode()).isEqualTo(303);
    }

    @Test
    void aLoginNeverRedirectsOffTheUi() throws Exception {
        for (String next : List.of("//evil.example/ui", "https://evil.example/", "/v1/jobs", "/ui/../v1", "/ui//evil")) {
            HttpResponse<String> ok = login(SECRET, next);
            assertThat(ok.headers().firstValue("Location")).as(next).hasValue("/ui/");
        }
        assertThat(get(guarded, "/login?next=%22%3E%3Cscript%3E", List.of()).body())
                .contains("value=\"/ui/\"").doesNotContain("<script>");
    }

    @Test
    void withoutASecretThereIsNoLogin() throws Exception {
        assertThat(get(open, "/v1/jobs", List.of()).statusCode()).isEqualTo(200);
        HttpResponse<String> page = get(open, "/ui/", List.of());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).doesNotContain("/logout");
        assertThat(get(open, "/login", List.of()).headers().firstValue("Location")).hasValue("/ui/");
    }

    private static HttpResponse<String> login(String secret, String next) throws Exception {
        String form = "secret=" + URLEncoder.encode(secret, StandardCharsets.UTF_8) + "&next="
                + URLEncoder.encode(next, StandardCharsets.UTF_8);
        return HTTP.send(request(guarded, "/login", List.of("Content-Type", "application/x-www-form-urlencoded"))
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(Coordinator coordinator, String path, List<String> headers) throws Exception {
        return HTTP.send(request(coordinator, path, headers).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(Coordinator coordinator, String path, List<String> headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path))
                .timeout(Duration.ofSeconds(30));
        for (int i = 0; i < headers.size(); i += 2) {
            builder.header(headers.get(i), headers.get(i + 1));
        }
        return builder;
    }
}
