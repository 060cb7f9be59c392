package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.datasource.file.HadoopConfiguration;
import java.io.IOException;
import java.util.OptionalLong;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The number of distinct values in a column chunk, read from the header of its dictionary page:
 * when every data page of the chunk is dictionary-encoded, the dictionary holds each distinct
 * non-NULL value of the chunk exactly once. Only the page header is read (a few bytes at the
 * chunk's start), not the dictionary.
 *
 * <p>Best effort, for estimates only: a chunk without a dictionary, with some plain pages (a writer
 * falls back to plain when the dictionary grows too large), or whose header cannot be read (an
 * encrypted file) has no answer. Opens the file on first use; the caller
 * closes this.
 */
final class DictionarySizes implements AutoCloseable {
    private final Path file;
    private final long length;
    private final long modificationTime;
    private SeekableInputStream in;
    private boolean unreadable;

    /** {@code length} and {@code modificationTime} as listing found them ({@code length} -1: unknown, asked when opening). */
    DictionarySizes(Path file, long length, long modificationTime) {
        this.file = requireNonNull(file, "file is null");
        this.length = length;
        this.modificationTime = modificationTime;
    }

    /** The distinct non-NULL values of {@code chunk}, when its dictionary says so exactly. */
    OptionalLong of(ColumnChunkMetaData chunk) {
        if (unreadable || !onlyDictionaryPages(chunk)) {
            return OptionalLong.empty();
        }
        try {
            if (in == null) {
                in = HadoopInputFile.fromStatus(ParquetFile.status(file, length, modificationTime),
                        HadoopConfiguration.shared()).newStream();
            }
            in.seek(chunk.getStartingPos());
            PageHeader header = Util.readPageHeader(in);
            return header.isSetDictionary_page_header()
                    ? OptionalLong.of(header.getDictionary_page_header().getNum_values())
                    : OptionalLong.empty();
        } catch (IOException | RuntimeException e) {
            // An estimate only: the column is then estimated without a distinct count.
            unreadable = true;
            return OptionalLong.empty();
        }
    }

    /**
     * Whether every data page of the chunk is dictionary-encoded: from the footer's encoding
     * statistics where the writer kept them (parquet-mr), else from the chunk's set of encodings
     * (DuckDB writes no statistics): a dictionary encoding and no other value encoding. Level
     * encodings (RLE, BIT_PACKED) do not count; a PLAIN in the set (a fallback page, or a version 2
     * dictionary page, which the set cannot tell apart) gives no answer.
     */
    private static boolean onlyDictionaryPages(ColumnChunkMetaData chunk) {
        EncodingStats stats = chunk.getEncodingStats();
        if (stats != null) {
            return stats.hasDictionaryPages() && !stats.hasNonDictionaryEncodedPages();
        }
        if (!chunk.hasDictionaryPage()) {
            return false;
        }
        boolean dictionary = false;
        for (Encoding encoding : chunk.getEncodings()) {
            switch (encoding) {
                case PLAIN_DICTIONARY, RLE_DICTIONARY -> dictionary = true;
                case RLE, BIT_PACKED -> { }
                default -> {
                    return false;
                }
            }
        }
        return dictionary;
    }

    @Override
    public void close() throws IOException {
        if (in != null) {
            in.close();
        }
    }
}
