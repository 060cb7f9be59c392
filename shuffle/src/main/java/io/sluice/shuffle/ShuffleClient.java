package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Fetches shuffle blocks from {@link ShuffleServer}s. One event loop group serves all fetches;
 * idle connections are pooled per server address and reused (a connection carries one request at
 * a time). Fetches block the calling thread, so never call {@link #fetch} on a Netty event loop.
 *
 * <p>Every failure (unreachable server, timeout, closed connection, an error answered by the
 * server) is a {@link ShuffleFetchException} naming the server address and the block. Thread-safe.
 */
public final class ShuffleClient implements AutoCloseable {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final String requesterId;
    private final long timeoutMillis;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final ConcurrentHashMap<String, ConcurrentLinkedDeque<Channel>> idle = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** {@code requesterId} identifies this worker to servers (their per-requester counters). */
    public ShuffleClient(String requesterId) {
        this(requesterId, DEFAULT_TIMEOUT);
    }

    /** {@code timeout} bounds connecting and, separately, waiting for each response. */
    public ShuffleClient(String requesterId, Duration timeout) {
        this.requesterId = requireNonNull(requesterId, "requesterId is null");
        if (requesterId.isEmpty()) {
            throw new IllegalArgumentException("requesterId is empty");
        }
        requireNonNull(timeout, "timeout is null");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        this.timeoutMillis = timeout.toMillis();
        int threads = Math.min(4, Runtime.getRuntime().availableProcessors());
        this.group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeoutMillis))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(
                                new LengthFieldBasedFrameDecoder(ShuffleProtocol.MAX_RESPONSE_FRAME, 0,
                                        ShuffleProtocol.LENGTH_FIELD, 0, ShuffleProtocol.LENGTH_FIELD),
                                new LengthFieldPrepender(ShuffleProtocol.LENGTH_FIELD),
                                new ResponseHandler());
                    }
                });
    }

    public String requesterId() {
        return requesterId;
    }

    /**
     * The bytes of block ({@code shuffleId}, {@code map}, {@code partition}) held by the server at
     * {@code host:port}. Blocks until the whole block has arrived or the timeout passes.
     */
    public byte[] fetch(String host, int port, String shuffleId, int map, int partition) {
        requireNonNull(host, "host is null");
        requireNonNull(shuffleId, "shuffleId is null");
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("bad port " + port);
        }
        if (map < 0 || partition < 0) {
            throw new IllegalArgumentException("negative map " + map + " or partition " + partition);
        }
        if (closed) {
            throw new IllegalStateException("shuffle client " + requesterId + " is closed");
        }
        ShuffleProtocol.Request request = new ShuffleProtocol.Request(requesterId, shuffleId, map, partition);
        Channel pooled = pollIdle(host, port);
        if (pooled != null) {
            try {
                return exchange(pooled, host, port, request);
            } catch (StaleConnection e) {
                // The server closed the idle connection before our request: retry once on a fresh one.
            }
        }
        Channel fresh = connect(host, port, request);
        try {
            return exchange(fresh, host, port, request);
        } catch (StaleConnection e) {
            throw failure(request, host, port, String.valueOf(e.getCause().getMessage()), e.getCause());
        }
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

    private byte[] exchange(Channel channel, String host, int port, ShuffleProtocol.Request request) {
        ResponseHandler handler = channel.pipeline().get(ResponseHandler.class);
        CompletableFuture<byte[]> response = handler.expect();
        channel.writeAndFlush(ShuffleProtocol.encodeRequest(channel.alloc(), request))
                .addListener((ChannelFutureListener) f -> {
                    if (!f.isSuccess()) {
                        handler.fail(new ConnectionClosed("sending the request failed", f.cause()));
                    }
                });
        try {
            byte[] bytes = response.get(timeoutMillis, TimeUnit.MILLISECONDS);
            release(channel, host, port);
            return bytes;
        } catch (TimeoutException e) {
            channel.close();
            throw failure(request, host, port, "no response within " + timeoutMillis + " ms", null);
        } catch (InterruptedException e) {
            channel.close();
            Thread.currentThread().interrupt();
            throw failure(request, host, port, "interrupted while waiting", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RemoteError remote) {
                // The server answered; the connection is still in sync and can be reused.
                release(channel, host, port);
                throw failure(request, host, port, "server error: " + remote.getMessage(), null);
            }
            channel.close();
            if (cause instanceof IOException) {
                throw new StaleConnection(cause);
            }
            throw failure(request, host, port, String.valueOf(cause.getMessage()), cause);
        }
    }

    private Channel connect(String host, int port, ShuffleProtocol.Request request) {
        ChannelFuture future = bootstrap.connect(host, port);
        if (!future.awaitUninterruptibly(timeoutMillis + 1000)) {
            future.cancel(false);
            future.channel().close();
            throw failure(request, host, port, "connect timed out", null);
        }
        if (!future.isSuccess()) {
            throw failure(request, host, port, "cannot connect: " + future.cause(), future.cause());
        }
        return future.channel();
    }

    private Channel pollIdle(String host, int port) {
        ConcurrentLinkedDeque<Channel> channels = idle.get(key(host, port));
        if (channels == null) {
            return null;
        }
        Channel channel;
        while ((channel = channels.pollFirst()) != null) {
            if (channel.isActive()) {
                return channel;
            }
        }
        return null;
    }

    private void release(Channel channel, String host, int port) {
        if (closed || !channel.isActive()) {
            channel.close();
            return;
        }
        idle.computeIfAbsent(key(host, port), k -> new ConcurrentLinkedDeque<>()).addFirst(channel);
        if (closed) {
            channel.close();
        }
    }

    private static String key(String host, int port) {
        return host + ":" + port;
    }

    private static ShuffleFetchException failure(ShuffleProtocol.Request request, String host, int port, String reason,
            Throwable cause) {
        return new ShuffleFetchException(host, port, request.shuffleId(), request.map(), request.partition(), reason,
                cause);
    }

    /** Matches each response frame to the one outstanding request of its connection. */
    private static final class ResponseHandler extends SimpleChannelInboundHandler<ByteBuf> {
        private final AtomicReference<CompletableFuture<byte[]>> pending = new AtomicReference<>();

        CompletableFuture<byte[]> expect() {
            CompletableFuture<byte[]> future = new CompletableFuture<>();
            if (!pending.compareAndSet(null, future)) {
                throw new IllegalStateException("a request is already outstanding on this connection");
            }
            return future;
        }

        void fail(Throwable cause) {
            CompletableFuture<byte[]> p = pending.getAndSet(null);
            if (p != null) {
                p.completeExceptionally(cause);
            }
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            CompletableFuture<byte[]> p = pending.getAndSet(null);
            if (p == null) {
                ctx.close();
                return;
            }
            if (frame.readableBytes() < 1) {
                p.completeExceptionally(new IOException("empty response frame"));
                ctx.close();
                return;
            }
            byte status = frame.readByte();
            byte[] payload = new byte[frame.readableBytes()];
            frame.readBytes(payload);
            if (status == ShuffleProtocol.STATUS_OK) {
                p.complete(payload);
            } else {
                p.completeExceptionally(new RemoteError(new String(payload, StandardCharsets.UTF_8)));
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            fail(new ConnectionClosed("connection closed by the server", null));
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(cause);
            ctx.close();
        }
    }

    /** The server answered with an error message. */
    private static final class RemoteError extends Exception {
        private static final long serialVersionUID = 1L;

        RemoteError(String message) {
            super(message, null, false, false);
        }
    }

    private static final class ConnectionClosed extends IOException {
        private static final long serialVersionUID = 1L;

        ConnectionClosed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Internal signal: the connection failed before answering, so the (idempotent) request may be retried. */
    private static final class StaleConnection extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StaleConnection(Throwable cause) {
            super(cause);
        }
    }
}
