package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.AttributeKey;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The connections of one {@link ShuffleClient}: one event loop group for all of them, connecting
 * with the handshake, and idle connections pooled per server address for reuse (a connection
 * carries one request at a time; at most 32 are kept per server; pooled connections idle longer
 * than the client's {@link ShuffleClient.Options#maxPooledIdle()} are dropped). Also remembers
 * servers reported lost ({@link #serverLost}), whose connections it closes and which it refuses
 * for {@link ShuffleClient#LOST_SERVER_MEMORY}. Thread-safe.
 */
final class ShuffleConnectionPool {
    /** The address a connection was opened to, as its pool is keyed (not as the socket reports it). */
    private static final AttributeKey<String> POOL_KEY = AttributeKey.valueOf("sluice.shuffle.pool");
    private static final int MAX_POOLED_PER_SERVER = 32;

    private final Duration maxPooledIdle;
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

    /** {@code secret} (null: none) answers servers' challenges. */
    ShuffleConnectionPool(ShuffleClient.Options options, byte[] secret) {
        requireNonNull(options, "options is null");
        this.maxPooledIdle = options.maxPooledIdle();
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
                        ShuffleResponseHandler.install(ch, secret, ShuffleConnectionPool.this);
                    }
                });
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * The worker serving {@code host:port} left the cluster: reads from it now waiting fail as a
     * lost server, pooled connections to it close, and for {@link ShuffleClient#LOST_SERVER_MEMORY} new reads
     * from it fail without connecting.
     */
    void serverLost(String host, int port) {
        String key = key(requireNonNull(host, "host is null"), port);
        long now = System.nanoTime();
        lost.values().removeIf(since -> now - since > ShuffleClient.LOST_SERVER_MEMORY.toNanos());
        lost.put(key, now);
        ConcurrentLinkedDeque<Pooled> pooled = idle.remove(key);
        if (pooled != null) {
            pooled.forEach(p -> p.channel().close());
        }
        Set<Channel> channels = open.get(key);
        if (channels != null) {
            IOException reason = new IOException("the connection was dropped: " + ShuffleClient.LOST_SERVER);
            // on each channel's event loop: the response in progress fails first, then the channel closes;
            // a channel closed meanwhile has no handler left to tell (the event would reach the pipeline's tail)
            for (Channel channel : channels) {
                try {
                    channel.eventLoop().execute(() -> {
                        if (channel.pipeline().get(ShuffleResponseHandler.class) != null) {
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
    void serverJoined(String host, int port) {
        lost.remove(key(requireNonNull(host, "host is null"), port));
    }

    /** Whether the server at {@code key} ({@link #key}) was reported lost within {@link ShuffleClient#LOST_SERVER_MEMORY}. */
    boolean isLost(String key) {
        Long since = key == null ? null : lost.get(key);
        return since != null && System.nanoTime() - since <= ShuffleClient.LOST_SERVER_MEMORY.toNanos();
    }

    /** Closes every connection, pooled or in use. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly();
        idle.clear();
    }

    /**
     * Connects to {@code block}'s server and completes the handshake, once; a failure worth
     * retrying (unreachable, busy, the connection lost during the handshake) is a
     * {@link TransientConnectFailure}, a refused handshake a {@link ShuffleFetchException}.
     */
    Channel connectOnce(BlockLocation block) {
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
            ShuffleResponseHandler.of(channel).ready().get(connectTimeoutMillis, TimeUnit.MILLISECONDS);
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
            if (cause instanceof ShuffleResponseHandler.RemoteError remote && remote.busy()) {
                throw new TransientConnectFailure("server error: " + remote.getMessage(), null);
            }
            if (cause instanceof ShuffleResponseHandler.RemoteError remote) {
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

    /** A pooled connection to {@code host:port} that is open and not idle too long, or null. */
    Channel pollIdle(String host, int port) {
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
            if (pooled.channel().isActive() && now - pooled.since() < maxPooledIdle.toNanos()) {
                return pooled.channel();
            }
            pooled.channel().close();
        }
        return null;
    }

    /** Gives back a connection whose answer is complete, to be reused; closes it when it cannot be. */
    void release(Channel channel) {
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

    static String key(String host, int port) {
        return host + ":" + port;
    }

    /** Internal signal: connecting failed in a way worth retrying. */
    static final class TransientConnectFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TransientConnectFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
