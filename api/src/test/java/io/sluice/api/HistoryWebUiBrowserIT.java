package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.coordinator.HistoryServer;
import io.sluice.coordinator.monitor.MonitorSettings;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.testfixtures.HeadlessChromium;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI of {@code sluice history}: two queries run on an embedded cluster with an event log,
 * the cluster stops, a history server (in this JVM) replays the log, and headless Chromium (skipped,
 * visibly, where none is installed) logs in with the secret and loads each query's page with one DAG
 * box per stage the live coordinator listed, and its first stage's task table with every attempt.
 * Screenshots are kept under {@code target/webui/}.
 */
class HistoryWebUiBrowserIT {
    private static final String SECRET = "history-ui-test-secret";
    private static final List<String> QUERIES = List.of("SELECT k, count(*) AS n FROM t GROUP BY k ORDER BY k",
            "SELECT count(DISTINCT v) AS d FROM t WHERE v > 100");

    @TempDir
    static Path dir;
    private static HistoryServer history;
    private static HeadlessChromium browser;
    /** What the live coordinator answered: each query's id, its stage count and its first stage's attempts. */
    private static final Map<String, int[]> LIVE = new LinkedHashMap<>();
    /** The rows of each attempt of the first query's first stage, ascending. */
    private static final List<Long> FIRST_STAGE_ROWS = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Optional<Path> chromium = HeadlessChromium.binary();
        assumeTrue(chromium.isPresent(),
                "SKIP: no Chromium binary (install Debian's chromium, or set SLUICE_CHROMIUM): the browser test cannot run");
        Path log = dir.resolve("events");
        System.setProperty(MonitorSettings.EVENT_LOG_DIR.name(), log.toString());
        try (DuckDbOracle duck = new DuckDbOracle();
                Session session = Session.local(LocalCluster.Options.of(2).withHttpPort(0))) {
            ClusterTesting.createKeyedCsvTable(duck, session, dir);
            LocalCluster cluster = session.localCluster();
            MonitorClient live = new MonitorClient("http://127.0.0.1:" + cluster.coordinator().httpPort(),
                    cluster.authSecret());
            for (String query : QUERIES) {
                assertThat(DuckDbOracle.normalize(session.sql(query, "history-ui"))).isEqualTo(duck.query(query));
                String id = live.queryId(query);
                JsonNode detail = live.finished(id);
                assertThat(detail.get("state").asText()).isEqualTo("FINISHED");
                int firstStage = detail.get("stages").get(0).get("id").asInt();
                JsonNode tasks = live.get("/api/v1/queries/" + id + "/stages/" + firstStage + "/tasks");
                LIVE.put(id, new int[] {detail.get("stages").size(), firstStage, tasks.size()});
                if (FIRST_STAGE_ROWS.isEmpty()) {
                    tasks.forEach(t -> FIRST_STAGE_ROWS.add(t.get("rows").asLong()));
                    FIRST_STAGE_ROWS.sort(null);
                }
            }
        } finally {
            System.clearProperty(MonitorSettings.EVENT_LOG_DIR.name());
        }
        history = HistoryServer.start(log, "127.0.0.1", 0, SECRET, 100);
        browser = HeadlessChromium.start(chromium.get(), dir.resolve("chromium-profile"), 1400, 1000);
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(browser, history);
    }

    @Test
    void theHistoryServerShowsTheSameQueryPagesAfterTheClusterStopped() throws Exception {
        String base = "http://127.0.0.1:" + history.httpPort();
        browser.navigate(base + "/ui/", WebUiBrowserIT.PAGE_TIMEOUT);
        browser.await("location.pathname === '/login'", WebUiBrowserIT.PAGE_TIMEOUT);
        WebUiBrowserIT.submitLogin(browser, SECRET);
        browser.await("document.body.dataset.ready === 'cluster'", WebUiBrowserIT.PAGE_TIMEOUT);
        assertThat(browser.evaluate("document.querySelectorAll('table#finished tbody tr').length").asInt())
                .isEqualTo(QUERIES.size());
        assertThat(browser.evaluate("document.querySelector('table#workers') === null").asBoolean())
                .as("history shows no workers table: no cluster runs behind it").isTrue();
        assertThat(browser.evaluate("document.querySelector('h1').textContent").asText()).isEqualTo("History");
        browser.screenshot(SCREENSHOTS.resolve("history-cluster.png"), true);

        boolean first = true;
        for (Map.Entry<String, int[]> query : LIVE.entrySet()) {
            String id = query.getKey();
            int stages = query.getValue()[0];
            int firstStage = query.getValue()[1];
            int attempts = query.getValue()[2];
            browser.navigate(base + "/ui/queries/" + id, WebUiBrowserIT.PAGE_TIMEOUT);
            browser.await("document.body.dataset.ready === 'query'", WebUiBrowserIT.PAGE_TIMEOUT);
            assertThat(browser.evaluate("document.querySelectorAll('svg#dag g.stage').length").asInt()).as(id)
                    .isEqualTo(stages);
            assertThat(browser.evaluate("document.getElementById('sql').textContent").asText()).isIn(QUERIES);
            browser.screenshot(SCREENSHOTS.resolve("history-" + id + ".png"), true);

            browser.navigate(base + "/ui/queries/" + id + "/stages/" + firstStage, WebUiBrowserIT.PAGE_TIMEOUT);
            browser.await("document.body.dataset.ready === 'stage'", WebUiBrowserIT.PAGE_TIMEOUT);
            assertThat(browser.evaluate("document.querySelectorAll('table#tasks tbody tr').length").asInt()).as(id)
                    .isEqualTo(attempts);
            if (first) {
                // the table sorts by a column clicked: the scan's tasks (one per file) by the rows they read
                assertThat(FIRST_STAGE_ROWS).hasSizeGreaterThan(1);
                assertThat(WebUiBrowserIT.sortedColumn(browser, "rows", "ascending")).isEqualTo(FIRST_STAGE_ROWS);
                first = false;
            }
        }
    }

    private static final Path SCREENSHOTS = Path.of("target", "webui");
}
