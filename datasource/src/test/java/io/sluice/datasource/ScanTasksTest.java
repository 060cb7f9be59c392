package io.sluice.datasource;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.file.ScanPartition;
import io.sluice.datasource.file.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Small files share tasks, large row groups and scans of few partitions keep one task each. */
class ScanTasksTest {
    @Test
    void fiveThousandSmallFilesArePackedAndEveryFileIsInOneTask() {
        List<ScanPartition> files = files(5_000, 2_000, List.of());
        List<Integer> starts = ScanTasks.starts(files);
        // each file costs its 2,000 bytes and 4 MiB to open: 31 fit a 128 MiB task
        assertThat(starts).hasSize(162).startsWith(0, 31, 62);
        for (int i = 1; i < starts.size(); i++) {
            assertThat(starts.get(i)).isGreaterThan(starts.get(i - 1));
        }
        assertThat(starts.get(starts.size() - 1)).isLessThan(files.size());
    }

    @Test
    void fewPartitionsKeepOneTaskEach() {
        assertThat(ScanTasks.starts(files(64, 2_000, List.of()))).isEqualTo(IntStream.range(0, 64).boxed().toList());
        assertThat(ScanTasks.starts(List.of())).isEmpty();
    }

    @Test
    void budgetLeavesAtLeastSixtyFourTasks() {
        // 100 files of 1 MiB: 500 MiB counted with their open costs, so about 7.8 MiB a task, 1 file each
        assertThat(ScanTasks.starts(files(100, 1 << 20, List.of()))).hasSize(100);
        // 1,000 files of 100 KiB: about 4.1 MiB each, 64.1 MiB a task: 15 files a task
        assertThat(ScanTasks.starts(files(1_000, 100 << 10, List.of())).size()).isBetween(64, 70);
    }

    @Test
    void largeFilesUnknownSizesAndOtherHostsAreNotPacked() {
        List<ScanPartition> partitions = new ArrayList<>(files(100, 2_000, List.of()));
        partitions.set(10, new ScanPartition("file:/t/unknown.parquet", 0));
        partitions.set(20, partitions.get(20).withFile(new SourceFile("file:/t/big.parquet", 1L << 30, 1, List.of())));
        partitions.set(30, new ScanPartition("hdfs://nn/t/f30.parquet", 0, List.of(), List.of("dn1"))
                .withFile(new SourceFile("hdfs://nn/t/f30.parquet", 2_000, 1, List.of())));
        List<Integer> starts = ScanTasks.starts(partitions);
        assertThat(starts).contains(10, 11, 20, 21, 30, 31);
    }

    private static List<ScanPartition> files(int count, long length, List<String> hosts) {
        List<ScanPartition> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String path = "file:/t/f" + i + ".parquet";
            out.add(new ScanPartition(path, 0, List.of(), hosts).withFile(new SourceFile(path, length, 1, List.of())));
        }
        return out;
    }
}
