package io.sluice.shuffle;

import static io.sluice.shuffle.ShuffleSettingsDeclaration.COMPRESSION;
import static io.sluice.shuffle.ShuffleSettingsDeclaration.MAX_BUFFERED_ROWS;
import static io.sluice.shuffle.ShuffleSettingsDeclaration.MAX_IN_FLIGHT_BYTES;
import static io.sluice.shuffle.ShuffleSettingsDeclaration.MAX_REQUESTS_IN_FLIGHT;
import static java.util.Objects.requireNonNull;

import io.sluice.common.settings.Settings;

/**
 * How a worker's tasks write and read shuffle data: a typed view of
 * {@link ShuffleSettingsDeclaration}, where the names, defaults and bounds are declared.
 */
public record ShuffleSettings(ShuffleCompression compression, long maxInFlightBytes, int maxRequestsInFlight,
        long maxBufferedRows) {
    public ShuffleSettings {
        requireNonNull(compression, "compression is null");
        MAX_IN_FLIGHT_BYTES.check(maxInFlightBytes);
        MAX_REQUESTS_IN_FLIGHT.check(maxRequestsInFlight);
        MAX_BUFFERED_ROWS.check(maxBufferedRows);
    }

    public static ShuffleSettings defaults() {
        return from(Settings.defaults());
    }

    /** The shuffle settings of {@code settings}. */
    public static ShuffleSettings from(Settings settings) {
        return new ShuffleSettings(settings.get(COMPRESSION), settings.get(MAX_IN_FLIGHT_BYTES),
                settings.get(MAX_REQUESTS_IN_FLIGHT), settings.get(MAX_BUFFERED_ROWS));
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
}
