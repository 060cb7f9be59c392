package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the shuffle blocks under one root directory over Netty (NIO transport), see
 * {@link ShuffleProtocol}. Blocks are sent zero-copy with {@link DefaultFileRegion}. A request
 * for a block that does not exist, or with an invalid shuffle id, gets an error response naming the
 * block and this server's address; the connection stays usable.
 *
 * <p>Lifecycle: construct, {@link #start()}, {@link #close()} (which shuts down both event loop
 * groups and waits for them). Thread-safe.
 */
public final class ShuffleServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShuffleServer.class);

    private final String bindHost;
    private final int requestedPort;
    private final Path rootDirectory;
    private final LongAdder blocksServed = new LongAdder();
    private final LongAdder bytesServed = new LongAdder();
    private final LongAdder connectionsAccepted = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> blocksServedTo = new ConcurrentHashMap<>();

    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private Channel serverChannel;
    private volatile int boundPort = -1;
    private boolean closed;

    /** {@code port} 0 binds an ephemeral port; {@link #port()} tells which after {@link #start()}. */
    public ShuffleServer(String bindHost, int port, Path rootDirectory) {
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
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create shuffle root " + rootDirectory, e);
        }
        bossGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        workerGroup = new MultiThreadIoEventLoopGroup(0, NioIoHandler.newFactory());
        try {
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(bossGroup, workerGroup)
                    .channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            connectionsAccepted.increment();
                            ch.pipeline().addLast(
                                    new LengthFieldBasedFrameDecoder(ShuffleProtocol.MAX_REQUEST_FRAME, 0,
                                            ShuffleProtocol.LENGTH_FIELD, 0, ShuffleProtocol.LENGTH_FIELD),
                                    new RequestHandler());
                        }
                    });
            serverChannel = bootstrap.bind(bindHost, requestedPort).syncUninterruptibly().channel();
            boundPort = ((InetSocketAddress) serverChannel.localAddress()).getPort();
            LOG.debug("shuffle server serving {} on {}", rootDirectory, address());
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
        if (bossGroup != null) {
            bossGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        }
        if (workerGroup != null) {
            workerGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        }
        if (bossGroup != null) {
            bossGroup.terminationFuture().awaitUninterruptibly();
        }
        if (workerGroup != null) {
            workerGroup.terminationFuture().awaitUninterruptibly();
        }
    }

    private String address() {
        return bindHost + ":" + (boundPort < 0 ? requestedPort : boundPort);
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

    /** Answers one request per frame, in order. One instance per connection. */
    private final class RequestHandler extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            ShuffleProtocol.Request request;
            try {
                request = ShuffleProtocol.decodeRequest(frame);
            } catch (IllegalArgumentException e) {
                // The stream may be out of sync: answer, then close.
                ctx.writeAndFlush(ShuffleProtocol.errorResponse(ctx.alloc(),
                        "bad request to shuffle server " + address() + ": " + e.getMessage()))
                        .addListener(ChannelFutureListener.CLOSE);
                return;
            }
            serve(ctx, request);
        }

        private void serve(ChannelHandlerContext ctx, ShuffleProtocol.Request request) {
            String block = ShuffleBlocks.describe(request.shuffleId(), request.map(), request.partition());
            if (!ShuffleBlocks.isValidShuffleId(request.shuffleId()) || request.map() < 0 || request.partition() < 0) {
                sendError(ctx, "invalid block " + block + " requested from shuffle server " + address());
                return;
            }
            Path file = ShuffleBlocks.blockFile(rootDirectory, request.shuffleId(), request.map(), request.partition());
            FileChannel channel;
            long size;
            try {
                channel = FileChannel.open(file, StandardOpenOption.READ);
            } catch (NoSuchFileException e) {
                sendError(ctx, "no block " + block + " on shuffle server " + address());
                return;
            } catch (IOException e) {
                sendError(ctx, "cannot open block " + block + " on shuffle server " + address() + ": " + e);
                return;
            }
            try {
                size = channel.size();
                ByteBuf header = ShuffleProtocol.responseHeader(ctx.alloc(), ShuffleProtocol.STATUS_OK, size);
                // Counted before the write completes, so a client that has its bytes sees the counters.
                blocksServed.increment();
                bytesServed.add(size);
                blocksServedTo.computeIfAbsent(request.requesterId(), k -> new LongAdder()).increment();
                ctx.write(header);
            } catch (IOException | RuntimeException e) {
                closeQuietly(channel);
                sendError(ctx, "cannot read block " + block + " on shuffle server " + address() + ": " + e);
                return;
            }
            // The region owns the file channel from here and closes it when released.
            ctx.writeAndFlush(new DefaultFileRegion(channel, 0, size)).addListener((ChannelFutureListener) f -> {
                if (!f.isSuccess()) {
                    LOG.warn("sending {} to {} failed", block, f.channel().remoteAddress(), f.cause());
                    f.channel().close();
                }
            });
        }

        private void sendError(ChannelHandlerContext ctx, String message) {
            LOG.debug("{}", message);
            ctx.writeAndFlush(ShuffleProtocol.errorResponse(ctx.alloc(), message));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("shuffle connection from {} failed", ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // Nothing to do: the response already reports the failure.
        }
    }
}
