package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.util.function.UnaryOperator;

/**
 * How a worker's tasks write and read shuffle data.
 *
 * <ul>
 *   <li>{@code sluice.shuffle.compression}: IPC body compression of written segments (default lz4).
 *   <li>{@code sluice.shuffle.max-in-flight-bytes}: per reading task, the bytes of remote segments
 *       requested but not yet consumed (default 48 MiB; one segment larger than this is still
 *       fetched, alone). Like Spark's {@code maxSizeInFlight}.
 *   <li>{@code sluice.shuffle.max-requests-in-flight}: per reading task, the remote requests
 *       outstanding at once (default 16), each holding one pooled connection.
 *   <li>{@code sluice.shuffle.max-buffered-rows}: per writing task, the rows held on the heap before
 *       they are spilled to disk (default 131072).
 * </ul>
 */
public record ShuffleSettings(ShuffleCompression compression, long maxInFlightBytes, int maxRequestsInFlight,
        long maxBufferedRows) {
    public static final String COMPRESSION = "sluice.shuffle.compression";
    public static final String MAX_IN_FLIGHT_BYTES = "sluice.shuffle.max-in-flight-bytes";
    public static final String MAX_REQUESTS_IN_FLIGHT = "sluice.shuffle.max-requests-in-flight";
    public static final String MAX_BUFFERED_ROWS = "sluice.shuffle.max-buffered-rows";

    public ShuffleSettings {
        requireNonNull(compression, "compression is null");
        if (maxInFlightBytes < 1 || maxRequestsInFlight < 1 || maxBufferedRows < 1) {
            throw new SluiceException("shuffle limits must be positive: max-in-flight-bytes=" + maxInFlightBytes
                    + " max-requests-in-flight=" + maxRequestsInFlight + " max-buffered-rows=" + maxBufferedRows);
        }
    }

    public static ShuffleSettings defaults() {
        return new ShuffleSettings(ShuffleCompression.LZ4_FRAME, 48L << 20, 16, 16L * 8192);
    }

    /** Settings from {@code properties} (a key's value, or null when unset), defaults for what is unset. */
    public static ShuffleSettings from(UnaryOperator<String> properties) {
        ShuffleSettings d = defaults();
        String compression = properties.apply(COMPRESSION);
        return new ShuffleSettings(
                compression == null ? d.compression() : ShuffleCompression.parse(compression),
                longValue(properties, MAX_IN_FLIGHT_BYTES, d.maxInFlightBytes()),
                (int) longValue(properties, MAX_REQUESTS_IN_FLIGHT, d.maxRequestsInFlight()),
                longValue(properties, MAX_BUFFERED_ROWS, d.maxBufferedRows()));
    }

    public ShuffleSettings withCompression(ShuffleCompression newCompression) {
        return new ShuffleSettings(newCompression, maxInFlightBytes, maxRequestsInFlight, maxBufferedRows);
    }

    public ShuffleSettings withMaxInFlightBytes(long bytes) {
        return new ShuffleSettings(compression, bytes, maxRequestsInFlight, maxBufferedRows);
    }

    public ShuffleSettings withMaxBufferedRows(long rows) {
        return new ShuffleSettings(compression, maxInFlightBytes, maxRequestsInFlight, rows);
    }

    private static long longValue(UnaryOperator<String> properties, String key, long fallback) {
        String value = properties.apply(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new SluiceException(key + " must be a whole number, not '" + value + "'");
        }
    }
}
