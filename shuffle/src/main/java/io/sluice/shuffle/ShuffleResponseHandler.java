package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * Parses what a server sends on one connection: the handshake, then per request an error or a
 * segment header followed by the segment's bytes, which are passed on as they arrive.
 */
final class ShuffleResponseHandler extends ChannelInboundHandlerAdapter {
    /** Kept as an attribute too: a closed channel's pipeline no longer lists its handlers. */
    private static final AttributeKey<ShuffleResponseHandler> HANDLER = AttributeKey.valueOf("sluice.shuffle.response");

    /** {@code secret} (null: none) answers the server's challenge. */
    private final byte[] secret;
    /** Where a connection goes back when its answer is complete. */
    private final ShuffleConnectionPool pool;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private ByteBuf message;
    private volatile RemoteSegment current;
    private long remaining;
    private boolean inBody;
    private boolean authenticating;

    private ShuffleResponseHandler(byte[] secret, ShuffleConnectionPool pool) {
        this.secret = secret;
        this.pool = requireNonNull(pool, "pool is null");
    }

    /** Adds a new handler to {@code channel}'s pipeline. */
    static void install(Channel channel, byte[] secret, ShuffleConnectionPool pool) {
        ShuffleResponseHandler handler = new ShuffleResponseHandler(secret, pool);
        channel.attr(HANDLER).set(handler);
        channel.pipeline().addLast(handler);
    }

    /** The handler of {@code channel}, open or closed. */
    static ShuffleResponseHandler of(Channel channel) {
        return channel.attr(HANDLER).get();
    }

    /** Completes when the handshake is done; fails with a {@link RemoteError} or an {@link IOException}. */
    CompletableFuture<Void> ready() {
        return ready;
    }

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
                pool.release(ctx.channel());
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
        pool.release(ctx.channel());
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

    /** The server answered with an error message. */
    static final class RemoteError extends Exception {
        private static final long serialVersionUID = 1L;

        RemoteError(String message) {
            super(message, null, false, false);
        }

        boolean busy() {
            return getMessage().contains(" is busy");
        }
    }
}
