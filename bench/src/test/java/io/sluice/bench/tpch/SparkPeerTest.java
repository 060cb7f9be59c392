package io.sluice.bench.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.tpch.Agreement;
import io.sluice.tpch.TpchData;
import io.sluice.tpch.TpchQueries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SparkPeerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void parsesAnAnswerLineIntoNormalizedValues() throws Exception {
        SparkPeer.Outcome outcome = SparkPeer.parse(JSON.readTree(
                "{\"query\":3,\"median_ms\":812.5,\"rows\":2,\"answer\":[[2456423,\"406181.0111\",\"1995-03-05\",null],[7,\"13\",\"x\",0]]}"));

        assertThat(outcome.query()).isEqualTo(3);
        assertThat(outcome.medianMs()).isEqualTo(812.5);
        assertThat(outcome.error()).isNull();
        assertThat(outcome.answer()).containsExactly(
                Arrays.asList(2456423L, "406181.0111", "1995-03-05", null),
                List.of(7L, "13", "x", 0L));
    }

    @Test
    void parsesAnErrorLine() throws Exception {
        SparkPeer.Outcome outcome = SparkPeer.parse(JSON.readTree("{\"query\":4,\"error\":\"[PARSE_SYNTAX_ERROR] near 'x'\"}"));

        assertThat(outcome).isEqualTo(SparkPeer.Outcome.failed(4, "[PARSE_SYNTAX_ERROR] near 'x'"));
    }

    @Test
    void rejectsALineWithoutAQueryNumber() throws Exception {
        assertThatThrownBy(() -> SparkPeer.parse(JSON.readTree("{\"median_ms\":1}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("without a query number");
    }

    @Test
    void aMissingRunnerNamesTheBuildCommand(@TempDir Path root) {
        assertThatThrownBy(() -> SparkPeer.locate(root))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("--spark needs the Spark runner built, and " + root.resolve("bench/spark-peer/target")
                        + " has none: run 'mvn -f bench/spark-peer/pom.xml -DskipTests package' in " + root);
    }

    /**
     * Runs only where bench/spark-peer was built (never in the normal build): Spark's answers are DuckDB's,
     * q1's averages up to decimal against double rounding.
     */
    @Test
    void sparkAnswersAsDuckDbDoesOnTheSameFiles(@TempDir Path directory) throws Exception {
        Path root = Path.of("").toAbsolutePath().getParent();
        assumeTrue(Files.isRegularFile(root.resolve("bench/spark-peer/target/spark-peer.jar")), "Spark runner not built");
        TpchData data = TpchData.generate(directory, 0.01);
        int[] queries = {1, 13, 22};

        Map<Integer, SparkPeer.Outcome> outcomes = SparkPeer.locate(root).run(data, queries, 1, 0, 120);

        try (DuckDbOracle duck = new DuckDbOracle()) {
            TpchBenchmark.prepareDuckDb(duck.connection(), data, 1);
            for (int query : queries) {
                SparkPeer.Outcome outcome = outcomes.get(query);
                assertThat(outcome.error()).as("q%d", query).isNull();
                assertThat(Agreement.of(outcome.answer(), duck.query(TpchQueries.forPeer(TpchQueries.text(query))),
                        TpchQueries.text(query))).as("q%d", query).isEqualTo(query == 1 ? "yes~" : "yes");
            }
        }
    }
}
