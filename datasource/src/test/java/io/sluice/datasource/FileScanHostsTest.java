package io.sluice.datasource;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.filter.FilterExec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A scan's partitions name their hosts to the scheduler, through the operators above them in the stage. */
class FileScanHostsTest {
    private static final TableSource SOURCE = new TableSource("t", FileFormat.PARQUET, "hdfs://nn:8020/t",
            Schema.of(new Field("x", DataType.INT64)));

    @Test
    void eachPartitionAnswersItsOwnHostsAlsoBelowAFilter() {
        FileScanExec scan = new FileScanExec(SOURCE, List.of("x"), List.of(
                new ScanPartition("hdfs://nn:8020/t/a.parquet", 0, List.of(), List.of("dn1", "dn2")),
                new ScanPartition("hdfs://nn:8020/t/a.parquet", 1, List.of(), List.of("dn3"))), List.of(),
                new FileScanExec.ListedFiles(1, 0));
        ExecutionPlan filtered = new FilterExec(scan, Literal.of(true));
        assertThat(filtered.preferredHosts(0)).containsExactly("dn1", "dn2");
        assertThat(filtered.preferredHosts(1)).containsExactly("dn3");
    }

    @Test
    void partitionsWithoutHostsAndEmptyScansPreferNone() {
        assertThat(new FileScanExec(SOURCE, List.of("x"), List.of(new ScanPartition("file:/t/a.parquet", 0)), List.of(),
                new FileScanExec.ListedFiles(1, 0))
                .preferredHosts(0)).isEmpty();
        assertThat(new FileScanExec(SOURCE, List.of("x"), List.of(), List.of(), new FileScanExec.ListedFiles(0, 0))
                .preferredHosts(0)).isEmpty();
    }
}
