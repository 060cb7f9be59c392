package io.sluice.datasource.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class StoreReadAheadTest {
    @Test
    void objectStoresAndHdfsKeepMoreReadsInFlightThanLocalDisks() {
        for (String remote : new String[] {"s3a://bucket/t/part-0.parquet", "S3A://bucket/t/f", "hdfs://nn:8020/t/f.parquet",
                "gs://b/f", "abfss://c@account.dfs.core.windows.net/f"}) {
            SequentialStream.ReadAhead readAhead = StoreReadAhead.of(remote, i -> 1);
            assertThat(readAhead.streams()).as(remote).isEqualTo(StoreReadAhead.REMOTE_STREAMS).isGreaterThan(StoreReadAhead.LOCAL_STREAMS);
            assertThat(readAhead.maxBytes()).as(remote).isEqualTo(StoreReadAhead.MAX_BYTES);
        }
        for (String local : new String[] {"/data/t/part-0.parquet", "file:/data/t/f", "file:///data/t/f", "relative/f.parquet"}) {
            SequentialStream.ReadAhead readAhead = StoreReadAhead.of(local, i -> 1);
            assertThat(readAhead.streams()).as(local).isEqualTo(StoreReadAhead.LOCAL_STREAMS);
            assertThat(readAhead.maxBytes()).as(local).isEqualTo(StoreReadAhead.MAX_BYTES);
        }
    }

    @Test
    void aPathWithoutSchemeIsOnTheDefaultFileSystem() {
        assertThat(StoreReadAhead.isLocal("/data/t/f.parquet", URI.create("file:///"))).isTrue();
        assertThat(StoreReadAhead.isLocal("relative/f.parquet", URI.create("file:///"))).isTrue();
        assertThat(StoreReadAhead.isLocal("/data/t/f.parquet", URI.create("hdfs://nn:8020"))).isFalse();
        assertThat(StoreReadAhead.isLocal("file:/data/t/f.parquet", URI.create("hdfs://nn:8020"))).isTrue();
        assertThat(StoreReadAhead.isLocal("s3a://bucket/f", URI.create("file:///"))).isFalse();
    }
}
