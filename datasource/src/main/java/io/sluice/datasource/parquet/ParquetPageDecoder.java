package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.kernels.Col;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.PageReader;

/**
 * Decodes a flat column straight from its pages into Arrow vectors
 * (from the scan's allocator), a batch of values per loop: definition levels ({@link PageLevels})
 * and dictionary ids are unpacked a run at a time, dictionaries are decoded once into primitive
 * arrays ({@link ChunkDictionary}), PLAIN values are copied from the page buffer. A number column becomes the fixed-width vector of its type, which
 * the kernels read in place ({@code InPlaceKernels}, the aggregate and join probes). A string column
 * becomes a {@link VarCharVector}, not {@code String}s: the
 * dictionary is kept as its UTF-8 bytes (one array plus offsets) and a dictionary id or a PLAIN
 * value copies its bytes, so no string is decoded unless an operator asks for Java strings
 * ({@code Batch.column}); the kernels on UTF-8 bytes (LIKE, comparisons, group and join keys) read
 * the vector in place.
 * Every flat type, in data pages v1 and v2 and the encodings writers produce: PLAIN, dictionary,
 * RLE and BIT_PACKED levels, and (with {@link PageNumbers} and {@link PageByteArrays})
 * DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT and RLE
 * booleans; types whose stored form is not the vector's (FLOAT, INT96, millisecond timestamps,
 * decimals in bytes, 128-bit decimals) are converted a run at a time. Values are written by loops
 * of one vector width each, no call per value. {@link #supports} tells which column chunks it
 * reads; there is no other flat decoder.
 */
final class ParquetPageDecoder implements ColumnChunkDecoder {
    // BIT_PACKED is a level encoding (parquet-mr lists it for levels a column does not have).
    private static final Set<Encoding> ENCODINGS = Set.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY,
            Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.BIT_PACKED, Encoding.DELTA_BINARY_PACKED,
            Encoding.DELTA_LENGTH_BYTE_ARRAY, Encoding.DELTA_BYTE_ARRAY, Encoding.BYTE_STREAM_SPLIT);

    private final PageReader pages;
    private final ColumnDescriptor descriptor;
    private final DataType type;
    private final ParquetColumnType.Decoding decoding;
    /** Decimals of more than 18 digits, stored in bytes: two words a value. */
    private final boolean wide;
    private final ChunkDictionary dictionary; // null when the chunk has none
    private final org.apache.arrow.vector.types.pojo.Field arrowField;
    // The current page: values left, its levels and values.
    private int pageRemaining;
    private final PageLevels levels;
    private RleBitPackedDecoder ids; // non-null when the page is dictionary-encoded
    private ByteBuffer values; // PLAIN values copied as they are (strings, INT32, INT64, DOUBLE), little-endian
    private PageNumbers numbers; // other number pages
    private PageByteArrays byteArrays; // string pages in a delta encoding
    private long[] valueBuffer = new long[0];
    private long[] highBuffer = new long[0];
    private int[] idBuffer = new int[0];
    /** Where this column's pages are decompressed ({@link #littleEndian}), shared with the scan's other row groups. */
    private final PageArrays.Slot pageArray;

    ParquetPageDecoder(PageReader pages, ColumnDescriptor descriptor, ParquetColumnType columnType, String name,
            PageArrays.Slot pageArray) {
        this.pages = requireNonNull(pages, "pages is null");
        this.pageArray = requireNonNull(pageArray, "pageArray is null");
        this.arrowField = new Field(requireNonNull(name, "name is null"), columnType.type()).toArrow();
        this.descriptor = requireNonNull(descriptor, "descriptor is null");
        this.type = columnType.type();
        this.decoding = columnType.decoding();
        this.wide = decoding == ParquetColumnType.Decoding.DECIMAL_BYTES && type.isWideDecimal();
        if (!supports(columnType, descriptor, Set.of())) {
            throw new IllegalArgumentException("unsupported column " + descriptor);
        }
        this.levels = new PageLevels(descriptor);
        this.dictionary = ChunkDictionary.read(pages, descriptor, decoding, wide);
    }

    /** Whether this decoder reads a column of this type whose chunk uses {@code encodings}. */
    static boolean supports(ParquetColumnType type, ColumnDescriptor descriptor, Set<Encoding> encodings) {
        return descriptor.getMaxRepetitionLevel() == 0 && ENCODINGS.containsAll(encodings);
    }

    private void nextPage() {
        openPage(readPage());
    }

    private DataPage readPage() {
        DataPage page = pages.readPage();
        if (page == null) {
            throw new IllegalStateException("column " + descriptor + " has fewer values than its row group");
        }
        return page;
    }

    /** Makes {@code page} the current page: its levels and values ready to read. */
    private void openPage(DataPage page) {
        try {
            ByteBuffer data;
            Encoding encoding;
            if (page instanceof DataPageV1 v1) {
                data = littleEndian(v1.getBytes());
                encoding = v1.getValueEncoding();
                levels.openV1(v1, data);
            } else {
                DataPageV2 v2 = (DataPageV2) page;
                data = littleEndian(v2.getData());
                encoding = v2.getDataEncoding();
                levels.openV2(v2.getDefinitionLevels());
            }
            pageRemaining = page.getValueCount();
            ids = null;
            values = null;
            numbers = null;
            byteArrays = null;
            if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
                if (dictionary == null) {
                    throw new IllegalStateException("dictionary-encoded page without a dictionary");
                }
                int idWidth = data.get() & 0xFF;
                ids = new RleBitPackedDecoder(data.slice().order(ByteOrder.LITTLE_ENDIAN), idWidth);
            } else if (encoding == Encoding.PLAIN && copiesPlain()) {
                values = data.slice().order(ByteOrder.LITTLE_ENDIAN);
            } else if (decoding == ParquetColumnType.Decoding.STRING) {
                if (!PageByteArrays.takes(encoding)) {
                    throw new IllegalStateException("string values encoded " + encoding);
                }
                byteArrays = PageByteArrays.decode(encoding, data.slice().order(ByteOrder.LITTLE_ENDIAN));
            } else {
                numbers = PageNumbers.of(encoding, data.slice().order(ByteOrder.LITTLE_ENDIAN), descriptor, decoding);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a page of " + descriptor + ": " + e.getMessage(), e);
        }
    }

    /** Whether PLAIN values are read straight from the page: strings, and numbers stored in the vector's form. */
    private boolean copiesPlain() {
        return switch (decoding) {
            case STRING, INT32, INT64, DOUBLE -> true;
            default -> false;
        };
    }

    /**
     * A page's bytes, little-endian. A Snappy page is decompressed into the column's array of the
     * scan ({@link PageArrays}), reused from page to page and row group to row group (nothing reads
     * a page once the next is open): a new array for each page (over G1's humongous size for large
     * pages) was zeroed and page-faulted in.
     */
    private ByteBuffer littleEndian(BytesInput bytes) throws IOException {
        if (bytes instanceof PageCodecs.SnappyPage page) {
            int size = Math.toIntExact(page.size());
            byte[] pageBytes = pageArray.atLeast(size);
            page.decompressInto(pageBytes);
            return ByteBuffer.wrap(pageBytes, 0, size).slice().order(ByteOrder.LITTLE_ENDIAN);
        }
        return bytes.toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public void decode(int n, BufferAllocator allocator, Col[] cols, FieldVector[] vectors, int column) {
        vectors[column] = decoding == ParquetColumnType.Decoding.STRING ? decodeStrings(n, null, n, allocator)
                : decodeNumbers(n, null, n, allocator);
    }

    /** Only the selected rows: the values between them are passed over ({@link #skip}), never written. */
    @Override
    public void decodeSelected(int n, int[] selected, int count, BufferAllocator allocator, Col[] cols,
            FieldVector[] vectors, int column) {
        vectors[column] = decoding == ParquetColumnType.Decoding.STRING ? decodeStrings(n, selected, count, allocator)
                : decodeNumbers(n, selected, count, allocator);
    }

    /**
     * Passes over the next {@code n} rows: a page wholly inside them is not opened (its levels and
     * values are not read), dictionary ids are skipped a run at a time, fixed-width PLAIN values by
     * their offset, PLAIN strings by their lengths.
     */
    @Override
    public void skip(int n, BufferAllocator allocator) {
        int left = n;
        while (left > 0) {
            if (pageRemaining == 0) {
                DataPage page = readPage();
                if (page.getValueCount() <= left) {
                    left -= page.getValueCount();
                    continue;
                }
                openPage(page);
            }
            int take = Math.min(pageRemaining, left);
            skipValues(levels.read(0, take));
            pageRemaining -= take;
            left -= take;
        }
    }

    /** Passes over the next {@code count} non-NULL values of the current page. */
    private void skipValues(int count) {
        if (count == 0) {
            return;
        }
        if (ids != null) {
            ids.skip(count);
        } else if (numbers != null && wide) {
            numbers.readWide(values(count), highBuffer, count);
        } else if (numbers != null) {
            numbers.read(values(count), count);
        } else if (byteArrays != null) {
            byteArrays.skip(count);
        } else if (decoding == ParquetColumnType.Decoding.STRING) {
            ByteBuffer in = values;
            for (int i = 0; i < count; i++) {
                int length = in.getInt();
                in.position(in.position() + length);
            }
        } else {
            int plainWidth = decoding == ParquetColumnType.Decoding.INT32 ? Integer.BYTES : Long.BYTES;
            values.position(values.position() + count * plainWidth);
        }
    }

    /** Writes output rows {@code [at, at + count)} from the decoder's next rows. */
    private interface RunWriter {
        void write(int at, int count);
    }

    /**
     * Of the next {@code n} rows, writes rows {@code selected[0..count)} (or all {@code n} when
     * {@code selected} is null) as consecutive output rows: each run of consecutive selected rows is
     * written by {@code writer}, the rows between runs are skipped.
     */
    private void writeSelected(int n, int[] selected, int count, RunWriter writer) {
        if (selected == null) {
            writer.write(0, n);
            return;
        }
        int row = 0;
        int i = 0;
        while (i < count) {
            int j = i + 1;
            while (j < count && selected[j] == selected[j - 1] + 1) {
                j++;
            }
            skip(selected[i] - row, null);
            writer.write(i, j - i);
            row = selected[j - 1] + 1;
            i = j;
        }
        skip(n - row, null);
    }

    /** The dictionary ids of the next {@code count} values of the current (dictionary-encoded) page, in {@link #idBuffer}. */
    private void readIds(int count) {
        if (idBuffer.length < count) {
            idBuffer = new int[Math.max(count, 1024)];
        }
        ids.read(idBuffer, 0, count);
    }

    /** How many of the next {@code wanted} rows the current page holds, turning to the next page when it is used up. */
    private int rowsFromPage(int wanted) {
        if (pageRemaining == 0) {
            nextPage();
        }
        return Math.min(pageRemaining, wanted);
    }

    /**
     * Of the next {@code n} numbers, the selected ones ({@link #writeSelected}) as a new fixed-width
     * vector of the column's type from {@code allocator}, owned by the caller: dictionary values and
     * PLAIN values are written to the vector's buffer (a run of PLAIN values without NULLs whose
     * width the vector shares is one copy), a decimal as its 16-byte two's complement. Values under
     * NULL rows stay zero.
     */
    private FieldVector decodeNumbers(int n, int[] selected, int count, BufferAllocator allocator) {
        BaseFixedWidthVector vector = (BaseFixedWidthVector) arrowField.createVector(allocator);
        try {
            vector.allocateNew(count); // zeroed: every row NULL and 0 until written
            ArrowBuf validity = vector.getValidityBuffer();
            long data = vector.getDataBuffer().memoryAddress();
            int width = vector.getTypeWidth();
            writeSelected(n, selected, count, (at, rows) -> writeNumbers(validity, data, width, at, rows));
            vector.setValueCount(count);
            return vector;
        } catch (RuntimeException | Error e) {
            vector.close();
            throw e;
        }
    }

    /** The next {@code rows} numbers as rows {@code [from, from + rows)} of the vector at {@code data}. */
    private void writeNumbers(ArrowBuf validity, long data, int width, int from, int rows) {
        int n = from + rows;
        int at = from;
        while (at < n) {
            int take = rowsFromPage(n - at);
            // Rows [at, at + take) of this batch come from this page; present[0..count) lists the non-NULL ones.
            int count = levels.read(at, take);
            int[] present = levels.present();
            if (present == null) {
                FixedWidthRuns.setBits(validity, at, take);
            } else {
                for (int i = 0; i < count; i++) {
                    BitVectorHelper.setBit(validity, present[i]);
                }
            }
            long[] decoded = values(count);
            if (ids != null && !wide && FixedWidthRuns.scattersLookups(width)) {
                readIds(count);
                FixedWidthRuns.scatterLookups(data, width, present, at, dictionary.longs, idBuffer, count);
                decoded = null;
            } else if (ids != null) {
                readIds(count);
                FixedWidthRuns.gather(dictionary.longs, idBuffer, decoded, count);
                if (wide) {
                    FixedWidthRuns.gather(dictionary.highs, idBuffer, highBuffer, count);
                }
            } else if (numbers != null && wide) {
                numbers.readWide(decoded, highBuffer, count);
            } else if (numbers != null) {
                numbers.read(decoded, count);
            } else if (readPlainValues(count, present, at, data, width)) {
                decoded = null; // copied as they are
            }
            if (decoded != null && wide) {
                FixedWidthRuns.scatterWide(data, present, at, decoded, highBuffer, count);
            } else if (decoded != null) {
                FixedWidthRuns.scatter(data, width, present, at, decoded, count);
            }
            pageRemaining -= take;
            at += take;
        }
    }

    /** A buffer for {@code count} decoded values (and their high words, for 128-bit decimals). */
    private long[] values(int count) {
        if (valueBuffer.length < count) {
            valueBuffer = new long[Math.max(count, 1024)];
        }
        if (wide && highBuffer.length < count) {
            highBuffer = new long[Math.max(count, 1024)];
        }
        return valueBuffer;
    }

    /**
     * The next {@code count} PLAIN values of the page: copied into the vector at {@code data} when
     * they are its bytes (no NULL among them, the same width; returns true), else read into
     * {@link #valueBuffer} (returns false) for the caller to write.
     */
    private boolean readPlainValues(int count, int[] present, int at, long data, int width) {
        ByteBuffer in = values;
        int plainWidth = decoding == ParquetColumnType.Decoding.INT32 ? Integer.BYTES : Long.BYTES;
        int start = in.position();
        in.position(start + count * plainWidth);
        if (present == null && width == plainWidth && in.hasArray() && MemoryUtil.LITTLE_ENDIAN) {
            // the page's little-endian values are the vector's bytes
            MemoryUtil.copyToMemory(in.array(), in.arrayOffset() + start, data + (long) at * width, (long) count * width);
            return true;
        }
        long[] out = valueBuffer;
        if (plainWidth == Integer.BYTES) {
            for (int i = 0; i < count; i++) {
                out[i] = in.getInt(start + 4 * i);
            }
        } else {
            in.slice(start, count * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out, 0, count);
        }
        return false;
    }

    private static final long INITIAL_STRING_BYTES_CAP = 1L << 20;

    /** Of the next {@code n} strings, the selected ones ({@link #writeSelected}) as a new vector from {@code allocator}, owned by the caller. */
    private VarCharVector decodeStrings(int n, int[] selected, int count, BufferAllocator allocator) {
        // a first guess only, capped: each page reserves exactly what its rows need (one long
        // dictionary entry must not size every batch by the dictionary's average)
        long guess = dictionary == null ? 16L * count : (long) count * (dictionary.averageStringBytes() + 1);
        Utf8Writer out = new Utf8Writer(arrowField, allocator, count, Math.min(guess, INITIAL_STRING_BYTES_CAP));
        try {
            writeSelected(n, selected, count, (at, rows) -> writeStrings(out, at, rows));
            return out.finish(count);
        } catch (RuntimeException | Error e) {
            out.vector.close();
            throw e;
        }
    }

    /** The next {@code rows} strings as rows {@code [from, from + rows)} of {@code out}. */
    private void writeStrings(Utf8Writer out, int from, int rows) {
        int n = from + rows;
        int at = from;
        while (at < n) {
            int take = rowsFromPage(n - at);
            int count = levels.read(at, take);
            int[] present = levels.present();
            if (ids != null) {
                readIds(count);
                int[] idValues = idBuffer;
                int[] offsets = dictionary.offsets;
                long bytes = 0;
                for (int i = 0; i < count; i++) {
                    int id = idValues[i];
                    bytes += offsets[id + 1] - offsets[id];
                }
                out.reserve(bytes + Long.BYTES); // a short entry is written as a whole word
                byte[] entries = dictionary.bytes;
                if (present == null) {
                    out.putDictionaryRun(at, count, idValues, entries, offsets, dictionary.words);
                } else {
                    for (int i = 0; i < count; i++) {
                        int id = idValues[i];
                        out.put(present[i], entries, offsets[id], offsets[id + 1] - offsets[id]);
                    }
                }
            } else if (byteArrays != null) {
                PageByteArrays page = byteArrays;
                out.reserve(page.bytesOfNext(count));
                if (present == null) {
                    out.putContiguousRun(at, count, page.bytes, page.offsets, page.take(count));
                }
                for (int i = 0; present != null && i < count; i++) {
                    int v = page.next();
                    out.put(row(present, at, i), page.bytes, page.offsets[v], page.length(v));
                }
            } else {
                ByteBuffer in = values;
                // A first pass over the lengths sizes the data buffer once for this run of values.
                int start = in.position();
                long bytes = 0;
                int p = start;
                for (int i = 0; i < count; i++) {
                    int length = in.getInt(p);
                    if (length < 0 || length > in.limit() - p - 4) {
                        throw new IllegalStateException("a PLAIN value of " + length + " bytes where the page has "
                                + (in.limit() - p - 4) + " left");
                    }
                    bytes += length;
                    p += 4 + length;
                }
                out.reserve(bytes);
                if (present == null && in.hasArray()) { // one loop over the page's array, no call per value
                    in.position(out.putPlainRun(at, count, in.array(), in.arrayOffset() + start) - in.arrayOffset());
                } else if (in.hasArray()) { // bytes copied from the array: no ByteBuffer view per value
                    byte[] array = in.array();
                    int base = in.arrayOffset();
                    for (int i = 0; i < count; i++) {
                        int length = in.getInt();
                        out.put(row(present, at, i), array, base + in.position(), length);
                        in.position(in.position() + length);
                    }
                } else {
                    for (int i = 0; i < count; i++) {
                        int length = in.getInt();
                        out.put(row(present, at, i), in, in.position(), length);
                        in.position(in.position() + length);
                    }
                }
            }
            pageRemaining -= take;
            at += take;
        }
    }

    /** Row of the {@code i}-th non-NULL value: {@code present[i]}, or {@code at + i} when all are present. */
    private static int row(int[] present, int at, int i) {
        return present == null ? at + i : present[i];
    }
}
