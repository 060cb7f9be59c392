package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.Path;

/**
 * Where a file's bytes live: its blocks' hosts, asked once per file from the file system
 * ({@code FileSystem.getFileBlockLocations}), so that each scan partition can name the hosts of the
 * byte range it reads. Only file systems that keep blocks on nodes are asked (HDFS): the others
 * (local files, object stores) answer a made-up {@code localhost}, and asking would cost a call
 * per file for nothing, so their files have no hosts.
 */
public final class BlockHosts {
    /** Schemes whose blocks live on cluster nodes a worker may share. */
    private static final Set<String> LOCAL_BLOCK_SCHEMES = Set.of("hdfs");

    private final Path file;
    private final BlockLocation[] blocks;

    BlockHosts(Path file, BlockLocation[] blocks) {
        this.file = requireNonNull(file, "file is null");
        this.blocks = requireNonNull(blocks, "blocks is null");
    }

    /** The blocks of {@code file}; none for a file system without node-local blocks. */
    public static BlockHosts of(Path file) {
        String scheme = file.toUri().getScheme();
        if (scheme == null || !LOCAL_BLOCK_SCHEMES.contains(scheme.toLowerCase(Locale.ROOT))) {
            return new BlockHosts(file, new BlockLocation[0]);
        }
        try {
            return new BlockHosts(file, SourceFiles.fileSystem(file).getFileBlockLocations(file, 0, Long.MAX_VALUE));
        } catch (IOException e) {
            throw new SluiceException("cannot read the block locations of " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The hosts (names and addresses) of the blocks overlapping {@code [offset, offset + length)},
     * those holding more of the range first; empty when unknown.
     */
    public List<String> hosts(long offset, long length) {
        if (blocks.length == 0) {
            return List.of();
        }
        long end = length == Long.MAX_VALUE ? Long.MAX_VALUE : offset + length;
        Map<String, Long> bytes = new LinkedHashMap<>();
        for (BlockLocation block : blocks) {
            long overlap = Math.min(end, block.getOffset() + block.getLength()) - Math.max(offset, block.getOffset());
            if (overlap <= 0) {
                continue;
            }
            try {
                for (String host : block.getHosts()) {
                    bytes.merge(host, overlap, Long::sum);
                }
                for (String name : block.getNames()) {
                    // host:port of the DataNode: its address, for workers that joined by address
                    int colon = name.lastIndexOf(':');
                    bytes.merge(colon < 0 ? name : name.substring(0, colon), overlap, Long::sum);
                }
            } catch (IOException e) {
                throw new SluiceException("cannot read the block hosts of " + file + ": " + e.getMessage(), e);
            }
        }
        List<Map.Entry<String, Long>> ranked = new ArrayList<>(bytes.entrySet());
        ranked.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        return ranked.stream().map(Map.Entry::getKey).toList();
    }

    /** The hosts of the whole file. */
    public List<String> hosts() {
        return hosts(0, Long.MAX_VALUE);
    }
}
