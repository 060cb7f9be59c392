package io.sluice.datasource.file;

import java.net.URI;
import java.util.Locale;
import java.util.function.IntToLongFunction;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * How far a task reads ahead ({@link SequentialStream.ReadAhead}) on the file system its files are
 * on. On a local disk a row group's chunks arrive in about the time it takes to ask, so two ahead
 * keep a task busy. Elsewhere (an object store, HDFS) each read is a request that waits on the
 * network and on the server, which serves several at once: a task keeps {@value #REMOTE_STREAMS} in
 * flight, so that a slow one does not stall it. Either way at most {@value #MAX_BYTES} bytes are
 * held ahead per task (heap buffers of parquet-hadoop): the count of requests grows, not the memory.
 */
public final class StoreReadAhead {
    static final int LOCAL_STREAMS = 2;
    static final int REMOTE_STREAMS = 4;
    public static final long MAX_BYTES = 32L << 20;

    private StoreReadAhead() {
    }

    /** Read-ahead for streams of files under {@code path}; {@code bytes} says what stream {@code i} holds once open. */
    public static SequentialStream.ReadAhead of(String path, IntToLongFunction bytes) {
        boolean local = isLocal(path, FileSystem.getDefaultUri(HadoopConfiguration.shared()));
        return new SequentialStream.ReadAhead(bytes, local ? LOCAL_STREAMS : REMOTE_STREAMS, MAX_BYTES);
    }

    /**
     * Whether {@code path} is on the node's own disk: {@code file:}, or no scheme while the default
     * file system ({@code fs.defaultFS}, a node setting) is local.
     */
    static boolean isLocal(String path, URI defaultFileSystem) {
        String scheme = new Path(path).toUri().getScheme();
        if (scheme == null) {
            scheme = defaultFileSystem.getScheme();
        }
        return scheme == null || scheme.toLowerCase(Locale.ROOT).equals("file");
    }
}
