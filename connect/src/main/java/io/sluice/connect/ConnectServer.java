package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.sluice.common.SluiceException;
import io.sluice.common.net.UnprovenConnections;
import io.sluice.coordinator.Coordinator;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The Spark Connect endpoint of a coordinator: gRPC over Netty on {@code host:port} (TLS when the
 * coordinator serves HTTPS, with the same certificate), every call
 * authenticated with the cluster's secret ({@link BearerTokenCheck}), bounded as the HTTP API is
 * (message and header sizes, calls per connection, idle connections closed, sessions counted, and
 * connections that have not yet made an authenticated call limited and given a deadline:
 * {@link UnprovenTransports}).
 * Spark's own clients (Scala/Java {@code spark-connect-client-jvm}, PySpark {@code pyspark-client})
 * connect with {@code sc://host:port/;token=SECRET}.
 */
public final class ConnectServer implements AutoCloseable {
    /** The port Spark Connect listens on by default, as Spark's. */
    public static final int DEFAULT_PORT = 15002;

    /** Spark's own default for the largest message (a plan, a local relation) a client may send. */
    static final int MAX_MESSAGE_BYTES = 128 << 20;
    /** Queries (ExecutePlan calls) running at once on this server, over all sessions. */
    static final int MAX_EXECUTIONS = 64;
    static final int MAX_HEADER_BYTES = 16 << 10;
    static final int MAX_CALLS_PER_CONNECTION = 64;
    static final int MAX_SESSIONS = 1024;

    private final Server server;
    private final ConnectSessions sessions;
    private final ExecutorService executions;
    private final BufferAllocator allocator;
    private final UnprovenTransports unproven;
    private final EventLoopGroup eventLoops;

    private ConnectServer(Server server, ConnectSessions sessions, ExecutorService executions, BufferAllocator allocator,
            UnprovenTransports unproven, EventLoopGroup eventLoops) {
        this.server = server;
        this.sessions = sessions;
        this.executions = executions;
        this.allocator = allocator;
        this.unproven = unproven;
        this.eventLoops = eventLoops;
    }

    /**
     * Starts serving {@code coordinator}'s queries on {@code host:port} (port 0: a free one),
     * authenticated with {@code secret} (null: none), connections not yet authenticated bounded by
     * the {@code sluice.connect.unauthenticated.*} and {@code sluice.connect.auth-timeout} properties.
     */
    public static ConnectServer start(Coordinator coordinator, String host, int port, String secret) {
        return start(coordinator, host, port, secret, ConnectSettingsDeclaration.UNAUTHENTICATED.configured());
    }

    static ConnectServer start(Coordinator coordinator, String host, int port, String secret,
            UnprovenConnections.Limits unauthenticated) {
        requireNonNull(coordinator, "coordinator is null");
        requireNonNull(host, "host is null");
        BufferAllocator allocator = coordinator.allocator().newChildAllocator("spark-connect", 0, Long.MAX_VALUE);
        AtomicInteger threads = new AtomicInteger();
        // one thread per running ExecutePlan, at most MAX_EXECUTIONS; past that a call is refused, not queued
        ExecutorService executions = new ThreadPoolExecutor(0, MAX_EXECUTIONS, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "sluice-connect-exec-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        ConnectSessions sessions = new ConnectSessions(coordinator.queries(), MAX_SESSIONS, coordinator::acceptsJobs);
        ConnectService service = new ConnectService(sessions, executions, allocator);
        // TLS with the coordinator's HTTPS certificate when it has one: Spark's clients send a token
        // in clear only to localhost, and over TLS to any other host
        ServerCredentials credentials = coordinator.httpsCredentials()
                .map(tls -> TlsServerCredentials.newBuilder().keyManager(tls.keyManagers()).build())
                .orElse(InsecureServerCredentials.create());
        UnprovenTransports unproven = new UnprovenTransports(unauthenticated);
        // our own server channels (to see each accepted connection) oblige grpc-netty to take our event loops too
        EventLoopGroup eventLoops = new MultiThreadIoEventLoopGroup(0, new DefaultThreadFactory("sluice-connect-io", true),
                NioIoHandler.newFactory());
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(host, port), credentials)
                .channelFactory(unproven.serverChannels())
                .bossEventLoopGroup(eventLoops)
                .workerEventLoopGroup(eventLoops)
                .addService(ServerInterceptors.intercept(service, new BearerTokenCheck(secret, unproven)))
                .maxInboundMessageSize(MAX_MESSAGE_BYTES)
                .maxInboundMetadataSize(MAX_HEADER_BYTES)
                .maxConcurrentCallsPerConnection(MAX_CALLS_PER_CONNECTION)
                .maxConnectionIdle(30, TimeUnit.MINUTES)
                .permitKeepAliveTime(10, TimeUnit.SECONDS)
                .handshakeTimeout(10, TimeUnit.SECONDS)
                .build();
        try {
            server.start();
        } catch (IOException e) {
            executions.shutdownNow();
            eventLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            allocator.close();
            throw new SluiceException("cannot start Spark Connect on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        return new ConnectServer(server, sessions, executions, allocator, unproven, eventLoops);
    }

    /** The port it listens on. */
    public int port() {
        return server.getPort();
    }

    /** The sessions open now. */
    public int sessions() {
        return sessions.size();
    }

    /** Connections open now that have not yet made an authenticated call. */
    int unauthenticated() {
        return unproven.size();
    }

    /** Connections closed without an authenticated call: evicted for newer ones, or past the deadline. */
    long unauthenticatedClosed() {
        return unproven.closed();
    }

    @Override
    public void close() {
        server.shutdown(); // first, so that no call opens a session after they are closed
        sessions.close();
        try {
            if (!server.awaitTermination(10, TimeUnit.SECONDS)) {
                server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.shutdownNow();
        }
        eventLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        executions.shutdownNow();
        try {
            executions.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        allocator.close();
    }
}
