package io.sluice.cli.shell;

/** How {@code sluice sql} shows a result: text on stdout, or one file ({@code --output}). */
public enum OutputFormat {
    /** A boxed table, then the row count. */
    TABLE,
    /** A header line, then the rows; RFC 4180 quoting, NULL an empty field. */
    CSV,
    /** As CSV, separated by tabs. */
    TSV,
    /** JSON lines: one object per row, as the engine writes JSON files (a NULL field left out). */
    JSON,
    /** An Arrow IPC file. */
    ARROW,
    /** A Parquet file, written by the engine's Parquet writer. */
    PARQUET;

    /** Whether the result goes to a file ({@code --output}) rather than to stdout. */
    public boolean toFile() {
        return this == ARROW || this == PARQUET;
    }
}
