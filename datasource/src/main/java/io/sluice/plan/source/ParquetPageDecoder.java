package io.sluice.plan.source;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Col;
import io.sluice.plan.types.DataType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.ValuesType;

/**
 * Decodes a flat INT32, INT64, DOUBLE or string column straight from its pages, a batch of values
 * per loop: definition levels and dictionary ids are unpacked a run at a time, dictionaries are
 * decoded once into primitive (or String) arrays, PLAIN values are read from the page buffer.
 * Covers the encodings parquet-mr and most writers produce (PLAIN, dictionary, RLE levels);
 * {@link #supports} tells which column chunks it can read, the rest go to {@link ParquetColumnDecoder}.
 */
final class ParquetPageDecoder implements ColumnChunkDecoder {
    // BIT_PACKED is a level encoding (parquet-mr lists it for levels a column does not have).
    private static final Set<Encoding> ENCODINGS = Set.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY,
            Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.BIT_PACKED);

    private final PageReader pages;
    private final ColumnDescriptor descriptor;
    private final DataType type;
    private final ParquetColumnType.Decoding decoding;
    private final int maxDefinitionLevel;
    private long[] dictionaryLongs;
    private double[] dictionaryDoubles;
    private String[] dictionaryStrings;
    // The current page: values left, its levels and values.
    private int pageRemaining;
    private LevelReader levels;
    private RleBitPackedDecoder ids; // non-null when the page is dictionary-encoded
    private ByteBuffer values; // PLAIN values, little-endian
    private int[] levelBuffer = new int[0];
    private int[] idBuffer = new int[0];

    ParquetPageDecoder(PageReader pages, ColumnDescriptor descriptor, ParquetColumnType columnType) {
        this.pages = requireNonNull(pages, "pages is null");
        this.descriptor = requireNonNull(descriptor, "descriptor is null");
        this.type = columnType.type();
        this.decoding = columnType.decoding();
        this.maxDefinitionLevel = descriptor.getMaxDefinitionLevel();
        if (!supports(columnType, descriptor, Set.of())) {
            throw new IllegalArgumentException("unsupported column " + descriptor);
        }
        readDictionary();
    }

    /** Whether this decoder reads a column of this type whose chunk uses {@code encodings}. */
    static boolean supports(ParquetColumnType type, ColumnDescriptor descriptor, Set<Encoding> encodings) {
        return switch (type.decoding()) {
            case INT32, INT64, DOUBLE, STRING -> descriptor.getMaxRepetitionLevel() == 0
                    && ENCODINGS.containsAll(encodings);
            default -> false;
        };
    }

    private void readDictionary() {
        DictionaryPage page = pages.readDictionaryPage();
        if (page == null) {
            return;
        }
        try {
            Dictionary dictionary = page.getEncoding().initDictionary(descriptor, page);
            int size = dictionary.getMaxId() + 1;
            switch (decoding) {
                case INT32 -> {
                    dictionaryLongs = new long[size];
                    for (int i = 0; i < size; i++) {
                        dictionaryLongs[i] = dictionary.decodeToInt(i);
                    }
                }
                case INT64 -> {
                    dictionaryLongs = new long[size];
                    for (int i = 0; i < size; i++) {
                        dictionaryLongs[i] = dictionary.decodeToLong(i);
                    }
                }
                case DOUBLE -> {
                    dictionaryDoubles = new double[size];
                    for (int i = 0; i < size; i++) {
                        dictionaryDoubles[i] = dictionary.decodeToDouble(i);
                    }
                }
                case STRING -> {
                    dictionaryStrings = new String[size];
                    for (int i = 0; i < size; i++) {
                        dictionaryStrings[i] = dictionary.decodeToBinary(i).toStringUsingUTF8();
                    }
                }
                default -> throw new IllegalStateException("unhandled decoding " + decoding);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dictionary of " + descriptor, e);
        }
    }

    private void nextPage() {
        DataPage page = pages.readPage();
        if (page == null) {
            throw new IllegalStateException("column " + descriptor + " has fewer values than its row group");
        }
        try {
            ByteBuffer data;
            Encoding encoding;
            int levelWidth = BytesUtils.getWidthFromMaxInt(maxDefinitionLevel);
            if (page instanceof DataPageV1 v1) {
                data = littleEndian(v1.getBytes());
                encoding = v1.getValueEncoding();
                levels = null;
                if (maxDefinitionLevel > 0 && v1.getDlEncoding() == Encoding.RLE) {
                    int length = data.getInt();
                    ByteBuffer levelBytes = data.slice().order(ByteOrder.LITTLE_ENDIAN);
                    levelBytes.limit(length);
                    data.position(data.position() + length);
                    levels = new RleBitPackedDecoder(levelBytes, levelWidth)::read;
                } else if (maxDefinitionLevel > 0) {
                    // Another level encoding (the deprecated BIT_PACKED): parquet-mr's reader, a value at a time.
                    ValuesReader reader = v1.getDlEncoding().getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL);
                    ByteBufferInputStream in = ByteBufferInputStream.wrap(data);
                    reader.initFromPage(page.getValueCount(), in);
                    data.position(data.position() + (int) in.position());
                    levels = (out, from, count) -> {
                        for (int i = from; i < from + count; i++) {
                            out[i] = reader.readInteger();
                        }
                    };
                }
            } else {
                DataPageV2 v2 = (DataPageV2) page;
                data = littleEndian(v2.getData());
                encoding = v2.getDataEncoding();
                levels = maxDefinitionLevel > 0
                        ? new RleBitPackedDecoder(littleEndian(v2.getDefinitionLevels()), levelWidth)::read : null;
            }
            pageRemaining = page.getValueCount();
            if (encoding == Encoding.PLAIN) {
                ids = null;
                values = data.slice().order(ByteOrder.LITTLE_ENDIAN);
            } else if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
                if (dictionaryLongs == null && dictionaryDoubles == null && dictionaryStrings == null) {
                    throw new IllegalStateException("dictionary-encoded page without a dictionary");
                }
                int idWidth = data.get() & 0xFF;
                ids = new RleBitPackedDecoder(data.slice(), idWidth);
                values = null;
            } else {
                throw new IllegalStateException("values encoded " + encoding);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a page of " + descriptor, e);
        }
    }

    /** Definition levels of a page, decoded a run of rows at a time. */
    private interface LevelReader {
        void read(int[] out, int from, int count);
    }

    private static ByteBuffer littleEndian(BytesInput bytes) throws IOException {
        return bytes.toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public Col decode(int n) {
        boolean[] nulls = null;
        long[] longs = null;
        double[] doubles = null;
        String[] strings = null;
        switch (decoding) {
            case INT32, INT64 -> longs = new long[n];
            case DOUBLE -> doubles = new double[n];
            default -> strings = new String[n];
        }
        int at = 0;
        while (at < n) {
            if (pageRemaining == 0) {
                nextPage();
            }
            int take = Math.min(pageRemaining, n - at);
            // Rows [at, at + take) of this batch come from this page; present[0..count) lists the non-NULL ones.
            int count = take;
            int[] present = null;
            if (levels != null) {
                if (levelBuffer.length < take) {
                    levelBuffer = new int[Math.max(take, 1024)];
                }
                levels.read(levelBuffer, 0, take);
                count = 0;
                for (int i = 0; i < take; i++) {
                    count += levelBuffer[i] == maxDefinitionLevel ? 1 : 0;
                }
                if (count < take) {
                    if (nulls == null) {
                        nulls = new boolean[n];
                    }
                    present = new int[count];
                    int p = 0;
                    for (int i = 0; i < take; i++) {
                        if (levelBuffer[i] == maxDefinitionLevel) {
                            present[p++] = at + i;
                        } else {
                            nulls[at + i] = true;
                        }
                    }
                }
            }
            if (ids != null) {
                if (idBuffer.length < count) {
                    idBuffer = new int[Math.max(count, 1024)];
                }
                ids.read(idBuffer, 0, count);
                readDictionaryValues(idBuffer, count, present, at, longs, doubles, strings);
            } else {
                readPlainValues(count, present, at, longs, doubles, strings);
            }
            pageRemaining -= take;
            at += take;
        }
        return switch (decoding) {
            case INT32, INT64 -> Col.ofLongs(type, longs, nulls);
            case DOUBLE -> Col.ofDoubles(doubles, nulls);
            default -> Col.ofStrings(strings, nulls);
        };
    }

    /** Row of the {@code i}-th non-NULL value: {@code present[i]}, or {@code at + i} when all are present. */
    private static int row(int[] present, int at, int i) {
        return present == null ? at + i : present[i];
    }

    private void readDictionaryValues(int[] idValues, int count, int[] present, int at, long[] longs,
            double[] doubles, String[] strings) {
        switch (decoding) {
            case INT32, INT64 -> {
                long[] dictionary = dictionaryLongs;
                for (int i = 0; i < count; i++) {
                    longs[row(present, at, i)] = dictionary[idValues[i]];
                }
            }
            case DOUBLE -> {
                double[] dictionary = dictionaryDoubles;
                for (int i = 0; i < count; i++) {
                    doubles[row(present, at, i)] = dictionary[idValues[i]];
                }
            }
            default -> {
                String[] dictionary = dictionaryStrings;
                for (int i = 0; i < count; i++) {
                    strings[row(present, at, i)] = dictionary[idValues[i]];
                }
            }
        }
    }

    private void readPlainValues(int count, int[] present, int at, long[] longs, double[] doubles, String[] strings) {
        ByteBuffer in = values;
        switch (decoding) {
            case INT32 -> {
                for (int i = 0; i < count; i++) {
                    longs[row(present, at, i)] = in.getInt();
                }
            }
            case INT64 -> {
                for (int i = 0; i < count; i++) {
                    longs[row(present, at, i)] = in.getLong();
                }
            }
            case DOUBLE -> {
                for (int i = 0; i < count; i++) {
                    doubles[row(present, at, i)] = in.getDouble();
                }
            }
            default -> {
                for (int i = 0; i < count; i++) {
                    int length = in.getInt();
                    String value;
                    if (in.hasArray()) {
                        value = new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
                    } else {
                        byte[] bytes = new byte[length];
                        in.get(in.position(), bytes);
                        value = new String(bytes, StandardCharsets.UTF_8);
                    }
                    in.position(in.position() + length);
                    strings[row(present, at, i)] = value;
                }
            }
        }
    }
}
