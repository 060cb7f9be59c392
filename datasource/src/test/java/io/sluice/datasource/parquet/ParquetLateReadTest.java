package io.sluice.datasource.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.Schema;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.SourceTestSupport;
import io.sluice.datasource.file.FormatReader;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.source.FileFormat;
import io.sluice.operators.filter.PredicateRowFilter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A late read ({@link LateRows}) whose test keeps most rows, on a file DuckDB wrote (nullable
 * columns, several row groups, dictionary and PLAIN pages): the scan keeps dropping the few rejected
 * rows past its sample, so the filter above has nothing to copy, and the rows are DuckDB's answer.
 */
class ParquetLateReadTest {
    private static final int ROWS = 100_000;

    @TempDir
    Path dir;
    private SourceTestSupport support;
    private final FormatReader reader = FileFormats.reader(FileFormat.PARQUET);

    @BeforeEach
    void setUp() throws Exception {
        support = new SourceTestSupport();
    }

    @AfterEach
    void tearDown() throws Exception {
        support.close();
    }

    @Test
    void aTestKeepingMostRowsStillDropsTheOthersPastItsSample() throws Exception {
        String file = dir.resolve("duck.parquet").toString();
        support.execute("COPY (SELECT i AS id, CAST(i * 0.25 AS DECIMAL(15, 2)) AS price, "
                + "CASE WHEN i % 7 = 0 THEN NULL ELSE 'flag-' || (i % 3) END AS flag, "
                + "'comment ' || (i * 7919 % 100003) AS comment FROM range(" + ROWS + ") t(i)) TO '" + file
                + "' (FORMAT parquet, ROW_GROUP_SIZE 40000)");
        Schema schema = reader.inferSchema(file);
        // 2% of the rows rejected, spread over every batch, as TPC-H Q1's ship date test does
        Expr kept = new Binary(BinaryOp.NOT_EQ, new Binary(BinaryOp.MODULO, new Column("id"), Literal.of(50L)),
                Literal.of(7L));
        List<List<Object>> actual = support.readAll(reader, file, schema, schema.names(), 8192, Map.of(),
                new PredicateRowFilter(kept));
        List<List<Object>> expected = support.query("SELECT * FROM read_parquet('" + file + "') WHERE id % 50 <> 7 ORDER BY id");
        assertThat(expected).hasSize(ROWS - ROWS / 50);
        assertThat(actual).hasSize(expected.size());
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void aStringTestKeepingMostRowsIsLeftToTheFilterAbovePastItsSample() throws Exception {
        String file = dir.resolve("strings.parquet").toString();
        support.execute("COPY (SELECT i AS id, 'comment ' || (i % 50) AS comment FROM range(" + ROWS + ") t(i)) TO '"
                + file + "' (FORMAT parquet, ROW_GROUP_SIZE " + ROWS + ")");
        Schema schema = reader.inferSchema(file);
        // 2% rejected, as with numbers above, but testing strings twice costs more than the copy it saves
        Expr kept = new Binary(BinaryOp.NOT_EQ, new Column("comment"), Literal.of("comment 7"));
        List<List<Object>> actual = support.readAll(reader, file, schema, schema.names(), 8192, Map.of(),
                new PredicateRowFilter(kept));
        int sampled = 2 * 8192; // the batches of the sample, read late: only their rejected rows dropped
        long rejectedInSample = java.util.stream.IntStream.range(0, sampled).filter(i -> i % 50 == 7).count();
        assertThat(actual).hasSize(ROWS - (int) rejectedInSample);
    }

    @Test
    void aTestPassingEveryRowOfItsSampleIsLeftToTheFilterAbove() throws Exception {
        String file = dir.resolve("all.parquet").toString();
        support.execute("COPY (SELECT i AS id, 'v' || i AS s FROM range(" + ROWS + ") t(i)) TO '" + file
                + "' (FORMAT parquet, ROW_GROUP_SIZE " + ROWS + ")");
        Schema schema = reader.inferSchema(file);
        // every row of the sample passes: the scan stops testing, so the one late row comes through
        Expr kept = new Binary(BinaryOp.LT, new Column("id"), Literal.of((long) ROWS - 1));
        List<List<Object>> actual = support.readAll(reader, file, schema, schema.names(), 8192, Map.of(),
                new PredicateRowFilter(kept));
        assertThat(actual).hasSize(ROWS);
    }
}
