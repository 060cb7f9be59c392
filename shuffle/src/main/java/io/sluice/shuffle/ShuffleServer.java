package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the map outputs under one root directory over Netty (epoll or NIO, see
 * {@link ShuffleTransport}), see
 * {@link ShuffleProtocol}. A requested segment is streamed zero-copy from the data file with a
 * {@link DefaultFileRegion} (sendfile where the OS has it), with no size limit; index reads and file
 * opens run on a separate executor, never on an event loop. A request for a block that does not
 * exist, for another job's block, or with an invalid shuffle id gets an error response naming the
 * block and this server's address; the connection stays usable. Bounds are in {@link Options}.
 *
 * <p>Lifecycle: construct, {@link #start()} (which first deletes shuffles an earlier process left
 * in the root, see {@link #removeStaleShuffles}), {@link #close()} (which shuts down both event loop
 * groups and waits for them). Thread-safe.
 */
public final class ShuffleServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShuffleServer.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern SHUFFLE_FILE = Pattern.compile("map-[0-9]+\\.(data|index)|map-[0-9]+\\..*\\.tmp");

    private final String bindHost;
    private final int requestedPort;
    private final Path rootDirectory;
    private final Options options;
    private final byte[] secret;
    private final AtomicInteger activeConnections = new AtomicInteger();
    private final ChannelGroup connections = new DefaultChannelGroup("shuffle-connections", GlobalEventExecutor.INSTANCE);
    private final AtomicInteger openFiles = new AtomicInteger();
    private final LongAdder rejectedBusy = new LongAdder();
    private final LongAdder authFailures = new LongAdder();
    private final LongAdder blocksServed = new LongAdder();
    private final LongAdder bytesServed = new LongAdder();
    private final LongAdder connectionsAccepted = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> blocksServedTo = new ConcurrentHashMap<>();

    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private ExecutorService files;
    private Channel serverChannel;
    private volatile int boundPort = -1;
    private boolean closed;

    /**
     * What a server holds for its clients: {@code secret} (null: no authentication) must be proven
     * by every connection before its first request; beyond {@code maxConnections} open connections
     * a new one gets a "busy" error and is closed; a connection idle for {@code idleTimeout} is
     * closed; {@code ioThreads} threads read indexes and open files, off the event loops.
     */
    public record Options(String secret, int maxConnections, Duration idleTimeout, int ioThreads) {
        public Options {
            requireNonNull(idleTimeout, "idleTimeout is null");
            if (secret != null && secret.isEmpty()) {
                throw new IllegalArgumentException("secret is empty");
            }
            if (maxConnections < 1 || ioThreads < 1 || idleTimeout.isNegative() || idleTimeout.isZero()) {
                throw new IllegalArgumentException("bad shuffle server options: maxConnections=" + maxConnections
                        + " ioThreads=" + ioThreads + " idleTimeout=" + idleTimeout);
            }
        }

        public static Options defaults() {
            return new Options(null, 1024, Duration.ofMinutes(2), 4);
        }

        public Options withSecret(String newSecret) {
            return new Options(newSecret, maxConnections, idleTimeout, ioThreads);
        }
    }

    /** {@code port} 0 binds an ephemeral port; {@link #port()} tells which after {@link #start()}. */
    public ShuffleServer(String bindHost, int port, Path rootDirectory) {
        this(bindHost, port, rootDirectory, Options.defaults());
    }

    public ShuffleServer(String bindHost, int port, Path rootDirectory, Options options) {
        this.options = requireNonNull(options, "options is null");
        this.secret = options.secret() == null ? null : options.secret().getBytes(StandardCharsets.UTF_8);
        this.bindHost = requireNonNull(bindHost, "bindHost is null");
        this.rootDirectory = requireNonNull(rootDirectory, "rootDirectory is null").toAbsolutePath().normalize();
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("bad port " + port);
        }
        this.requestedPort = port;
    }

    /** Binds and starts serving; returns this. Failing to bind releases everything and throws. */
    public synchronized ShuffleServer start() {
        if (closed) {
            throw new IllegalStateException("shuffle server is closed");
        }
        if (serverChannel != null) {
            throw new IllegalStateException("shuffle server already started on " + address());
        }
        try {
            Files.createDirectories(rootDirectory);
            int stale = removeStaleShuffles(rootDirectory);
            if (stale > 0) {
                LOG.info("removed {} stale shuffles from an earlier run under {}", stale, rootDirectory);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare shuffle root " + rootDirectory + ": " + e, e);
        }
        bossGroup = new MultiThreadIoEventLoopGroup(1, ShuffleTransport.ioHandlerFactory());
        workerGroup = new MultiThreadIoEventLoopGroup(0, ShuffleTransport.ioHandlerFactory());
        AtomicInteger fileThreads = new AtomicInteger();
        files = Executors.newFixedThreadPool(options.ioThreads(), r -> {
            Thread t = new Thread(r, "shuffle-files-" + fileThreads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(bossGroup, workerGroup)
                    .channel(ShuffleTransport.serverChannel())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            long idleMillis = options.idleTimeout().toMillis();
                            ch.pipeline().addLast(new IdleStateHandler(true, 0, 0, idleMillis, TimeUnit.MILLISECONDS));
                            ch.pipeline().addLast("connection", new Connection());
                            connections.add(ch);
                        }
                    });
            serverChannel = bootstrap.bind(bindHost, requestedPort).syncUninterruptibly().channel();
            boundPort = ((InetSocketAddress) serverChannel.localAddress()).getPort();
            LOG.debug("shuffle server serving {} on {} ({})", rootDirectory, address(), ShuffleTransport.name());
            return this;
        } catch (RuntimeException e) {
            shutdownGroups();
            throw e;
        }
    }

    /** The bound port; only valid after {@link #start()}. */
    public int port() {
        int p = boundPort;
        if (p < 0) {
            throw new IllegalStateException("shuffle server not started");
        }
        return p;
    }

    public Path rootDirectory() {
        return rootDirectory;
    }

    /** Blocks for which a successful response was sent. */
    public long blocksServed() {
        return blocksServed.sum();
    }

    /** A snapshot of successful responses per requester id. */
    public Map<String, Long> blocksServedTo() {
        Map<String, Long> out = new TreeMap<>();
        blocksServedTo.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** Block bytes sent in successful responses (payload only, without framing). */
    public long bytesServed() {
        return bytesServed.sum();
    }

    /** Connections open now. */
    public int activeConnections() {
        return activeConnections.get();
    }

    /** Responses being sent now; each holds at most one open data file. */
    public int responsesInFlight() {
        return openFiles.get();
    }

    /** Connections refused because {@link Options#maxConnections()} were open. */
    public long rejectedBusy() {
        return rejectedBusy.sum();
    }

    /** Connections closed for a missing or wrong secret. */
    public long authFailures() {
        return authFailures.sum();
    }

    /** Connections accepted since start (clients pool connections, so this grows slowly when all is well). */
    public long connectionsAccepted() {
        return connectionsAccepted.sum();
    }

    /** Deletes every block of one shuffle; a shuffle without blocks here is not an error. */
    public void removeShuffle(String shuffleId) {
        Path dir = ShuffleBlocks.shuffleDirectory(rootDirectory, shuffleId);
        try {
            deleteRecursively(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove shuffle " + shuffleId + " at " + dir, e);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly();
        }
        shutdownGroups();
    }

    private void shutdownGroups() {
        connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        for (EventLoopGroup group : new EventLoopGroup[] {bossGroup, workerGroup}) {
            if (group != null) {
                group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            }
        }
        for (EventLoopGroup group : new EventLoopGroup[] {bossGroup, workerGroup}) {
            if (group != null) {
                group.terminationFuture().awaitUninterruptibly();
            }
        }
        if (files != null) {
            files.shutdownNow();
        }
    }

    private String address() {
        return bindHost + ":" + (boundPort < 0 ? requestedPort : boundPort);
    }

    /**
     * Deletes what an earlier process left under {@code root}: directories named like shuffles
     * that hold nothing but map output files ({@code map-<m>.data}, {@code map-<m>.index}) and
     * temporary files. Anything else is left alone. Returns how many were removed.
     */
    static int removeStaleShuffles(Path root) throws IOException {
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path dir : entries) {
                if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                        && ShuffleBlocks.isValidShuffleId(dir.getFileName().toString()) && onlyShuffleFiles(dir)) {
                    deleteRecursively(dir);
                    removed++;
                }
            }
        }
        return removed;
    }

    private static boolean onlyShuffleFiles(Path dir) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                        || !SHUFFLE_FILE.matcher(file.getFileName().toString()).matches()) {
                    return false;
                }
            }
        }
        return true;
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** A response to send: a header or error, and the segment's bytes if any. */
    private record Response(ByteBuf header, DefaultFileRegion body) {
        void release() {
            header.release();
            if (body != null) {
                body.release();
            }
        }
    }

    /**
     * One connection: handshake, then one request at a time. Runs on its event loop, except that
     * index reads and file opens go to {@link #files}. While a response is being prepared or sent, auto-read is off
     * and unread frames wait in {@code pending}, so a pipelining client gets nothing more out of the
     * server than one open file and a bounded buffer.
     */
    private final class Connection extends ChannelInboundHandlerAdapter {
        private ByteBuf pending;
        private byte[] nonce;
        private boolean authenticated;
        private boolean busy;
        private boolean counted;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            connectionsAccepted.increment();
            counted = true;
            int active = activeConnections.incrementAndGet();
            if (active > options.maxConnections()) {
                rejectedBusy.increment();
                ctx.writeAndFlush(ShuffleProtocol.error(ctx.alloc(), "shuffle server " + address() + " is busy: "
                        + options.maxConnections() + " connections open; retry later"))
                        .addListener(ChannelFutureListener.CLOSE);
                return;
            }
            authenticated = secret == null;
            nonce = new byte[ShuffleProtocol.NONCE_BYTES];
            if (secret != null) {
                RANDOM.nextBytes(nonce);
            }
            pending = ctx.alloc().buffer();
            ctx.writeAndFlush(ShuffleProtocol.hello(ctx.alloc(), secret != null, nonce));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (counted) {
                counted = false;
                activeConnections.decrementAndGet();
            }
            if (pending != null) {
                pending.release();
                pending = null;
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                if (pending == null) {
                    return;
                }
                pending.writeBytes(in);
            } finally {
                in.release();
            }
            processFrames(ctx);
        }

        private void processFrames(ChannelHandlerContext ctx) {
            while (!busy && pending != null && pending.readableBytes() >= ShuffleProtocol.LENGTH_FIELD) {
                int length = pending.getInt(pending.readerIndex());
                if (length < 1 || length > ShuffleProtocol.MAX_REQUEST_FRAME) {
                    refuse(ctx, "bad request to shuffle server " + address() + ": frame of " + length + " bytes");
                    return;
                }
                if (pending.readableBytes() < ShuffleProtocol.LENGTH_FIELD + length) {
                    break;
                }
                pending.skipBytes(ShuffleProtocol.LENGTH_FIELD);
                ByteBuf frame = pending.readSlice(length);
                handleFrame(ctx, frame);
            }
            if (pending != null) {
                pending.discardReadBytes();
            }
            ctx.channel().config().setAutoRead(!busy);
        }

        private void handleFrame(ChannelHandlerContext ctx, ByteBuf frame) {
            byte type = frame.readByte();
            if (type == ShuffleProtocol.AUTH) {
                byte[] mac = new byte[Math.min(frame.readableBytes(), ShuffleProtocol.MAC_BYTES)];
                frame.readBytes(mac);
                if (secret == null || !ShuffleProtocol.macMatches(secret, nonce, mac)) {
                    authFailures.increment();
                    refuse(ctx, "authentication to shuffle server " + address() + " failed: wrong secret");
                    return;
                }
                authenticated = true;
                ctx.writeAndFlush(ShuffleProtocol.authOk(ctx.alloc()));
                return;
            }
            if (type != ShuffleProtocol.FETCH) {
                refuse(ctx, "bad request to shuffle server " + address() + ": unknown message type " + type);
                return;
            }
            if (!authenticated) {
                authFailures.increment();
                refuse(ctx, "shuffle server " + address() + " requires authentication (SLUICE_AUTH_SECRET)");
                return;
            }
            ShuffleProtocol.Request request;
            try {
                request = ShuffleProtocol.decodeRequest(frame);
            } catch (IllegalArgumentException e) {
                refuse(ctx, "bad request to shuffle server " + address() + ": " + e.getMessage());
                return;
            }
            serve(ctx, request);
        }

        private void serve(ChannelHandlerContext ctx, ShuffleProtocol.Request request) {
            String block = ShuffleBlocks.describe(request.shuffleId(), request.map(), request.partition());
            if (!ShuffleBlocks.isValidShuffleId(request.shuffleId()) || request.map() < 0 || request.partition() < 0) {
                respond(ctx, ShuffleProtocol.error(ctx.alloc(), "invalid block " + block + " requested from shuffle server "
                        + address()), null);
                return;
            }
            if (request.jobId().isEmpty() || !request.shuffleId().startsWith(request.jobId() + "-")) {
                respond(ctx, ShuffleProtocol.error(ctx.alloc(), "block " + block + " does not belong to job '"
                        + request.jobId() + "' (shuffle server " + address() + ")"), null);
                return;
            }
            busy = true;
            try {
                files.execute(() -> {
                    Response response = open(ctx, request, block);
                    try {
                        ctx.executor().execute(() -> respond(ctx, response.header(), response.body()));
                    } catch (RejectedExecutionException e) {
                        response.release();
                    }
                });
            } catch (RejectedExecutionException e) {
                ctx.close();
            }
        }

        /** Reads the index entry and opens the data file: blocking work, on the file executor. */
        private Response open(ChannelHandlerContext ctx, ShuffleProtocol.Request request, String block) {
            SegmentIndex.Segment segment;
            FileChannel data = null;
            try {
                segment = SegmentIndex.read(ShuffleBlocks.indexFile(rootDirectory, request.shuffleId(), request.map()),
                        request.partition());
                if (segment.length() > 0) {
                    data = FileChannel.open(ShuffleBlocks.dataFile(rootDirectory, request.shuffleId(), request.map()),
                            StandardOpenOption.READ);
                    if (data.size() < segment.offset() + segment.length()) {
                        throw new IOException("data file has " + data.size() + " bytes, the index needs "
                                + (segment.offset() + segment.length()));
                    }
                }
            } catch (NoSuchFileException e) {
                closeQuietly(data);
                return new Response(ShuffleProtocol.error(ctx.alloc(), "no block " + block + " on shuffle server "
                        + address()), null);
            } catch (IOException | RuntimeException e) {
                closeQuietly(data);
                return new Response(ShuffleProtocol.error(ctx.alloc(), "cannot read block " + block
                        + " on shuffle server " + address() + ": " + e.getMessage()), null);
            }
            blocksServed.increment();
            bytesServed.add(segment.length());
            blocksServedTo.computeIfAbsent(request.requesterId(), k -> new LongAdder()).increment();
            // The region owns the file channel from here and closes it when released.
            return new Response(ShuffleProtocol.segmentHeader(ctx.alloc(), segment),
                    data == null ? null : new DefaultFileRegion(data, segment.offset(), segment.length()));
        }

        /** Sends one response; reading resumes once it is flushed. */
        private void respond(ChannelHandlerContext ctx, ByteBuf header, DefaultFileRegion body) {
            busy = true;
            openFiles.incrementAndGet();
            ChannelFuture done;
            if (body == null) {
                done = ctx.writeAndFlush(header);
            } else {
                ctx.write(header);
                done = ctx.writeAndFlush(body);
            }
            // Runs on the event loop, like every other method of this handler.
            done.addListener((ChannelFutureListener) f -> {
                openFiles.decrementAndGet();
                if (!f.isSuccess()) {
                    LOG.debug("sending a response to {} failed", f.channel().remoteAddress(), f.cause());
                    f.channel().close();
                    return;
                }
                busy = false;
                processFrames(ctx);
            });
        }

        private void refuse(ChannelHandlerContext ctx, String message) {
            LOG.debug("{}", message);
            busy = true;
            ctx.writeAndFlush(ShuffleProtocol.error(ctx.alloc(), message)).addListener(ChannelFutureListener.CLOSE);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event instanceof IdleStateEvent) {
                LOG.debug("closing idle shuffle connection from {}", ctx.channel().remoteAddress());
                ctx.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("shuffle connection from {} failed", ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // Nothing to do: the response already reports the failure.
        }
    }
}
