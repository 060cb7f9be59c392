package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The wire format of the shuffle service (version 2).
 *
 * <pre>
 * client to server, each a frame (u32 length, then the body):
 *   AUTH:    type:u8=1  mac:32 bytes      HMAC-SHA256(secret, "sluice-shuffle-auth" + nonce)
 *   FETCH:   type:u8=2  version:u8=2  requesterId:str  jobId:str  shuffleId:str  map:i32  partition:i32
 *            (str = u16 length + UTF-8 bytes)
 * server to client, type-tagged:
 *   HELLO:   type:u8=1  authRequired:u8  nonce:32 bytes      (sent first on every connection)
 *   AUTH_OK: type:u8=2
 *   ERROR:   type:u8=3  length:u32  UTF-8 message          (the connection stays usable unless closed)
 *   SEGMENT: type:u8=4  length:i64  rows:i64  crc32c:i32   then exactly length raw bytes
 * </pre>
 *
 * One request is outstanding per connection: the server reads nothing more from a connection
 * until its response is flushed. Segment bodies are not framed, so a block has no size limit.
 */
final class ShuffleProtocol {
    static final byte VERSION = 2;
    static final byte AUTH = 1;
    static final byte FETCH = 2;
    static final byte HELLO = 1;
    static final byte AUTH_OK = 2;
    static final byte ERROR = 3;
    static final byte SEGMENT = 4;
    static final int LENGTH_FIELD = 4;
    static final int NONCE_BYTES = 32;
    static final int MAC_BYTES = 32;
    static final int HELLO_BYTES = 2 + NONCE_BYTES;
    static final int SEGMENT_HEADER_BYTES = 1 + 8 + 8 + 4;
    static final int MAX_REQUEST_FRAME = 64 * 1024;
    static final int MAX_ERROR_MESSAGE = 64 * 1024;
    private static final int MAX_STRING = 0xffff;
    private static final byte[] AUTH_CONTEXT = "sluice-shuffle-auth".getBytes(StandardCharsets.US_ASCII);

    private ShuffleProtocol() {
    }

    record Request(String requesterId, String jobId, String shuffleId, int map, int partition) {
        Request {
            requireNonNull(requesterId, "requesterId is null");
            requireNonNull(jobId, "jobId is null");
            requireNonNull(shuffleId, "shuffleId is null");
        }
    }

    /** A FETCH frame including its length prefix. */
    static ByteBuf encodeRequest(ByteBufAllocator alloc, Request request) {
        ByteBuf out = alloc.buffer();
        try {
            out.writeInt(0);
            out.writeByte(FETCH);
            out.writeByte(VERSION);
            writeString(out, request.requesterId());
            writeString(out, request.jobId());
            writeString(out, request.shuffleId());
            out.writeInt(request.map());
            out.writeInt(request.partition());
            out.setInt(0, out.readableBytes() - LENGTH_FIELD);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** Decodes a FETCH body after its type byte; malformed input gives IllegalArgumentException. */
    static Request decodeRequest(ByteBuf in) {
        if (in.readableBytes() < 1) {
            throw new IllegalArgumentException("empty request");
        }
        byte version = in.readByte();
        if (version != VERSION) {
            throw new IllegalArgumentException("unsupported protocol version " + version + " (expected " + VERSION + ")");
        }
        String requesterId = readString(in);
        String jobId = readString(in);
        String shuffleId = readString(in);
        if (in.readableBytes() != 8) {
            throw new IllegalArgumentException("malformed request: " + in.readableBytes() + " trailing bytes, expected 8");
        }
        return new Request(requesterId, jobId, shuffleId, in.readInt(), in.readInt());
    }

    /** An AUTH frame including its length prefix. */
    static ByteBuf encodeAuth(ByteBufAllocator alloc, byte[] mac) {
        ByteBuf out = alloc.buffer(LENGTH_FIELD + 1 + MAC_BYTES);
        out.writeInt(1 + MAC_BYTES);
        out.writeByte(AUTH);
        out.writeBytes(mac);
        return out;
    }

    static ByteBuf hello(ByteBufAllocator alloc, boolean authRequired, byte[] nonce) {
        ByteBuf out = alloc.buffer(HELLO_BYTES);
        out.writeByte(HELLO);
        out.writeByte(authRequired ? 1 : 0);
        out.writeBytes(nonce);
        return out;
    }

    static ByteBuf authOk(ByteBufAllocator alloc) {
        return alloc.buffer(1).writeByte(AUTH_OK);
    }

    static ByteBuf segmentHeader(ByteBufAllocator alloc, SegmentIndex.Segment segment) {
        ByteBuf out = alloc.buffer(SEGMENT_HEADER_BYTES);
        out.writeByte(SEGMENT);
        out.writeLong(segment.length());
        out.writeLong(segment.rows());
        out.writeInt(segment.crc());
        return out;
    }

    static ByteBuf error(ByteBufAllocator alloc, String message) {
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(bytes.length, MAX_ERROR_MESSAGE);
        ByteBuf out = alloc.buffer(5 + length);
        out.writeByte(ERROR);
        out.writeInt(length);
        out.writeBytes(bytes, 0, length);
        return out;
    }

    /** HMAC-SHA256 of the nonce under the shared secret; the secret itself never crosses the wire. */
    static byte[] mac(byte[] secret, byte[] nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(AUTH_CONTEXT);
            return mac.doFinal(nonce);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }

    static boolean macMatches(byte[] secret, byte[] nonce, byte[] actual) {
        return MessageDigest.isEqual(mac(secret, nonce), actual);
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
