package io.sluice.bench.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class TpchReportTest {
    @Test
    void aSpilledColumnAppearsWhenAnyQuerySpilledWithTheTotals() {
        String report = print(result(1, 2_000, 500, 3L << 20), result(2, 1_000, 500, 0));

        List<String> lines = report.lines().toList();
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("query").contains(" spilled ").contains("duckdb_ms"));
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("q1 ").contains(" 3.0MiB ").contains("4.00x"));
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("q2 ").contains(" 0B ").contains("2.00x"));
        assertThat(report).contains("total 3.0 s / 1.0 s = 3.00x");
        assertThat(report).contains("spilled: bytes written to spill files per run, 3.0 MiB in all");
        assertThat(report).contains("peak RSS of this JVM while Sluice ran: 2048 MB");
    }

    @Test
    void noSpilledColumnWhenNothingSpilled() {
        String report = print(result(1, 2_000, 500, 0), result(2, 1_000, 500, -1));

        assertThat(report).doesNotContain("spilled");
        assertThat(report).contains("total 3.0 s / 1.0 s = 3.00x");
    }

    private static TpchResult result(int query, double sluiceMs, double duckdbMs, long spilled) {
        TpchResult result = new TpchResult(query);
        result.sluiceMedianMs = sluiceMs;
        result.rows = 1;
        result.duckdbMedianMs = duckdbMs;
        result.agreement = "yes";
        result.spilledBytes = spilled;
        result.peakTaskMemory = 1 << 20;
        return result;
    }

    private static String print(TpchResult... results) {
        TpchOptions options = TpchOptions.parse(new String[] {"--compare"});
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream previous = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            TpchReport.print(options, Path.of("data"), List.of(results), 2048 * 1024);
        } finally {
            System.setOut(previous);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
