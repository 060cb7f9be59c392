package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.common.net.UnprovenConnections;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The Spark Connect port's connections that have not yet made a call carrying the secret, bounded
 * as the HTTP and shuffle ports bound theirs ({@link UnprovenConnections}: per source address and
 * in total, the oldest closed to admit a new one, each closed {@link UnprovenConnections.Limits#deadline()}
 * after it opened unless proven by then, whatever it sent). A connection is proven by its first call
 * that passes {@link BearerTokenCheck}; from then on only gRPC's own limits apply, so an
 * authenticated client keeps working during a flood of idle connections.
 *
 * <p>Where the hook sits: gRPC's {@code ServerTransportFilter} sees a transport only once its
 * HTTP/2 preface (and TLS handshake) is done, so a socket that sends nothing is never seen, and it
 * cannot close a transport. Instead the server socket channel grpc-netty accepts on comes from
 * {@link #serverChannels()} ({@code NettyServerBuilder.channelFactory}) with a handler ahead of
 * Netty's acceptor: it sees every accepted Netty {@link Channel} before gRPC does and gives it a
 * handler of its own that, once the channel is registered (only a registered channel can be closed
 * from another thread, as evicting it does), admits it, schedules its deadline on its event loop and
 * remembers it by remote address, which is what gRPC reports to a call as
 * {@code Grpc.TRANSPORT_ATTR_REMOTE_ADDR} ({@link #proven}); no call is read before that. It closes
 * a connection from its own place at the head of the pipeline: a {@code close()} that passed gRPC's
 * handler would become a graceful GOAWAY waiting seconds for a ping the flood never answers.
 * Thread-safe.
 */
final class UnprovenTransports {
    private final UnprovenConnections unproven;
    private final Map<SocketAddress, Pending> pending = new ConcurrentHashMap<>();
    private final LongAdder timedOut = new LongAdder();

    UnprovenTransports(UnprovenConnections.Limits limits) {
        this.unproven = new UnprovenConnections(requireNonNull(limits, "limits is null"));
    }

    /** New NIO server socket channels that admit each connection they accept. */
    ChannelFactory<ServerChannel> serverChannels() {
        return () -> {
            NioServerSocketChannel channel = new NioServerSocketChannel();
            channel.pipeline().addLast(new Gate());
            return channel;
        };
    }

    /** A call from {@code remote} carried the secret: its connection leaves the limits (no-op when it had already). */
    void proven(SocketAddress remote) {
        Pending connection = remote == null ? null : pending.remove(remote);
        if (connection != null) {
            connection.deadline.cancel(false);
            if (!connection.ticket.proven()) {
                connection.first.close();
            }
        }
    }

    /** Connections open now that have not proven the secret. */
    int size() {
        return unproven.size();
    }

    /** Connections closed without proving the secret: evicted for newer ones, or past the deadline. */
    long closed() {
        return unproven.evicted() + timedOut.sum();
    }

    /** {@code first} is the first handler of the connection's pipeline: closing there skips gRPC's graceful GOAWAY. */
    private void admit(ChannelHandlerContext first) {
        Channel channel = first.channel();
        SocketAddress remote = channel.remoteAddress();
        if (remote == null) {
            first.close(); // gone before it was registered
            return;
        }
        String address = remote instanceof InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getHostAddress()
                : String.valueOf(remote);
        UnprovenConnections.Ticket ticket = unproven.admit(address, first::close);
        ScheduledFuture<?> deadline = first.executor().schedule(() -> expire(remote, first),
                unproven.limits().deadline().toNanos(), TimeUnit.NANOSECONDS);
        Pending connection = new Pending(first, ticket, deadline);
        pending.put(remote, connection);
        channel.closeFuture().addListener(closed -> {
            pending.remove(remote, connection);
            deadline.cancel(false);
            ticket.closed();
        });
    }

    private void expire(SocketAddress remote, ChannelHandlerContext first) {
        Pending connection = pending.get(remote);
        if (connection != null && connection.first == first && pending.remove(remote, connection)) {
            timedOut.increment();
            first.close();
        }
    }

    private record Pending(ChannelHandlerContext first, UnprovenConnections.Ticket ticket, ScheduledFuture<?> deadline) { }

    /** On the server channel, ahead of the acceptor: each message it reads is an accepted connection. */
    private final class Gate extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Channel channel) {
                channel.pipeline().addLast(new Admission());
            }
            ctx.fireChannelRead(msg);
        }
    }

    /** On an accepted channel: admits it when it is registered (Netty defers {@code handlerAdded} until then). */
    private final class Admission extends ChannelHandlerAdapter {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            admit(ctx);
        }
    }
}
