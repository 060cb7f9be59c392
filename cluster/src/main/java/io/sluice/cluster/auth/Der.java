package io.sluice.cluster.auth;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * The few DER encodings a self-signed certificate needs (ITU-T X.690): each method returns one
 * complete element, tag, definite length and contents. Written here so that making a certificate
 * loads no certificate library: BouncyCastle's signed jars could not be kept in the class data
 * sharing archive and their verification was a tenth of a node's start.
 */
final class Der {
    private static final int INTEGER = 0x02;
    private static final int BIT_STRING = 0x03;
    private static final int OCTET_STRING = 0x04;
    private static final int OBJECT_IDENTIFIER = 0x06;
    private static final int UTF8_STRING = 0x0c;
    private static final int UTC_TIME = 0x17;
    private static final int GENERALIZED_TIME = 0x18;
    private static final int SEQUENCE = 0x30;
    private static final int SET = 0x31;

    private Der() {
    }

    static byte[] sequence(byte[]... elements) {
        return element(SEQUENCE, concat(elements));
    }

    static byte[] set(byte[]... elements) {
        return element(SET, concat(elements));
    }

    /** A context-specific constructed element, {@code [number] EXPLICIT}. */
    static byte[] explicit(int number, byte[] element) {
        return element(0xa0 | number, element);
    }

    /** A context-specific primitive element, {@code [number] IMPLICIT} over primitive contents. */
    static byte[] implicit(int number, byte[] contents) {
        return element(0x80 | number, contents);
    }

    static byte[] integer(BigInteger value) {
        return element(INTEGER, value.toByteArray());
    }

    static byte[] bitString(byte[] bytes) {
        byte[] contents = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, contents, 1, bytes.length);
        return element(BIT_STRING, contents);
    }

    static byte[] octetString(byte[] bytes) {
        return element(OCTET_STRING, bytes);
    }

    static byte[] utf8String(String value) {
        return element(UTF8_STRING, value.getBytes(StandardCharsets.UTF_8));
    }

    /** An RFC 5280 Time: UTCTime up to 2049, GeneralizedTime from 2050; {@code digits} is yyyyMMddHHmmss. */
    static byte[] time(String digits) {
        int year = Integer.parseInt(digits.substring(0, 4));
        boolean utc = year >= 1950 && year < 2050;
        return element(utc ? UTC_TIME : GENERALIZED_TIME,
                ((utc ? digits.substring(2) : digits) + "Z").getBytes(StandardCharsets.US_ASCII));
    }

    /** An object identifier in dotted form, such as {@code 2.5.4.3}. */
    static byte[] objectIdentifier(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream contents = new ByteArrayOutputStream();
        base128(contents, Long.parseLong(arcs[0]) * 40 + Long.parseLong(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            base128(contents, Long.parseLong(arcs[i]));
        }
        return element(OBJECT_IDENTIFIER, contents.toByteArray());
    }

    private static void base128(ByteArrayOutputStream out, long value) {
        int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(value) + 6) / 7);
        for (int i = groups - 1; i >= 0; i--) {
            out.write((int) ((value >>> (7 * i)) & 0x7f) | (i > 0 ? 0x80 : 0));
        }
    }

    private static byte[] element(int tag, byte[] contents) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(contents.length + 6);
        out.write(tag);
        int length = contents.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(contents);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
