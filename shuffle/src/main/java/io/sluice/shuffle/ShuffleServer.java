package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.sluice.common.net.UnprovenConnections;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the map outputs under one root directory over Netty (epoll or NIO, see
 * {@link ShuffleTransport}), see {@link ShuffleProtocol}; this class owns the lifecycle and each
 * connection is a {@link ShuffleConnection}. A requested segment is streamed zero-copy from the
 * data file with a {@link io.netty.channel.DefaultFileRegion} (sendfile where the OS has it), with
 * no size limit; index reads and file opens run on a separate executor, never on an event loop. A request for a block that does not
 * exist, for another job's block, or with an invalid shuffle id gets an error response naming the
 * block and this server's address; the connection stays usable. Bounds are in {@link Options}.
 *
 * <p>Lifecycle: construct, {@link #start()} (which first deletes shuffles an earlier process left
 * in the root, see {@link #removeStaleShuffles}), {@link #close()} (which shuts down both event loop
 * groups and waits for them). Thread-safe.
 */
public final class ShuffleServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShuffleServer.class);
    private static final Pattern SHUFFLE_FILE = Pattern.compile("map-[0-9]+\\.(data|index)|map-[0-9]+\\..*\\.tmp");

    private final String bindHost;
    private final int requestedPort;
    private final Path rootDirectory;
    private final Options options;
    private final byte[] secret;
    private final ChannelGroup connections = new DefaultChannelGroup("shuffle-connections", GlobalEventExecutor.INSTANCE);
    private final ShuffleServerCounters counters = new ShuffleServerCounters();
    private final UnprovenConnections unproven;

    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private ExecutorService files;
    private Channel serverChannel;
    private volatile int boundPort = -1;
    private boolean closed;

    /**
     * What a server holds for its clients: {@code secret} (null: no authentication) must be proven
     * by every connection before its first request, within {@code unauthenticated}'s deadline
     * (counted from the connection, not reset by the bytes it sends); connections not yet proven are
     * limited by {@code unauthenticated} alone ({@link UnprovenConnections}: the oldest is closed to
     * admit a new one), and do not count against {@code maxConnections}, the cap on proven
     * connections, beyond which a new one gets a "busy" error and is closed; a proven connection
     * idle for {@code idleTimeout} is closed; {@code ioThreads} threads read indexes and open files,
     * off the event loops.
     */
    public record Options(String secret, int maxConnections, Duration idleTimeout, int ioThreads,
            UnprovenConnections.Limits unauthenticated) {
        /** Limits on connections that have not proven the secret yet, unless configured otherwise. */
        public static final UnprovenConnections.Limits DEFAULT_UNAUTHENTICATED =
                ShuffleSettingsDeclaration.UNAUTHENTICATED.defaults();

        public Options {
            requireNonNull(idleTimeout, "idleTimeout is null");
            requireNonNull(unauthenticated, "unauthenticated is null");
            if (secret != null && secret.isEmpty()) {
                throw new IllegalArgumentException("secret is empty");
            }
            if (maxConnections < 1 || ioThreads < 1 || idleTimeout.isNegative() || idleTimeout.isZero()) {
                throw new IllegalArgumentException("bad shuffle server options: maxConnections=" + maxConnections
                        + " ioThreads=" + ioThreads + " idleTimeout=" + idleTimeout);
            }
        }

        public Options(String secret, int maxConnections, Duration idleTimeout, int ioThreads) {
            this(secret, maxConnections, idleTimeout, ioThreads, DEFAULT_UNAUTHENTICATED);
        }

        public static Options defaults() {
            return new Options(null, 1024, Duration.ofMinutes(2), 4);
        }

        /** The defaults, with the limits on unauthenticated connections the system properties set. */
        public static Options configured() {
            return defaults().withUnauthenticated(ShuffleSettingsDeclaration.UNAUTHENTICATED.configured());
        }

        public Options withSecret(String newSecret) {
            return new Options(newSecret, maxConnections, idleTimeout, ioThreads, unauthenticated);
        }

        public Options withUnauthenticated(UnprovenConnections.Limits limits) {
            return new Options(secret, maxConnections, idleTimeout, ioThreads, limits);
        }
    }

    /** {@code port} 0 binds an ephemeral port; {@link #port()} tells which after {@link #start()}. */
    public ShuffleServer(String bindHost, int port, Path rootDirectory) {
        this(bindHost, port, rootDirectory, Options.defaults());
    }

    public ShuffleServer(String bindHost, int port, Path rootDirectory, Options options) {
        this.options = requireNonNull(options, "options is null");
        this.secret = options.secret() == null ? null : options.secret().getBytes(StandardCharsets.UTF_8);
        this.unproven = new UnprovenConnections(options.unauthenticated());
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
                            ch.pipeline().addLast("connection", new ShuffleConnection(counters, unproven, options, secret,
                                    rootDirectory, files, ShuffleServer.this::address));
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
        return counters.blocksServed.sum();
    }

    /** A snapshot of successful responses per requester id. */
    public Map<String, Long> blocksServedTo() {
        Map<String, Long> out = new TreeMap<>();
        counters.blocksServedTo.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** Block bytes sent in successful responses (payload only, without framing). */
    public long bytesServed() {
        return counters.bytesServed.sum();
    }

    /** Connections open now that proved the secret (all connections, without one). */
    public int activeConnections() {
        return counters.activeConnections.get();
    }

    /** Responses being sent now; each holds at most one open data file. */
    public int responsesInFlight() {
        return counters.openFiles.get();
    }

    /** Connections open now that have not proven the secret yet. */
    public int unauthenticatedConnections() {
        return unproven.size();
    }

    /**
     * Unauthenticated connections closed: evicted to admit newer ones, or still unproven at the
     * deadline.
     */
    public long unauthenticatedClosed() {
        return unproven.evicted() + counters.authTimeouts.sum();
    }

    /** Proven connections refused because {@link Options#maxConnections()} were open. */
    public long rejectedBusy() {
        return counters.rejectedBusy.sum();
    }

    /** Connections closed for a missing or wrong secret. */
    public long authFailures() {
        return counters.authFailures.sum();
    }

    /** Connections accepted since start (clients pool connections, so this grows slowly when all is well). */
    public long connectionsAccepted() {
        return counters.connectionsAccepted.sum();
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
}
