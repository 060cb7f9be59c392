package io.sluice.cluster.serialization;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;

/**
 * A Kryo {@link Input} over one whole message that refuses any length larger than what the message
 * can still hold, before anything of that length is allocated. Every element of a string or an
 * array takes at least one byte on the wire, so a length beyond the bytes left is a lie: a hostile
 * varint of 2^31-1 fails here at once instead of allocating gigabytes. Collections and object arrays
 * check the same way through {@link #checkLength} ({@link BoundedSerializers}).
 */
final class BoundedInput extends Input {
    private final int maxLength;

    /** {@code maxLength}: the largest collection, array or string length accepted at all. */
    BoundedInput(byte[] message, int maxLength) {
        super(message);
        this.maxLength = maxLength;
    }

    /** Throws unless {@code length} elements of at least one byte each fit in what is left. */
    void checkLength(long length, String what) {
        checkLength(length, what, maxLength);
    }

    private void checkLength(long length, String what, int maxLength) {
        if (length < 0) {
            throw new KryoException("negative " + what + " length " + length);
        }
        if (length > maxLength) {
            throw new KryoException(what + " length " + length + " exceeds the limit of " + maxLength);
        }
        if (length > (long) limit - position) {
            throw new KryoException(what + " length " + length + " exceeds the " + (limit - position)
                    + " bytes left in the message");
        }
    }

    /** The input {@code input} is, for serializers that check lengths; fails on any other input. */
    static BoundedInput of(Input input) {
        if (input instanceof BoundedInput bounded) {
            return bounded;
        }
        throw new KryoException("Sluice messages are read only through KryoPool (bounded input)");
    }

    @Override
    public String readString() {
        if (position < limit && readVarIntFlag()) {
            // UTF-8 form: a varint char count (+1, 0 meaning null) precedes the chars.
            int start = position;
            int count = readVarIntFlag(true);
            checkLength(count - 1L, "string");
            position = start;
        }
        // The ASCII form reads byte by byte up to a terminator, never past the message.
        return super.readString();
    }

    @Override
    public StringBuilder readStringBuilder() {
        throw new KryoException("StringBuilder is not part of Sluice's wire format");
    }

    @Override
    public byte[] readBytes(int length) {
        // a byte array is a payload inside the message (a task's stage plan): it holds as many
        // bytes as it takes, so the message's own limit bounds it, not the element count limit
        checkLength(length, "byte array", Kryos.MAX_MESSAGE_BYTES);
        return super.readBytes(length);
    }

    @Override
    public int[] readInts(int length, boolean optimizePositive) {
        checkLength(length, "int array");
        return super.readInts(length, optimizePositive);
    }

    @Override
    public int[] readInts(int length) {
        checkLength(length, "int array");
        return super.readInts(length);
    }

    @Override
    public long[] readLongs(int length, boolean optimizePositive) {
        checkLength(length, "long array");
        return super.readLongs(length, optimizePositive);
    }

    @Override
    public long[] readLongs(int length) {
        checkLength(length, "long array");
        return super.readLongs(length);
    }

    @Override
    public float[] readFloats(int length) {
        checkLength(length, "float array");
        return super.readFloats(length);
    }

    @Override
    public double[] readDoubles(int length) {
        checkLength(length, "double array");
        return super.readDoubles(length);
    }

    @Override
    public short[] readShorts(int length) {
        checkLength(length, "short array");
        return super.readShorts(length);
    }

    @Override
    public char[] readChars(int length) {
        checkLength(length, "char array");
        return super.readChars(length);
    }

    @Override
    public boolean[] readBooleans(int length) {
        checkLength(length, "boolean array");
        return super.readBooleans(length);
    }
}
