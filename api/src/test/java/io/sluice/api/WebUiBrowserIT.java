package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.common.SluiceException;
import io.sluice.testfixtures.HeadlessChromium;
import io.sluice.tpch.TpchData;
import io.sluice.tpch.TpchQueries;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI in a real browser: headless Chromium (skipped, visibly, where none is installed) logs
 * in to an embedded cluster with its secret through the login form, opens the page of a finished
 * TPC-H Q9 and finds the stage DAG drawn with one box per stage the REST API lists and one arrow
 * per exchange, opens a stage's page and finds its task table with every attempt (sortable) and
 * timeline, sees a failed query's error, and logs out. Screenshots of each page are kept under
 * {@code target/webui/}. Without the secret the API answers 401 and the UI the login page.
 */
class WebUiBrowserIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Duration PAGE_TIMEOUT = Duration.ofSeconds(30);
    private static final Path SCREENSHOTS = Path.of("target", "webui");

    @TempDir
    static Path dir;
    private static Session session;
    private static LocalCluster cluster;
    private static HeadlessChromium browser;
    private static MonitorClient monitor;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        Optional<Path> chromium = HeadlessChromium.binary();
        assumeTrue(chromium.isPresent(),
                "SKIP: no Chromium binary (install Debian's chromium, or set SLUICE_CHROMIUM): the browser test cannot run");
        TpchData data = TpchData.generate(dir.resolve("tpch"), 0.01);
        session = Session.local(LocalCluster.Options.of(2).withHttpPort(0).withShufflePartitions(4));
        cluster = session.localCluster();
        StringBuilder ddl = new StringBuilder();
        for (Map.Entry<String, Path> table : data.tables().entrySet()) {
            ddl.append("CREATE EXTERNAL TABLE ").append(table.getKey()).append(" STORED AS PARQUET LOCATION '")
                    .append(table.getValue()).append("';\n");
        }
        session.sql(ddl.toString());
        Path bad = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(bad.resolve("part-0.csv"), "k,v\n1,10\n2,not-a-number\n");
        session.sql("CREATE EXTERNAL TABLE bad (k BIGINT, v BIGINT) STORED AS CSV LOCATION '" + bad + "'");
        base = "http://127.0.0.1:" + cluster.coordinator().httpPort();
        monitor = new MonitorClient(base, cluster.authSecret());
        browser = HeadlessChromium.start(chromium.get(), dir.resolve("chromium-profile"), 1400, 1000);
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(browser, session);
    }

    @Test
    void q9PagesShowTheStageDagAndTheTaskTable() throws Exception {
        String q9 = TpchQueries.text(9);
        long rows = session.sql(q9, "webui-q9").rows().size();
        assertThat(rows).as("Q9 has an answer").isPositive();
        String id = monitor.queryId("sum(amount) as sum_profit");
        JsonNode detail = monitor.finished(id);
        assertThat(detail.get("state").asText()).isEqualTo("FINISHED");
        JsonNode stages = detail.get("stages");
        assertThat(stages.size()).as("Q9 runs in several stages").isGreaterThan(2);

        // a browser without a session is sent to the login form; a wrong secret is refused there
        browser.navigate(base + "/ui/queries/" + id, PAGE_TIMEOUT);
        browser.await("location.pathname === '/login' && !!document.getElementById('secret')", PAGE_TIMEOUT);
        submitLogin(browser, "not the secret");
        assertThat(browser.await("document.getElementById('login-error') && document.getElementById('login-error').textContent",
                PAGE_TIMEOUT).asText()).isEqualTo("wrong secret for this cluster");
        submitLogin(browser, cluster.authSecret());

        // ... and the right one lands on the page asked for: Q9 with its DAG, one box per stage
        browser.await("location.pathname === '/ui/queries/" + id + "' && document.body.dataset.ready === 'query'",
                PAGE_TIMEOUT);
        assertThat(browser.evaluate("document.cookie").asText()).as("the session cookie is HttpOnly").isEmpty();
        assertThat(browser.evaluate("document.querySelectorAll('svg#dag g.stage').length").asInt())
                .isEqualTo(stages.size());
        List<Integer> operatorsPerStage = new ArrayList<>();
        int edges = 0;
        for (JsonNode stage : stages) {
            operatorsPerStage.add(stage.get("operators").size());
            edges += stage.get("parents").size();
        }
        assertThat(JSON.convertValue(browser.evaluate("Array.from(document.querySelectorAll('svg#dag g.stage'))"
                + ".sort((a, b) => a.dataset.stage - b.dataset.stage)"
                + ".map(g => g.querySelectorAll('text.operator').length)"), List.class)).isEqualTo(operatorsPerStage);
        assertThat(browser.evaluate("document.querySelectorAll('svg#dag g.exchange').length").asInt()).isEqualTo(edges);
        assertThat(browser.evaluate("document.querySelectorAll('svg#dag g.exchange text.rows').length").asInt())
                .isEqualTo(detail.get("exchanges").size());
        assertThat(browser.evaluate("document.getElementById('sql').textContent").asText())
                .isEqualTo(detail.get("sql").asText()).contains("sum(amount) as sum_profit");
        assertThat(browser.evaluate("document.getElementById('plan').textContent").asText())
                .isEqualTo(detail.get("plan").asText());
        assertThat(browser.evaluate("document.querySelectorAll('#stages tbody tr').length").asInt())
                .isEqualTo(stages.size());
        assertThat(browser.evaluate("!!document.getElementById('cancel')").asBoolean()).as("finished: no cancel").isFalse();
        browser.screenshot(SCREENSHOTS.resolve("q9-query.png"), true);

        // the stage with the most task attempts, opened through its box's link
        JsonNode widest = null;
        JsonNode widestTasks = null;
        for (JsonNode stage : stages) {
            JsonNode tasks = monitor.get("/api/v1/queries/" + id + "/stages/" + stage.get("id").asInt() + "/tasks");
            if (widestTasks == null || tasks.size() > widestTasks.size()) {
                widest = stage;
                widestTasks = tasks;
            }
        }
        int stageId = widest.get("id").asInt();
        String href = browser.evaluate("document.querySelector('svg#dag g.stage[data-stage=\"" + stageId + "\"] a')"
                + ".getAttribute('href')").asText();
        assertThat(href).isEqualTo("/ui/queries/" + id + "/stages/" + stageId);
        browser.navigate(base + href, PAGE_TIMEOUT);
        browser.await("document.body.dataset.ready === 'stage'", PAGE_TIMEOUT);
        assertThat(browser.evaluate("document.querySelectorAll('table#tasks tbody tr').length").asInt())
                .isEqualTo(widestTasks.size());
        assertThat(browser.evaluate("document.querySelectorAll('svg#timeline g.task').length").asInt())
                .isEqualTo(widestTasks.size());
        assertThat(JSON.convertValue(browser.evaluate("Array.from(document.querySelectorAll('table#summary tbody tr'))"
                + ".map(r => r.cells[0].textContent)"), List.class)).containsExactly("Duration", "Rows", "Bytes read",
                "Bytes written", "Shuffle fetch wait", "Spilled", "GC time");

        // sorting by rows, twice: ascending, then descending
        List<Long> taskRows = new ArrayList<>();
        widestTasks.forEach(t -> taskRows.add(t.get("rows").asLong()));
        taskRows.sort(null);
        assertThat(sortedColumn(browser, "rows", "ascending")).isEqualTo(taskRows);
        List<Long> descending = new ArrayList<>(taskRows);
        Collections.reverse(descending);
        assertThat(sortedColumn(browser, "rows", "descending")).isEqualTo(descending);
        browser.screenshot(SCREENSHOTS.resolve("q9-stage-" + stageId + ".png"), true);

        // the cluster page lists the workers and Q9 among the finished queries
        browser.navigate(base + "/ui/", PAGE_TIMEOUT);
        browser.await("document.body.dataset.ready === 'cluster'", PAGE_TIMEOUT);
        assertThat(browser.evaluate("document.querySelectorAll('table#workers tbody tr').length").asInt()).isEqualTo(2);
        assertThat(browser.evaluate("!!document.querySelector('table#finished a[href=\"/ui/queries/" + id + "\"]')")
                .asBoolean()).isTrue();
        browser.screenshot(SCREENSHOTS.resolve("cluster.png"), true);

        // a failed query shows its error, on its page and on its tasks'
        assertThatThrownBy(() -> session.sql("SELECT sum(v) AS s FROM bad", "webui-bad")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("not-a-number");
        String failedId = monitor.queryId("SELECT sum(v) AS s FROM bad");
        JsonNode failed = monitor.finished(failedId);
        assertThat(failed.get("state").asText()).isEqualTo("FAILED");
        browser.navigate(base + "/ui/queries/" + failedId, PAGE_TIMEOUT);
        browser.await("document.body.dataset.ready === 'query'", PAGE_TIMEOUT);
        assertThat(browser.evaluate("document.getElementById('query-error').textContent").asText())
                .isEqualTo(failed.get("error").asText()).contains("not-a-number");
        int failedStage = failed.get("stages").get(0).get("id").asInt();
        browser.navigate(base + "/ui/queries/" + failedId + "/stages/" + failedStage, PAGE_TIMEOUT);
        browser.await("document.body.dataset.ready === 'stage'", PAGE_TIMEOUT);
        assertThat(browser.evaluate("document.getElementById('task-errors').textContent").asText()).contains("not-a-number");
        browser.screenshot(SCREENSHOTS.resolve("failed-stage.png"), true);

        // logging out ends the session: the UI asks for the secret again
        browser.navigate(base + "/ui/", PAGE_TIMEOUT);
        browser.await("document.body.dataset.ready === 'cluster'", PAGE_TIMEOUT);
        browser.evaluate("document.getElementById('logout').submit(), true");
        browser.await("location.pathname === '/login' && !!document.getElementById('secret')", PAGE_TIMEOUT);
        browser.navigate(base + "/ui/queries/" + id, PAGE_TIMEOUT);
        browser.await("location.pathname === '/login'", PAGE_TIMEOUT);
    }

    @Test
    void withoutTheSecretTheApiIs401AndTheUiTheLoginPage() throws Exception {
        HttpResponse<String> api = monitor.anonymous("/api/v1/queries");
        assertThat(api.statusCode()).isEqualTo(401);
        assertThat(api.body()).doesNotContain("\"id\"");
        HttpResponse<String> page = monitor.anonymous("/ui/");
        assertThat(page.statusCode()).isEqualTo(303);
        assertThat(page.headers().firstValue("Location")).hasValue("/login?next=/ui/");
        HttpResponse<String> login = monitor.anonymous("/login?next=/ui/");
        assertThat(login.statusCode()).isEqualTo(200);
        assertThat(login.body()).contains("<form method=\"post\" action=\"/login\" id=\"login\">")
                .doesNotContain(cluster.authSecret());
    }

    /** Types {@code secret} into the login form shown and submits it. */
    static void submitLogin(HeadlessChromium browser, String secret) {
        browser.await("!!document.getElementById('secret')", PAGE_TIMEOUT);
        browser.evaluate("document.getElementById('secret').value = " + JSON.valueToTree(secret)
                + "; document.getElementById('login').submit(); true");
    }

    /** Clicks a task table header until it sorts as asked, and reads that column's numbers top to bottom. */
    static List<Long> sortedColumn(HeadlessChromium browser, String key, String order) {
        browser.evaluate("document.querySelector('table#tasks th[data-key=\"" + key + "\"]').click(), true");
        browser.await("document.querySelector('table#tasks th[data-key=\"" + key + "\"]').getAttribute('aria-sort') === '"
                + order + "'", PAGE_TIMEOUT);
        JsonNode cells = browser.evaluate("(() => { const t = document.querySelector('table#tasks');"
                + " const i = Array.from(t.tHead.rows[0].cells).findIndex(c => c.dataset.key === '" + key + "');"
                + " return Array.from(t.tBodies[0].rows).map(r => r.cells[i].textContent.replace(/,/g, '')); })()");
        List<Long> values = new ArrayList<>();
        cells.forEach(c -> values.add(Long.parseLong(c.asText())));
        return values;
    }
}
