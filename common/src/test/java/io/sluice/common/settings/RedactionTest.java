package io.sluice.common.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactionTest {
    @Test
    void credentialsInNamesAndUrisAreNotShown() {
        assertThat(Redaction.values(Map.of("fs.s3a.secret.key", "abc", "delimiter", "|")))
                .containsEntry("fs.s3a.secret.key", Redaction.REDACTED).containsEntry("delimiter", "|");
        assertThat(Redaction.uris("s3a://AKIA:s3cr3t@bucket/t,hdfs://nn:8020/x")).isEqualTo(
                "s3a://" + Redaction.REDACTED + "@bucket/t,hdfs://nn:8020/x");
        assertThat(Redaction.uris("/data/a@b/t")).isEqualTo("/data/a@b/t");
    }
}
