package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planning within a budget on a real embedded cluster: a chain of 30 WITH queries each joined to
 * itself (a plan DAG whose paths double per level) plans, prints and runs within seconds and gives
 * DuckDB's answer, every walk visiting a shared node once; when the joins are partitioned, each
 * level reads the one below twice within one stage, and the stage cutter refuses it as too complex
 * within seconds rather than run 2^30 operators per task; a string concatenated with itself level after level is not folded
 * into a literal past the folding cap on the coordinator, and still answers right; the session
 * settings that bound planning refuse values out of range, naming the range. After each refusal
 * the cluster answers the next query right.
 */
class PlanningLimitsTest {
    @TempDir
    static Path data;
    static DuckDbOracle duck;
    static Session session;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        session = Session.local(LocalCluster.Options.of(2));
        ClusterTesting.createKeyedCsvTable(duck, session, data);
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }

    /** {@code levels} WITH queries, each joining the one before to itself; the last one's rows. */
    private static String selfJoinChain(int levels) {
        StringBuilder sql = new StringBuilder("WITH c0 AS (SELECT k, count(*) AS n FROM t GROUP BY k)");
        for (int i = 1; i <= levels; i++) {
            sql.append(", c").append(i).append(" AS (SELECT a.k, a.n + b.n AS n FROM c").append(i - 1)
                    .append(" a JOIN c").append(i - 1).append(" b ON a.k = b.k)");
        }
        return sql.append(" SELECT k, n FROM c").append(levels).append(" ORDER BY k").toString();
    }

    @Test
    void aLongChainOfSelfJoinedWithQueriesPlansAndRunsWithinSeconds() throws Exception {
        long start = System.nanoTime();
        String explain = session.sql("EXPLAIN " + selfJoinChain(30)).collect().rows().stream()
                .map(r -> (String) r.get(0)).collect(Collectors.joining("\n"));
        Duration planning = Duration.ofNanos(System.nanoTime() - start);
        assertThat(explain).contains("== Physical Plan ==").contains("(shared: printed above)");
        assertThat(explain.length()).as("EXPLAIN text length").isLessThan(1 << 20);
        assertThat(planning).as("planning and printing (the first query of a busy JVM)").isLessThan(Duration.ofSeconds(30));
        start = System.nanoTime();
        assertAnswersRight(selfJoinChain(30));
        Duration running = Duration.ofNanos(System.nanoTime() - start);
        System.out.println("self-joined chain of 30: planned in " + planning.toMillis() + " ms, ran in "
                + running.toMillis() + " ms (31 stages)");
        assertThat(running).as("31 stages of a few rows").isLessThan(Duration.ofSeconds(60));
    }

    @Test
    void aChainReadTwiceWithinOneStageIsRefusedWithinSeconds() throws Exception {
        long start = System.nanoTime();
        assertThatThrownBy(() -> session.sql("SET sluice.join.broadcast-threshold = -1; " + selfJoinChain(30)).collect())
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("query too complex: the tasks of stage")
                .hasMessageContaining("would run more than 50000 operators");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
        assertAnswersRight("SET sluice.join.broadcast-threshold = -1; " + selfJoinChain(3));
    }

    @Test
    void aStringDoubledPerLevelIsNotFoldedPastTheCap() throws Exception {
        StringBuilder sql = new StringBuilder("WITH s0 AS (SELECT 'ab' AS s)");
        int levels = 22;
        for (int i = 1; i <= levels; i++) {
            sql.append(", s").append(i).append(" AS (SELECT s || s AS s FROM s").append(i - 1).append(')');
        }
        String query = sql.append(" SELECT length(s) AS n FROM s").append(levels).toString();
        String explain = session.sql("EXPLAIN " + query).collect().rows().stream()
                .map(r -> (String) r.get(0)).collect(Collectors.joining("\n"));
        assertThat(explain.length()).as("EXPLAIN text length").isLessThan(1 << 20);
        assertThat(DuckDbOracle.normalize(session.sql(query).collect())).isEqualTo(duck.query(query));
    }

    @Test
    void planningSettingsOutOfRangeAreRefusedNamingTheRange() throws Exception {
        String query = "SELECT count(*) AS c FROM t";
        assertThatThrownBy(() -> session.sql("SET sluice.optimizer.timeout = 1h; " + query).collect())
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("sluice.optimizer.timeout must be between 100ms and 10m, not 1h");
        assertThatThrownBy(() -> session.sql("SET sluice.shuffle.partitions = 2147483647; " + query).collect())
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("sluice.shuffle.partitions must be between 0 and 10000");
        assertThatThrownBy(() -> session.sql("SET sluice.optimizer.max-passes = 100000; " + query).collect())
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("sluice.optimizer.max-passes must be between 1 and 1000");
        assertAnswersRight("SET sluice.optimizer.timeout = 10s; " + query);
    }

    private static void assertAnswersRight(String sql) throws Exception {
        String query = sql.substring(sql.lastIndexOf("; ") + 1).strip();
        assertThat(DuckDbOracle.normalize(session.sql(sql).collect())).isEqualTo(duck.query(query));
    }
}
