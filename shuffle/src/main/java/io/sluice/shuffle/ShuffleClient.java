package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.AttributeKey;
import io.sluice.common.settings.Settings;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Fetches shuffle segments from {@link ShuffleServer}s. One event loop group serves all fetches;
 * idle connections are pooled per server address and reused (a connection carries one request at
 * a time; at most 32 are kept per server; pooled connections idle longer than
 * {@link Options#maxPooledIdle()} are dropped). A
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
    public record Options(String secret, Duration timeout, int connectRetries, Duration retryBackoff,
            Duration maxPooledIdle, Duration connectTimeout) {
        public Options {
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
                    DEFAULT_CONNECT_TIMEOUT);
        }

        /** These options with the timeouts of {@code settings}. */
        public Options withTimeoutsFrom(Settings settings) {
            return new Options(secret, settings.get(ShuffleSettingsDeclaration.IO_TIMEOUT), connectRetries, retryBackoff,
                    maxPooledIdle, settings.get(ShuffleSettingsDeclaration.CONNECT_TIMEOUT));
        }

        public Options withSecret(String newSecret) {
            return new Options(newSecret, timeout, connectRetries, retryBackoff, maxPooledIdle, connectTimeout);
        }

        public Options withTimeout(Duration newTimeout) {
            return new Options(secret, newTimeout, connectRetries, retryBackoff, maxPooledIdle, connectTimeout);
        }

        public Options withConnectRetries(int retries) {
            return new Options(secret, timeout, retries, retryBackoff, maxPooledIdle, connectTimeout);
        }
    }

    private static final long MAX_BACKOFF_MILLIS = 2000;
    private static final AttributeKey<ResponseHandler> HANDLER = AttributeKey.valueOf("sluice.shuffle.response");
    /** The address a connection was opened to, as its pool is keyed (not as the socket reports it). */
    private static final AttributeKey<String> POOL_KEY = AttributeKey.valueOf("sluice.shuffle.pool");
    private static final int MAX_POOLED_PER_SERVER = 32;

    private final String requesterId;
    private final Options options;
    private final byte[] secret;
    private final long timeoutMillis;
    private final long connectTimeoutMillis;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final ConcurrentHashMap<String, ConcurrentLinkedDeque<Pooled>> idle = new ConcurrentHashMap<>();
    /** Every connection open or opening, pooled or in use, by server address: what {@link #serverLost} closes. */
    private final ConcurrentHashMap<String, Set<Channel>> open = new ConcurrentHashMap<>();
    /** Servers reported lost, by address: when ({@link System#nanoTime()}). */
    private final ConcurrentHashMap<String, Long> lost = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private record Pooled(Channel channel, long since) {
    }

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
        this.secret = options.secret() == null ? null : options.secret().getBytes(StandardCharsets.UTF_8);
        this.timeoutMillis = options.timeout().toMillis();
        this.connectTimeoutMillis = options.connectTimeout().toMillis();
        int threads = Math.min(4, Runtime.getRuntime().availableProcessors());
        this.group = new MultiThreadIoEventLoopGroup(threads, ShuffleTransport.ioHandlerFactory());
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(ShuffleTransport.channel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeoutMillis))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ResponseHandler handler = new ResponseHandler();
                        // Kept as an attribute too: a closed channel's pipeline no longer lists its handlers.
                        ch.attr(HANDLER).set(handler);
                        ch.pipeline().addLast(handler);
                    }
                });
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
                segment.close();
                segment = send(segment.block(), segment.jobId(), connect(segment.block()), false);
                header = segment.awaitHeader();
            }
            if (header.length() != expectedLength) {
                throw segment.block().failure("segment has " + header.length() + " bytes, the map status recorded "
                        + expectedLength + " (stale or corrupt map output)", null);
            }
            return new SegmentDecoder(new ChecksumChannel(segment, header.length(), header.crc()), header.rows(),
                    schema, allocator, segment.block());
        } catch (RuntimeException e) {
            segment.close();
            throw e;
        }
    }

    /** Sends the request for {@code block} and returns at once; bytes flow into the returned segment. */
    RemoteSegment request(BlockLocation block, String jobId) {
        requireNonNull(block, "block is null");
        requireNonNull(jobId, "jobId is null");
        if (closed) {
            throw new IllegalStateException("shuffle client " + requesterId + " is closed");
        }
        Channel channel = pollIdle(block.host(), block.port());
        return channel == null ? send(block, jobId, connect(block), false) : send(block, jobId, channel, true);
    }

    private RemoteSegment send(BlockLocation block, String jobId, Channel channel, boolean reused) {
        RemoteSegment segment = new RemoteSegment(block, jobId, channel, reused, timeoutMillis);
        channel.attr(HANDLER).get().begin(segment);
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
        String key = key(requireNonNull(host, "host is null"), port);
        long now = System.nanoTime();
        lost.values().removeIf(since -> now - since > LOST_SERVER_MEMORY.toNanos());
        lost.put(key, now);
        ConcurrentLinkedDeque<Pooled> pooled = idle.remove(key);
        if (pooled != null) {
            pooled.forEach(p -> p.channel().close());
        }
        Set<Channel> channels = open.get(key);
        if (channels != null) {
            IOException reason = new IOException("the connection was dropped: " + LOST_SERVER);
            // on each channel's event loop: the response in progress fails first, then the channel closes;
            // a channel closed meanwhile has no handler left to tell (the event would reach the pipeline's tail)
            for (Channel channel : channels) {
                try {
                    channel.eventLoop().execute(() -> {
                        if (channel.pipeline().get(ResponseHandler.class) != null) {
                            channel.pipeline().fireExceptionCaught(reason);
                        }
                    });
                } catch (java.util.concurrent.RejectedExecutionException closing) {
                    // this client is closing: its channels close with it, nobody waits on them
                }
            }
        }
    }

    /** A worker now serves {@code host:port} again (restarted in place): reads from it are no longer refused. */
    public void serverJoined(String host, int port) {
        lost.remove(key(requireNonNull(host, "host is null"), port));
    }

    private boolean isLost(String key) {
        Long since = key == null ? null : lost.get(key);
        return since != null && System.nanoTime() - since <= LOST_SERVER_MEMORY.toNanos();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Shutting down the group closes every channel, pooled or in use.
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly();
        idle.clear();
    }

    /** Connects and completes the handshake, retrying unreachable or busy servers with backoff. */
    private Channel connect(BlockLocation block) {
        long backoff = Math.max(1, options.retryBackoff().toMillis());
        String key = key(block.host(), block.port());
        for (int attempt = 0; ; attempt++) {
            if (isLost(key)) {
                throw block.serverLost(LOST_SERVER, null);
            }
            try {
                return connectOnce(block);
            } catch (TransientConnectFailure e) {
                if (isLost(key)) {
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

    private Channel connectOnce(BlockLocation block) {
        ChannelFuture future = bootstrap.connect(block.host(), block.port());
        track(key(block.host(), block.port()), future.channel());
        if (!future.awaitUninterruptibly(connectTimeoutMillis + 1000)) {
            future.cancel(false);
            future.channel().close();
            throw new TransientConnectFailure("connect timed out", null);
        }
        if (!future.isSuccess()) {
            throw new TransientConnectFailure("cannot connect: " + future.cause(), future.cause());
        }
        Channel channel = future.channel();
        channel.attr(POOL_KEY).set(key(block.host(), block.port()));
        try {
            channel.attr(HANDLER).get().ready.get(connectTimeoutMillis, TimeUnit.MILLISECONDS);
            return channel;
        } catch (TimeoutException e) {
            channel.close();
            throw new TransientConnectFailure("no handshake within " + connectTimeoutMillis + " ms", null);
        } catch (InterruptedException e) {
            channel.close();
            Thread.currentThread().interrupt();
            throw block.failure("interrupted while connecting", e);
        } catch (ExecutionException e) {
            channel.close();
            Throwable cause = e.getCause();
            if (cause instanceof RemoteError remote && remote.busy()) {
                throw new TransientConnectFailure("server error: " + remote.getMessage(), null);
            }
            if (cause instanceof RemoteError remote) {
                throw block.failure("server error: " + remote.getMessage(), null);
            }
            if (cause instanceof IOException) {
                throw new TransientConnectFailure("connection lost during the handshake: " + cause.getMessage(), cause);
            }
            throw block.failure(String.valueOf(cause.getMessage()), cause);
        }
    }

    /** Keeps {@code channel} among the open connections to {@code key} until it closes. */
    private void track(String key, Channel channel) {
        open.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(channel);
        channel.closeFuture().addListener(f -> {
            Set<Channel> channels = open.get(key);
            if (channels != null) {
                channels.remove(channel);
            }
        });
        if (isLost(key)) {
            channel.close(); // lost while connecting: serverLost may have missed this channel
        }
    }

    private Channel pollIdle(String host, int port) {
        if (isLost(key(host, port))) {
            return null; // connect() fails it
        }
        ConcurrentLinkedDeque<Pooled> channels = idle.get(key(host, port));
        if (channels == null) {
            return null;
        }
        long now = System.nanoTime();
        Pooled pooled;
        while ((pooled = channels.pollFirst()) != null) {
            if (pooled.channel().isActive() && now - pooled.since() < options.maxPooledIdle().toNanos()) {
                return pooled.channel();
            }
            pooled.channel().close();
        }
        return null;
    }

    private void release(Channel channel) {
        if (closed || !channel.isActive() || isLost(channel.attr(POOL_KEY).get())) {
            channel.close();
            return;
        }
        ConcurrentLinkedDeque<Pooled> pool = idle.computeIfAbsent(channel.attr(POOL_KEY).get(),
                k -> new ConcurrentLinkedDeque<>());
        if (pool.size() >= MAX_POOLED_PER_SERVER) {
            channel.close();
            return;
        }
        pool.addFirst(new Pooled(channel, System.nanoTime()));
        if (closed) {
            channel.close();
        }
    }

    private static String key(String host, int port) {
        return host + ":" + port;
    }

    /**
     * Parses what a server sends on one connection: the handshake, then per request an error or a
     * segment header followed by the segment's bytes, which are passed on as they arrive.
     */
    private final class ResponseHandler extends ChannelInboundHandlerAdapter {
        private final CompletableFuture<Void> ready = new CompletableFuture<>();
        private ByteBuf message;
        private volatile RemoteSegment current;
        private long remaining;
        private boolean inBody;
        private boolean authenticating;

        void begin(RemoteSegment segment) {
            if (current != null) {
                throw new IllegalStateException("a request is already outstanding on this connection");
            }
            current = segment;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            message = ctx.alloc().heapBuffer(64);
            super.channelActive(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                while (in.isReadable() && ctx.channel().isOpen() && message != null) {
                    if (inBody) {
                        int n = (int) Math.min(remaining, in.readableBytes());
                        ByteBuf chunk = in.readRetainedSlice(n);
                        remaining -= n;
                        if (remaining == 0) {
                            finishSegment(ctx, chunk);
                        } else {
                            current.onData(chunk);
                        }
                        continue;
                    }
                    int need = messageSize(ctx);
                    if (need < 0) {
                        return;
                    }
                    int copy = Math.min(need - message.readableBytes(), in.readableBytes());
                    message.writeBytes(in, copy);
                    if (message.readableBytes() == need && messageSize(ctx) == need) {
                        dispatch(ctx);
                        if (message != null) {
                            message.clear();
                        }
                    }
                }
            } finally {
                in.release();
            }
        }

        /** Bytes of the message being gathered, as far as known; -1 after a protocol error. */
        private int messageSize(ChannelHandlerContext ctx) {
            if (!message.isReadable()) {
                return 1;
            }
            byte type = message.getByte(0);
            switch (type) {
                case ShuffleProtocol.HELLO:
                    return ShuffleProtocol.HELLO_BYTES;
                case ShuffleProtocol.AUTH_OK:
                    return 1;
                case ShuffleProtocol.SEGMENT:
                    return ShuffleProtocol.SEGMENT_HEADER_BYTES;
                case ShuffleProtocol.ERROR:
                    if (message.readableBytes() < 5) {
                        return 5;
                    }
                    int length = message.getInt(1);
                    if (length >= 0 && length <= ShuffleProtocol.MAX_ERROR_MESSAGE) {
                        return 5 + length;
                    }
                    break;
                default:
                    break;
            }
            protocolError(ctx, "malformed message from the shuffle server (type " + type + ")");
            return -1;
        }

        private void dispatch(ChannelHandlerContext ctx) {
            byte type = message.readByte();
            if (type == ShuffleProtocol.HELLO) {
                boolean authRequired = message.readByte() != 0;
                byte[] nonce = new byte[ShuffleProtocol.NONCE_BYTES];
                message.readBytes(nonce);
                if (!authRequired) {
                    ready.complete(null);
                } else if (secret == null) {
                    ready.completeExceptionally(new RemoteError("the server requires authentication and this client "
                            + "has no secret (set SLUICE_AUTH_SECRET)"));
                    ctx.close();
                } else {
                    authenticating = true;
                    ctx.writeAndFlush(ShuffleProtocol.encodeAuth(ctx.alloc(), ShuffleProtocol.mac(secret, nonce)));
                }
            } else if (type == ShuffleProtocol.AUTH_OK && authenticating) {
                authenticating = false;
                ready.complete(null);
            } else if (type == ShuffleProtocol.ERROR) {
                int length = message.readInt();
                RemoteError error = new RemoteError(message.readCharSequence(length, StandardCharsets.UTF_8).toString());
                if (!ready.isDone()) {
                    ready.completeExceptionally(error);
                    ctx.close();
                } else if (current != null) {
                    // The server answered the request; the connection stays in sync and can be reused.
                    RemoteSegment segment = current;
                    current = null;
                    segment.detach();
                    release(ctx.channel());
                    segment.onAnswered(error);
                } else {
                    ctx.close();
                }
            } else if (type == ShuffleProtocol.SEGMENT && current != null && !inBody) {
                long length = message.readLong();
                long rows = message.readLong();
                int crc = message.readInt();
                current.onHeader(new RemoteSegment.Header(length, rows, crc));
                remaining = length;
                inBody = true;
                if (length == 0) {
                    finishSegment(ctx, null);
                }
            } else {
                protocolError(ctx, "unexpected message type " + type + " from the shuffle server");
            }
        }

        /**
         * Ends the current segment with its last chunk (null if it had none). The connection goes back
         * to the pool before the reader can see the end, so its next request can reuse it.
         */
        private void finishSegment(ChannelHandlerContext ctx, ByteBuf lastChunk) {
            RemoteSegment segment = current;
            current = null;
            inBody = false;
            segment.detach();
            ctx.channel().config().setAutoRead(true);
            release(ctx.channel());
            if (lastChunk != null) {
                segment.onData(lastChunk);
            }
            segment.onComplete();
        }

        private void protocolError(ChannelHandlerContext ctx, String reason) {
            IOException error = new IOException(reason);
            ready.completeExceptionally(error);
            if (current != null) {
                current.onFailure(error);
            }
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            IOException closedError = new IOException(inBody
                    ? "connection closed by the server with " + remaining + " bytes of the segment still to come"
                    : "connection closed by the server");
            ready.completeExceptionally(closedError);
            RemoteSegment segment = current;
            if (segment != null) {
                segment.onFailure(closedError);
            }
            if (message != null) {
                message.release();
                message = null;
            }
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            RemoteSegment segment = current;
            if (segment != null) {
                segment.onFailure(cause);
            }
            ready.completeExceptionally(cause);
            ctx.close();
        }
    }

    /** The server answered with an error message. */
    private static final class RemoteError extends Exception {
        private static final long serialVersionUID = 1L;

        RemoteError(String message) {
            super(message, null, false, false);
        }

        boolean busy() {
            return getMessage().contains(" is busy");
        }
    }

    /** Internal signal: connecting failed in a way worth retrying. */
    private static final class TransientConnectFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TransientConnectFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
