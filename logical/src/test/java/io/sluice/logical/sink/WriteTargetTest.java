package io.sluice.logical.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.logical.source.FileFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WriteTargetTest {
    @Test
    void aWritersHadoopOptionsStayWithTheTargetAndArePrintedByKeyOnly() {
        Map<String, String> hadoop = Map.of("fs.s3a.endpoint", "http://127.0.0.1:9000", "fs.s3a.secret.key", "s3cr3t-value");
        WriteTarget target = WriteTarget.of("s3a://lake/out", FileFormat.PARQUET, SaveMode.OVERWRITE).withHadoop(hadoop)
                .withPartitionBy(List.of("region")).withLocation("s3a://lake/out2");
        assertThat(target.hadoop()).isEqualTo(hadoop);
        assertThat(target.partitionBy()).containsExactly("region");
        assertThat(target.toString()).contains("s3a://lake/out2", "fs.s3a.endpoint", "fs.s3a.secret.key")
                .doesNotContain("s3cr3t-value").doesNotContain("127.0.0.1:9000");
        assertThat(WriteTarget.of("/tmp/x", FileFormat.CSV, SaveMode.APPEND).hadoop()).isEmpty();
    }
}
