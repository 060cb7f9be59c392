package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.timeout.IdleStateEvent;
import io.sluice.common.net.UnprovenConnections;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection: handshake, then one request at a time. Runs on its event loop, except that
 * index reads and file opens go to the file executor. While a response is being prepared or sent, auto-read is off
 * and unread frames wait in {@code pending}, so a pipelining client gets nothing more out of the
 * server than one open file and a bounded buffer.
 */
final class ShuffleConnection extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ShuffleServer.class); // logs as the server always did
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ShuffleServerCounters counters;
    private final UnprovenConnections unproven;
    private final ShuffleServer.Options options;
    private final byte[] secret;
    private final Path rootDirectory;
    private final Executor files;
    private final Supplier<String> address;

    /** A response to send: a header or error, and the segment's bytes if any. */
    private record Response(ByteBuf header, DefaultFileRegion body) {
        void release() {
            header.release();
            if (body != null) {
                body.release();
            }
        }
    }

    private ByteBuf pending;
    private byte[] nonce;
    private boolean authenticated;
    private boolean busy;
    private boolean counted;
    /** Set while the connection has not proven the secret: it counts against {@link #unproven}, not the cap. */
    private UnprovenConnections.Ticket ticket;
    private ScheduledFuture<?> deadline;

    /** {@code secret} null: no authentication; {@code address} names the server in error messages. */
    ShuffleConnection(ShuffleServerCounters counters, UnprovenConnections unproven, ShuffleServer.Options options,
            byte[] secret, Path rootDirectory, Executor files, Supplier<String> address) {
        this.counters = requireNonNull(counters, "counters is null");
        this.unproven = requireNonNull(unproven, "unproven is null");
        this.options = requireNonNull(options, "options is null");
        this.secret = secret;
        this.rootDirectory = requireNonNull(rootDirectory, "rootDirectory is null");
        this.files = requireNonNull(files, "files is null");
        this.address = requireNonNull(address, "address is null");
    }

    /**
     * Without a secret the connection counts against the cap at once; with one it is admitted as
     * unproven (closing the oldest unproven ones past their limits) and must prove the secret
     * before the deadline, which no byte it sends postpones.
     */
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        counters.connectionsAccepted.increment();
        authenticated = secret == null;
        nonce = new byte[ShuffleProtocol.NONCE_BYTES];
        if (secret == null) {
            if (!admitProven(ctx)) {
                return;
            }
        } else {
            RANDOM.nextBytes(nonce);
            String remote = ctx.channel().remoteAddress() instanceof InetSocketAddress inet
                    ? inet.getAddress().getHostAddress() : String.valueOf(ctx.channel().remoteAddress());
            ticket = unproven.admit(remote, () -> ctx.channel().close());
            deadline = ctx.executor().schedule(() -> {
                if (!authenticated) {
                    counters.authTimeouts.increment();
                    refuse(ctx, "shuffle server " + address.get() + ": no authentication within "
                            + unproven.limits().deadline().toMillis() + " ms");
                }
            }, unproven.limits().deadline().toNanos(), TimeUnit.NANOSECONDS);
        }
        pending = ctx.alloc().buffer();
        ctx.writeAndFlush(ShuffleProtocol.hello(ctx.alloc(), secret != null, nonce));
    }

    /** Counts a proven connection against the cap; past it, answers "busy", closes and returns false. */
    private boolean admitProven(ChannelHandlerContext ctx) {
        counted = true;
        int active = counters.activeConnections.incrementAndGet();
        if (active > options.maxConnections()) {
            counters.rejectedBusy.increment();
            busy = true;
            ctx.writeAndFlush(ShuffleProtocol.error(ctx.alloc(), "shuffle server " + address.get() + " is busy: "
                    + options.maxConnections() + " connections open; retry later"))
                    .addListener(ChannelFutureListener.CLOSE);
            return false;
        }
        return true;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (ticket != null) {
            ticket.closed();
        }
        if (deadline != null) {
            deadline.cancel(false);
        }
        if (counted) {
            counted = false;
            counters.activeConnections.decrementAndGet();
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
                refuse(ctx, "bad request to shuffle server " + address.get() + ": frame of " + length + " bytes");
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
            if (authenticated) {
                refuse(ctx, "bad request to shuffle server " + address.get() + ": authenticated twice");
                return;
            }
            if (!ShuffleProtocol.macMatches(secret, nonce, mac)) {
                counters.authFailures.increment();
                refuse(ctx, "authentication to shuffle server " + address.get() + " failed: wrong secret");
                return;
            }
            authenticated = true;
            deadline.cancel(false);
            if (!ticket.proven() || !admitProven(ctx)) {
                return;
            }
            ctx.writeAndFlush(ShuffleProtocol.authOk(ctx.alloc()));
            return;
        }
        if (type != ShuffleProtocol.FETCH) {
            refuse(ctx, "bad request to shuffle server " + address.get() + ": unknown message type " + type);
            return;
        }
        if (!authenticated) {
            counters.authFailures.increment();
            refuse(ctx, "shuffle server " + address.get() + " requires authentication (SLUICE_AUTH_SECRET)");
            return;
        }
        ShuffleProtocol.Request request;
        try {
            request = ShuffleProtocol.decodeRequest(frame);
        } catch (IllegalArgumentException e) {
            refuse(ctx, "bad request to shuffle server " + address.get() + ": " + e.getMessage());
            return;
        }
        serve(ctx, request);
    }

    private void serve(ChannelHandlerContext ctx, ShuffleProtocol.Request request) {
        String block = ShuffleBlocks.describe(request.shuffleId(), request.map(), request.partition());
        if (!ShuffleBlocks.isValidShuffleId(request.shuffleId()) || request.map() < 0 || request.partition() < 0) {
            respond(ctx, ShuffleProtocol.error(ctx.alloc(), "invalid block " + block + " requested from shuffle server "
                    + address.get()), null);
            return;
        }
        if (request.jobId().isEmpty() || !request.shuffleId().startsWith(request.jobId() + "-")) {
            respond(ctx, ShuffleProtocol.error(ctx.alloc(), "block " + block + " does not belong to job '"
                    + request.jobId() + "' (shuffle server " + address.get() + ")"), null);
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
                    + address.get()), null);
        } catch (IOException | RuntimeException e) {
            closeQuietly(data);
            return new Response(ShuffleProtocol.error(ctx.alloc(), "cannot read block " + block
                    + " on shuffle server " + address.get() + ": " + e.getMessage()), null);
        }
        counters.blocksServed.increment();
        counters.bytesServed.add(segment.length());
        counters.blocksServedTo.computeIfAbsent(request.requesterId(), k -> new LongAdder()).increment();
        // The region owns the file channel from here and closes it when released.
        return new Response(ShuffleProtocol.segmentHeader(ctx.alloc(), segment),
                data == null ? null : new DefaultFileRegion(data, segment.offset(), segment.length()));
    }

    /** Sends one response; reading resumes once it is flushed. */
    private void respond(ChannelHandlerContext ctx, ByteBuf header, DefaultFileRegion body) {
        busy = true;
        counters.openFiles.incrementAndGet();
        ChannelFuture done;
        if (body == null) {
            done = ctx.writeAndFlush(header);
        } else {
            ctx.write(header);
            done = ctx.writeAndFlush(body);
        }
        // Runs on the event loop, like every other method of this handler.
        done.addListener((ChannelFutureListener) f -> {
            counters.openFiles.decrementAndGet();
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
