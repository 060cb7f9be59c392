package org.apache.parquet.bytes;

import java.nio.ByteBuffer;

/**
 * A {@link BytesInput} that classes outside parquet's package can extend: {@code BytesInput}'s
 * {@code writeInto} is package-private, so no other package could make a concrete one. Sluice's
 * Snappy pages ({@code io.sluice.datasource.parquet.PageCodecs}) extend this one to be read into
 * the scan's reused page array. Nothing else here.
 */
public abstract class OpenBytesInput extends BytesInput {
    /** Writes all of these bytes into {@code buffer} at its position, advancing it. */
    protected abstract void writeTo(ByteBuffer buffer);

    @Override
    final void writeInto(ByteBuffer buffer) {
        writeTo(buffer);
    }
}
