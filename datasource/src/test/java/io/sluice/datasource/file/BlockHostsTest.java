package io.sluice.datasource.file;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class BlockHostsTest {
    /** Two 100-byte blocks, each on two of three DataNodes. */
    private static final BlockHosts TWO_BLOCKS = new BlockHosts(new Path("hdfs://nn:8020/t/f.parquet"),
            new BlockLocation[] {
                new BlockLocation(new String[] {"10.0.0.1:9866", "10.0.0.2:9866"}, new String[] {"dn1", "dn2"}, 0, 100),
                new BlockLocation(new String[] {"10.0.0.2:9866", "10.0.0.3:9866"}, new String[] {"dn2", "dn3"}, 100, 100),
            });

    @Test
    void hostsHoldingMoreOfTheRangeComeFirstByNameAndAddress() {
        // bytes 90..190: 10 in the first block, 90 in the second
        assertThat(TWO_BLOCKS.hosts(90, 100)).containsExactly("dn2", "10.0.0.2", "dn3", "10.0.0.3", "dn1", "10.0.0.1");
        assertThat(TWO_BLOCKS.hosts(0, 50)).containsExactly("dn1", "dn2", "10.0.0.1", "10.0.0.2");
    }

    @Test
    void aRangeOutsideTheBlocksHasNoHosts() {
        assertThat(TWO_BLOCKS.hosts(200, 10)).isEmpty();
    }

    /** Local files (and object stores) are not asked: a file that does not even exist has no hosts. */
    @Test
    void filesOutsideHdfsHaveNoHostsWithoutAsking() {
        assertThat(BlockHosts.of(new Path("file:///no/such/dir/f.parquet")).hosts()).isEmpty();
        assertThat(BlockHosts.of(new Path("/no/such/dir/f.parquet")).hosts(0, 10)).isEmpty();
    }
}
