package io.sluice.coordinator.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.Coordinator;
import io.sluice.coordinator.CoordinatorSettings;
import io.sluice.coordinator.HistoryServer;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator's web UI and a history server's on one host, used from one cookie jar that, as a
 * browser's, sends a host's cookies to all of its ports: logged in to both at once, each keeps its
 * own session cookie, and logging out of one leaves the other logged in.
 */
class TwoServerLoginTest {
    private static final String SECRET = "one-secret-for-both-servers";
    @TempDir
    static Path events;
    private static Coordinator coordinator;
    private static HistoryServer history;

    @BeforeAll
    static void start() {
        coordinator = Coordinator.start(CoordinatorSettings.defaults("127.0.0.1", 0, 0).withAuthSecret(SECRET));
        history = HistoryServer.start(events, "127.0.0.1", 0, SECRET, 10);
    }

    @AfterAll
    static void stop() {
        if (history != null) {
            history.close();
        }
        if (coordinator != null) {
            coordinator.close();
        }
    }

    @Test
    void bothStayLoggedInOnOneHost() throws Exception {
        CookieManager jar = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
        HttpClient browser = HttpClient.newBuilder().cookieHandler(jar).followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(10)).build();
        int coordinatorPort = coordinator.httpPort();
        int historyPort = history.httpPort();

        assertThat(login(browser, coordinatorPort).statusCode()).isEqualTo(303);
        assertThat(login(browser, historyPort).statusCode()).isEqualTo(303);
        assertThat(jar.getCookieStore().getCookies()).extracting(HttpCookie::getName)
                .containsExactlyInAnyOrder(HttpAuth.cookieName("coordinator", coordinatorPort),
                        HttpAuth.cookieName("history", historyPort));

        assertThat(get(browser, coordinatorPort, "/api/v1/queries").statusCode()).as("coordinator API").isEqualTo(200);
        assertThat(get(browser, coordinatorPort, "/ui/").statusCode()).as("coordinator page").isEqualTo(200);
        assertThat(get(browser, historyPort, "/api/v1/queries").statusCode()).as("history API").isEqualTo(200);
        assertThat(get(browser, historyPort, "/ui/").statusCode()).as("history page").isEqualTo(200);

        HttpResponse<String> logout = browser.send(request(historyPort, "/logout")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(logout.statusCode()).isEqualTo(303);
        assertThat(get(browser, historyPort, "/api/v1/queries").statusCode()).as("history after its logout").isEqualTo(401);
        assertThat(get(browser, coordinatorPort, "/api/v1/queries").statusCode()).as("coordinator after history's logout")
                .isEqualTo(200);
    }

    private static HttpResponse<String> login(HttpClient browser, int port) throws Exception {
        String form = "secret=" + URLEncoder.encode(SECRET, StandardCharsets.UTF_8) + "&next=/ui/";
        return browser.send(request(port, "/login").header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(HttpClient browser, int port, String path) throws Exception {
        return browser.send(request(port, path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30));
    }
}
