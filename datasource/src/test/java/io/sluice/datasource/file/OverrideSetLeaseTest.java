package io.sluice.datasource.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.FileScanExec;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.operators.TaskContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan reading through a session override set's file system while that set is evicted (more
 * than {@value HadoopConfiguration#OVERLAYS_KEPT} other sets used meanwhile): the file system stays
 * open until the scan's stream is closed, so every row is read; then it is closed. The file system
 * is one whose streams fail once it is closed, as HDFS's and S3A's do.
 */
class OverrideSetLeaseTest {
    private static final String IMPL = HadoopConfiguration.PREFIX + "fs." + CloseAwareFileSystem.SCHEME + ".impl";
    private static final int ROWS = 200_000;

    @TempDir
    static Path dir;
    private static Path csv;

    @BeforeAll
    static void writeFile() throws Exception {
        System.setProperty(IMPL, CloseAwareFileSystem.class.getName()); // a node setting, as --conf would set it
        StringBuilder text = new StringBuilder("x\n");
        for (int i = 0; i < ROWS; i++) {
            text.append(i).append('\n');
        }
        csv = Files.writeString(dir.resolve("t.csv"), text, StandardCharsets.UTF_8);
    }

    @AfterAll
    static void clear() {
        System.clearProperty(IMPL);
    }

    @Test
    void anEvictedSetsFileSystemStaysOpenUntilTheScanReadingItIsClosed() {
        String location = CloseAwareFileSystem.SCHEME + "://" + csv.toAbsolutePath();
        Schema schema = Schema.of(new Field("x", DataType.INT64));
        TableSource source = new TableSource("t", FileFormat.CSV, location, schema);
        Map<String, String> session = Map.of("sluice.test.lease", "held");
        FileScanExec scan = HadoopConfiguration.withOverrides(session, () -> new FileScanExec(source, List.of("x"),
                List.of(new ScanPartition(location, -1)), List.of(), schema, new FileScanExec.ListedFiles(1, 0)));
        assertThat(scan.hadoop()).isEqualTo(session);
        int closedBefore = CloseAwareFileSystem.closedCount();

        long rows = 0;
        long sum = 0;
        try (BufferAllocator allocator = new RootAllocator();
                BatchStream stream = scan.execute(0, new TaskContext("t", allocator, 1024, Map.of()))) {
            try (Batch first = stream.next()) {
                rows += first.rowCount();
                sum += sum(first);
            }
            for (int i = 0; i <= HadoopConfiguration.OVERLAYS_KEPT; i++) {
                Map<String, String> other = Map.of("sluice.test.lease", "other-" + i);
                HadoopConfiguration.withOverrides(other, HadoopConfiguration::shared);
            }
            assertThat(CloseAwareFileSystem.closedCount()).as("closed while the scan reads").isEqualTo(closedBefore);
            while (true) {
                Batch batch = stream.next();
                if (batch == null) {
                    break;
                }
                try (batch) {
                    rows += batch.rowCount();
                    sum += sum(batch);
                }
            }
        }
        assertThat(rows).isEqualTo(ROWS);
        assertThat(sum).isEqualTo((long) ROWS * (ROWS - 1) / 2);
        assertThat(CloseAwareFileSystem.closedCount()).as("closed once the scan let go").isEqualTo(closedBefore + 1);
    }

    private static long sum(Batch batch) {
        long[] x = batch.column(0).requireLongs("test sum");
        long sum = 0;
        for (int i = 0; i < batch.rowCount(); i++) {
            sum += x[i];
        }
        return sum;
    }
}
