package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.sluice.common.settings.Settings;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches shuffle segments from {@link ShuffleServer}s, over connections from its
 * {@link ShuffleConnectionPool} (one event loop group for all fetches, idle connections pooled per
 * server address and reused), each answer parsed by a {@link ShuffleResponseHandler}. A
 * segment's bytes are handed to the reader as they arrive ({@link RemoteSegment}), never gathered
 * into one array. Never call the blocking methods on a Netty event loop.
 *
 * <p>Connecting is retried with exponential backoff ({@link Options#connectRetries()} times) when
 * the server is unreachable or busy; a refused handshake (wrong or missing secret) is not retried.
 * Every failure is a {@link ShuffleFetchException} naming the server and the block. Thread-safe.
 *
 * <p>A server whose worker is known to have left the cluster ({@link #serverLost}) is given up at
 * once: reads waiting on it fail, and new ones fail without connecting, for
 * {@link #LOST_SERVER_MEMORY} or until a worker serves that address again ({@link #serverJoined}). A killed machine or container never closes its connections, so
 * without this its readers would wait out the I/O timeout, and connections to its address the
 * connect timeout of every retry.
 */
public final class ShuffleClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShuffleClient.class);

    /**
     * The wait for an answer and for more bytes of one. A server that is alive answers within
     * milliseconds and streams without pause; one whose worker died mid-answer sends nothing more,
     * and its reader is a lost fetch after this long (the scheduler then recomputes its outputs).
     */
    public static final Duration DEFAULT_TIMEOUT = ShuffleSettingsDeclaration.IO_TIMEOUT.defaultValue();
    /**
     * Connecting and the handshake. A worker that is gone refuses at once on a live host, but a
     * host that is gone drops the packets: then the connect fails after this long (per try).
     */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = ShuffleSettingsDeclaration.CONNECT_TIMEOUT.defaultValue();
    /**
     * How long a server reported lost is refused without connecting: readers that still hold its
     * address (tasks started before the loss) fail over at once, and a worker started later on the
     * same address is reached again after this.
     */
    public static final Duration LOST_SERVER_MEMORY = Duration.ofMinutes(1);
    static final String LOST_SERVER = "its worker left the cluster";

    /**
     * {@code secret} (null: none) answers servers' challenges; {@code connectTimeout} bounds
     * connecting and the handshake; {@code timeout} the wait for an answer and each wait for more
     * bytes.
     */
    /**
     * @param spoolDirectory where a fetched segment longer than {@link ChecksumChannel#IN_MEMORY_BYTES}
     *     is written while its checksum is checked, before it is decoded (a worker's local directory)
     */
    public record Options(String secret, Duration timeout, int connectRetries, Duration retryBackoff,
            Duration maxPooledIdle, Duration connectTimeout, Path spoolDirectory) {
        public Options {
            requireNonNull(spoolDirectory, "spoolDirectory is null");
            requireNonNull(timeout, "timeout is null");
            requireNonNull(connectTimeout, "connectTimeout is null");
            if (connectTimeout.isNegative() || connectTimeout.isZero()) {
                throw new IllegalArgumentException("connect timeout must be positive: " + connectTimeout);
            }
            requireNonNull(retryBackoff, "retryBackoff is null");
            requireNonNull(maxPooledIdle, "maxPooledIdle is null");
            if (secret != null && secret.isEmpty()) {
                throw new IllegalArgumentException("secret is empty");
            }
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive: " + timeout);
            }
            if (connectRetries < 0 || retryBackoff.isNegative()) {
                throw new IllegalArgumentException("bad retries " + connectRetries + " or backoff " + retryBackoff);
            }
        }

        public static Options defaults() {
            return new Options(null, DEFAULT_TIMEOUT, 3, Duration.ofMillis(100), Duration.ofSeconds(30),
                    DEFAULT_CONNECT_TIMEOUT, Path.of(System.getProperty("java.io.tmpdir"), "sluice-fetch-spool"));
        }

        /** These options with the timeouts of {@code settings}. */
        public Options withTimeoutsFrom(Settings settings) {
            return new Options(secret, settings.get(ShuffleSettingsDeclaration.IO_TIMEOUT), connectRetries, retryBackoff,
                    maxPooledIdle, settings.get(ShuffleSettingsDeclaration.CONNECT_TIMEOUT), spoolDirectory);
        }

        public Options withSecret(String newSecret) {
            return new Options(newSecret, timeout, connectRetries, retryBackoff, maxPooledIdle, connectTimeout, spoolDirectory);
        }

        public Options withTimeout(Duration newTimeout) {
            return new Options(secret, newTimeout, connectRetries, retryBackoff, maxPooledIdle, connectTimeout, spoolDirectory);
        }

        public Options withConnectRetries(int retries) {
            return new Options(secret, timeout, retries, retryBackoff, maxPooledIdle, connectTimeout, spoolDirectory);
        }

        public Options withSpoolDirectory(Path directory) {
            return new Options(secret, timeout, connectRetries, retryBackoff, maxPooledIdle, connectTimeout, directory);
        }
    }

    private static final long MAX_BACKOFF_MILLIS = 2000;

    private final String requesterId;
    private final Options options;
    private final long timeoutMillis;
    private final ShuffleConnectionPool connections;

    /** {@code requesterId} identifies this worker to servers (their per-requester counters). */
    public ShuffleClient(String requesterId) {
        this(requesterId, Options.defaults());
    }

    public ShuffleClient(String requesterId, Duration timeout) {
        this(requesterId, Options.defaults().withTimeout(timeout));
    }

    public ShuffleClient(String requesterId, Options options) {
        this.requesterId = requireNonNull(requesterId, "requesterId is null");
        if (requesterId.isEmpty()) {
            throw new IllegalArgumentException("requesterId is empty");
        }
        this.options = requireNonNull(options, "options is null");
        this.timeoutMillis = options.timeout().toMillis();
        this.connections = new ShuffleConnectionPool(options,
                options.secret() == null ? null : options.secret().getBytes(StandardCharsets.UTF_8));
    }

    public String requesterId() {
        return requesterId;
    }

    /**
     * Reads block ({@code shuffleId}, {@code map}, {@code partition}) of job {@code jobId} from the
     * server at {@code host:port} into batches from {@code allocator} (the caller closes them),
     * checking its length against {@code expectedLength} and its checksum.
     */
    public List<Batch> fetchBatches(String host, int port, String jobId, String shuffleId, int map, int partition,
            long expectedLength, BufferAllocator allocator) {
        BlockLocation block = new BlockLocation(host, port, shuffleId, map, partition);
        List<Batch> out = new ArrayList<>();
        try (SegmentDecoder decoder = open(block, jobId, expectedLength, null, allocator)) {
            Batch batch;
            while ((batch = decoder.next()) != null) {
                out.add(batch);
            }
            return out;
        } catch (RuntimeException e) {
            out.forEach(Batch::close);
            throw e;
        }
    }

    /** Requests a block and waits for the server's header; the decoder streams the rest. */
    SegmentDecoder open(BlockLocation block, String jobId, long expectedLength, Schema schema, BufferAllocator allocator) {
        RemoteSegment segment = request(block, jobId);
        return decode(segment, expectedLength, schema, allocator);
    }

    /** A decoder over a requested segment; waits for its header. Closes the segment if that fails. */
    SegmentDecoder decode(RemoteSegment requested, long expectedLength, Schema schema, BufferAllocator allocator) {
        RemoteSegment segment = requested;
        try {
            RemoteSegment.Header header;
            try {
                header = segment.awaitHeader();
            } catch (ShuffleFetchException e) {
                if (!segment.staleConnection()) {
                    throw e;
                }
                // a pooled connection the server had closed while idle: the request goes again on a new one
                LOG.debug("the pooled connection for {} was stale; requesting it again", segment.block(), e);
                segment.close();
                segment = send(segment.block(), segment.jobId(), connect(segment.block()), false);
                header = segment.awaitHeader();
            }
            if (header.length() != expectedLength) {
                throw segment.block().failure("segment has " + header.length() + " bytes, the map status recorded "
                        + expectedLength + " (stale or corrupt map output)", null);
            }
            return new SegmentDecoder(ChecksumChannel.ofStream(segment, header.length(), header.crc(), options.spoolDirectory()),
                    header.rows(), schema, allocator, segment.block());
        } catch (RuntimeException e) {
            segment.close();
            throw e;
        }
    }

    /** Sends the request for {@code block} and returns at once; bytes flow into the returned segment. */
    RemoteSegment request(BlockLocation block, String jobId) {
        requireNonNull(block, "block is null");
        requireNonNull(jobId, "jobId is null");
        if (connections.isClosed()) {
            throw new IllegalStateException("shuffle client " + requesterId + " is closed");
        }
        Channel channel = connections.pollIdle(block.host(), block.port());
        return channel == null ? send(block, jobId, connect(block), false) : send(block, jobId, channel, true);
    }

    private RemoteSegment send(BlockLocation block, String jobId, Channel channel, boolean reused) {
        RemoteSegment segment = new RemoteSegment(block, jobId, channel, reused, timeoutMillis);
        ShuffleResponseHandler.of(channel).begin(segment);
        ShuffleProtocol.Request request = new ShuffleProtocol.Request(requesterId, jobId, block.shuffleId(), block.map(),
                block.partition());
        channel.writeAndFlush(ShuffleProtocol.encodeRequest(channel.alloc(), request))
                .addListener((ChannelFutureListener) f -> {
                    if (!f.isSuccess()) {
                        segment.onFailure(new IOException("sending the request failed: " + f.cause(), f.cause()));
                        f.channel().close();
                    }
                });
        return segment;
    }

    /**
     * The worker serving {@code host:port} left the cluster: reads from it now waiting fail as a
     * lost server, pooled connections to it close, and for {@link #LOST_SERVER_MEMORY} new reads
     * from it fail without connecting.
     */
    public void serverLost(String host, int port) {
        connections.serverLost(host, port);
    }

    /** A worker now serves {@code host:port} again (restarted in place): reads from it are no longer refused. */
    public void serverJoined(String host, int port) {
        connections.serverJoined(host, port);
    }

    @Override
    public void close() {
        connections.close();
    }

    /** Connects and completes the handshake, retrying unreachable or busy servers with backoff. */
    private Channel connect(BlockLocation block) {
        long backoff = Math.max(1, options.retryBackoff().toMillis());
        String key = ShuffleConnectionPool.key(block.host(), block.port());
        for (int attempt = 0; ; attempt++) {
            if (connections.isLost(key)) {
                throw block.serverLost(LOST_SERVER, null);
            }
            try {
                return connections.connectOnce(block);
            } catch (ShuffleConnectionPool.TransientConnectFailure e) {
                if (connections.isLost(key)) {
                    throw block.serverLost(LOST_SERVER, null);
                }
                if (attempt >= options.connectRetries()) {
                    throw block.serverLost(e.getMessage() + (attempt > 0 ? " (after " + (attempt + 1) + " attempts)" : ""),
                            e.getCause());
                }
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw block.failure("interrupted while retrying to connect", e);
            }
            backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
        }
    }
}
