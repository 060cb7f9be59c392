package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * The wire format of the shuffle service. Every message is a frame: a 4-byte big-endian length,
 * then that many bytes.
 *
 * <pre>
 * request:  version:u8=1  requesterId:str  shuffleId:str  map:i32  partition:i32
 *           (str = u16 length + UTF-8 bytes)
 * response: status:u8     payload: the block's bytes (OK) or a UTF-8 message (ERROR)
 * </pre>
 *
 * One request is outstanding per connection at a time; responses come in request order.
 */
final class ShuffleProtocol {
    static final byte VERSION = 1;
    static final byte STATUS_OK = 0;
    static final byte STATUS_ERROR = 1;
    static final int LENGTH_FIELD = 4;
    static final int MAX_REQUEST_FRAME = 64 * 1024;
    /** The largest response payload: a block must fit one Java byte array on the client. */
    static final int MAX_RESPONSE_FRAME = Integer.MAX_VALUE - 64;
    private static final int MAX_STRING = 0xffff;

    private ShuffleProtocol() {
    }

    record Request(String requesterId, String shuffleId, int map, int partition) {
        Request {
            requireNonNull(requesterId, "requesterId is null");
            requireNonNull(shuffleId, "shuffleId is null");
        }
    }

    /** Encodes a request body; the frame length is added by the pipeline's prepender. */
    static ByteBuf encodeRequest(ByteBufAllocator alloc, Request request) {
        ByteBuf out = alloc.buffer();
        try {
            out.writeByte(VERSION);
            writeString(out, request.requesterId());
            writeString(out, request.shuffleId());
            out.writeInt(request.map());
            out.writeInt(request.partition());
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** Decodes a request body (without its length prefix); malformed input gives IllegalArgumentException. */
    static Request decodeRequest(ByteBuf in) {
        if (in.readableBytes() < 1) {
            throw new IllegalArgumentException("empty request");
        }
        byte version = in.readByte();
        if (version != VERSION) {
            throw new IllegalArgumentException("unsupported protocol version " + version + " (expected " + VERSION + ")");
        }
        String requesterId = readString(in);
        String shuffleId = readString(in);
        if (in.readableBytes() != 8) {
            throw new IllegalArgumentException("malformed request: " + in.readableBytes() + " trailing bytes, expected 8");
        }
        return new Request(requesterId, shuffleId, in.readInt(), in.readInt());
    }

    /** A complete response frame header (length prefix and status) for a payload of {@code payloadLength} bytes. */
    static ByteBuf responseHeader(ByteBufAllocator alloc, byte status, long payloadLength) {
        if (payloadLength < 0 || payloadLength + 1 > MAX_RESPONSE_FRAME) {
            throw new IllegalArgumentException("response payload of " + payloadLength + " bytes is too large");
        }
        ByteBuf header = alloc.buffer(LENGTH_FIELD + 1);
        header.writeInt((int) (payloadLength + 1));
        header.writeByte(status);
        return header;
    }

    /** A complete error response frame. */
    static ByteBuf errorResponse(ByteBufAllocator alloc, String message) {
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        ByteBuf frame = responseHeader(alloc, STATUS_ERROR, bytes.length);
        frame.writeBytes(bytes);
        return frame;
    }

    private static void writeString(ByteBuf out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_STRING) {
            throw new IllegalArgumentException("string of " + bytes.length + " bytes is too long for the protocol");
        }
        out.writeShort(bytes.length);
        out.writeBytes(bytes);
    }

    private static String readString(ByteBuf in) {
        if (in.readableBytes() < 2) {
            throw new IllegalArgumentException("malformed request: truncated string length");
        }
        int length = in.readUnsignedShort();
        if (in.readableBytes() < length) {
            throw new IllegalArgumentException("malformed request: truncated string");
        }
        String s = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return s;
    }
}
