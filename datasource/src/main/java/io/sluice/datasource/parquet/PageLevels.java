package io.sluice.datasource.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.values.ValuesReader;

/**
 * The definition levels of a flat column's current page, for {@link ParquetPageDecoder}: which
 * rows of a run hold a value (non-NULL), decoded a run of rows at a time. RLE levels (v1 pages
 * with RLE, every v2 page) let a run of non-NULL rows pass without being unpacked; the deprecated
 * BIT_PACKED levels go through parquet-mr's reader, a value at a time. A column without NULLs
 * (maximum level 0) has no levels. Not thread-safe: one per decoder.
 */
final class PageLevels {
    /** Definition levels of a page, decoded a run of rows at a time. */
    private interface LevelReader {
        void read(int[] out, int from, int count);
    }

    private final ColumnDescriptor descriptor;
    private final int maxDefinitionLevel;
    private final int levelWidth;
    private LevelReader levels;
    private RleBitPackedDecoder rleLevels; // levels, when RLE-encoded: a run of non-NULL rows is skipped whole
    private int[] levelBuffer = new int[0];
    private int[] presentBuffer = new int[0];
    private int[] present; // rows of the non-NULL values of the current run (read), null when none is NULL

    PageLevels(ColumnDescriptor descriptor) {
        this.descriptor = descriptor;
        this.maxDefinitionLevel = descriptor.getMaxDefinitionLevel();
        this.levelWidth = BytesUtils.getWidthFromMaxInt(maxDefinitionLevel);
    }

    /**
     * Opens the levels of v1 page {@code page}, which come first in {@code data} (its bytes, read
     * from their position): {@code data} is left at the page's values.
     */
    void openV1(DataPageV1 page, ByteBuffer data) throws IOException {
        levels = null;
        rleLevels = null;
        if (maxDefinitionLevel > 0 && page.getDlEncoding() == Encoding.RLE) {
            int length = data.getInt();
            ByteBuffer levelBytes = data.slice().order(ByteOrder.LITTLE_ENDIAN);
            levelBytes.limit(length);
            data.position(data.position() + length);
            rleLevels = new RleBitPackedDecoder(levelBytes, levelWidth);
            levels = rleLevels::read;
        } else if (maxDefinitionLevel > 0) {
            // Another level encoding (the deprecated BIT_PACKED): parquet-mr's reader, a value at a time.
            ValuesReader reader = page.getDlEncoding().getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL);
            ByteBufferInputStream in = ByteBufferInputStream.wrap(data);
            reader.initFromPage(page.getValueCount(), in);
            data.position(data.position() + (int) in.position());
            levels = (out, from, count) -> {
                for (int i = from; i < from + count; i++) {
                    out[i] = reader.readInteger();
                }
            };
        }
    }

    /** Opens the RLE levels of a v2 page, {@code bytes}. */
    void openV2(BytesInput bytes) throws IOException {
        rleLevels = maxDefinitionLevel > 0
                ? new RleBitPackedDecoder(bytes.toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN), levelWidth) : null;
        levels = rleLevels == null ? null : rleLevels::read;
    }

    /**
     * Reads the levels of rows {@code [at, at + take)} of a batch from the current page: the
     * number of non-NULL values among them, and (when some are NULL) their rows in
     * {@link #present()}{@code [0..count)} (else it is null).
     */
    int read(int at, int take) {
        present = null;
        if (levels == null || (rleLevels != null && rleLevels.skipRepeated(maxDefinitionLevel, take))) {
            return take;
        }
        if (levelBuffer.length < take) {
            levelBuffer = new int[Math.max(take, 1024)];
        }
        levels.read(levelBuffer, 0, take);
        int count = 0;
        for (int i = 0; i < take; i++) {
            count += levelBuffer[i] == maxDefinitionLevel ? 1 : 0;
        }
        if (count < take) {
            if (presentBuffer.length < count) {
                presentBuffer = new int[Math.max(count, 1024)];
            }
            int p = 0;
            for (int i = 0; i < take; i++) {
                if (levelBuffer[i] == maxDefinitionLevel) {
                    presentBuffer[p++] = at + i;
                }
            }
            present = presentBuffer;
        }
        return count;
    }

    /** The rows of the non-NULL values of the run {@link #read} last read, or null when none is NULL. */
    int[] present() {
        return present;
    }
}
