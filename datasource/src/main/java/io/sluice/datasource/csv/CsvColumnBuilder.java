package io.sluice.datasource.csv;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.datasource.file.Utf8Encoding;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Parses one column of a CSV batch straight into an Arrow vector of the column's type, allocated
 * from the task's allocator (so the task's memory limit counts it, as it counts a Parquet scan's
 * vectors): integers, dates, timestamps and decimals into their fixed-width slots, booleans into
 * bits, strings as UTF-8 bytes encoded from the tokenizer's chars with no {@code String} per value.
 * The first batch's buffers start at 1,024 rows (fewer when the batch size is smaller) and double
 * up to the batch size, so a small file never pays for a large batch size; later batches start at
 * the size the one before reached. {@link #build()} hands the vector over; {@link #close()} frees
 * one that was not handed over (a stream closed or failed half way through a batch).
 */
final class CsvColumnBuilder implements AutoCloseable {
    private static final int INITIAL_CAPACITY = 1024;
    /** The first batch's guess of a string's UTF-8 bytes; later batches use what the one before held. */
    private static final int INITIAL_BYTES_PER_STRING = 16;
    private static final int MAX_VALUE_IN_MESSAGE = 100;

    private final String name;
    private final DataType type;
    private final DataType.Kind kind;
    private final org.apache.arrow.vector.types.pojo.Field arrowField;
    private final BufferAllocator allocator;
    private final int maxRows;
    private final CsvValues values;

    /** The vector being filled; null between a {@link #build} and the next append. */
    private FieldVector vector;
    private long data; // address of the values (fixed width, bits) or the string bytes
    private long validity;
    private long offsets; // strings only
    private long dataBytes; // strings: the data buffer's capacity in bytes
    private int capacity; // rows the buffers hold
    private int size;
    private int stringBytes; // strings: bytes written
    private int startRows;
    private long startBytes;
    /** The non-ASCII rest of a string, encoded here before it is copied to the vector. */
    private byte[] scratch = new byte[256];

    CsvColumnBuilder(String name, DataType type, int maxRows, CsvValues values, BufferAllocator allocator) {
        this.name = requireNonNull(name, "name is null");
        this.type = requireNonNull(type, "type is null");
        this.values = requireNonNull(values, "values is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be positive: " + maxRows);
        }
        if (type.isNested()) {
            throw new SluiceException("CSV column '" + name + "' cannot be of the nested type " + type.sqlName());
        }
        this.kind = type.kind();
        this.arrowField = type.toArrowField(name);
        this.maxRows = maxRows;
        this.startRows = Math.min(maxRows, INITIAL_CAPACITY);
        this.startBytes = (long) startRows * INITIAL_BYTES_PER_STRING;
    }

    /**
     * Appends field {@code field} of the tokenizer's current record, or NULL if the record has no
     * such field; false (and nothing appended) when the text is not a value of the column's type.
     */
    boolean append(CsvTokenizer record, int field) {
        if (field >= record.fieldCount() || record.isNull(field)) {
            appendNull();
            return true;
        }
        if (size == capacity) {
            grow();
        }
        char[] c = record.chars();
        int start = record.start(field);
        int end = record.end(field);
        int row = size;
        switch (kind) {
            case INT64 -> {
                if (!values.parseLong(c, start, end)) {
                    return false;
                }
                MemoryUtil.putLong(data + 8L * row, values.longValue);
            }
            case INT32 -> {
                if (!values.parseInt(c, start, end)) {
                    return false;
                }
                MemoryUtil.putInt(data + 4L * row, (int) values.longValue);
            }
            case DATE32 -> {
                if (!values.parseDate(c, start, end)) {
                    return false;
                }
                MemoryUtil.putInt(data + 4L * row, (int) values.longValue);
            }
            case TIMESTAMP -> {
                if (!values.parseTimestamp(c, start, end)) {
                    return false;
                }
                MemoryUtil.putLong(data + 8L * row, values.longValue);
            }
            case DECIMAL -> {
                if (!values.parseDecimal(c, start, end, type.precision(), type.scale())) {
                    return false;
                }
                long low = values.longValue;
                MemoryUtil.putLong(data + 16L * row, low);
                MemoryUtil.putLong(data + 16L * row + 8, type.isWideDecimal() ? values.highValue : low >> 63);
            }
            case FLOAT64 -> {
                if (!values.parseDouble(c, start, end)) {
                    return false;
                }
                MemoryUtil.putLong(data + 8L * row, Double.doubleToRawLongBits(values.doubleValue));
            }
            case BOOL -> {
                if (!values.parseBool(c, start, end)) {
                    return false;
                }
                setBit(data, row, values.longValue != 0);
            }
            case UTF8 -> appendString(c, start, end);
            case NULL, STRUCT, LIST, MAP -> {
                return false;
            }
        }
        setBit(validity, row, true);
        size = row + 1;
        return true;
    }

    /** Appends a NULL: its validity bit stays clear (buffers start zeroed and {@link #truncate} clears what it drops). */
    void appendNull() {
        if (size == capacity) {
            grow();
        }
        if (offsets != 0) {
            MemoryUtil.putInt(offsets + 4L * (size + 1), stringBytes);
        }
        size++;
    }

    /** Drops the values appended after the first {@code keep} (a row given up half way). */
    void truncate(int keep) {
        for (int row = keep; row < size && validity != 0; row++) {
            setBit(validity, row, false);
        }
        if (offsets != 0 && keep < size) {
            stringBytes = MemoryUtil.getInt(offsets + 4L * keep);
        }
        size = keep;
    }

    /** Writes the string's UTF-8 bytes: an ASCII prefix byte by byte, the rest through {@link Utf8Encoding}. */
    private void appendString(char[] c, int start, int end) {
        long room = (long) Utf8Encoding.MAX_BYTES_PER_CHAR * (end - start);
        if (stringBytes + room > dataBytes) {
            growStringBytes(stringBytes + room);
        }
        long at = data + stringBytes;
        int i = start;
        while (i < end) {
            char ch = c[i];
            if (ch >= 0x80) {
                break;
            }
            MemoryUtil.putByte(at++, (byte) ch);
            i++;
        }
        if (i < end) {
            if (scratch.length < room) {
                scratch = new byte[(int) Math.max(room, 2L * scratch.length)];
            }
            int length = Utf8Encoding.encode(c, i, end, scratch, 0);
            MemoryUtil.copyToMemory(scratch, 0, at, length);
            at += length;
        }
        stringBytes = (int) (at - data);
        MemoryUtil.putInt(offsets + 4L * (size + 1), stringBytes);
    }

    private static void setBit(long bits, int row, boolean value) {
        long address = bits + (row >>> 3);
        byte current = MemoryUtil.getByte(address);
        int mask = 1 << (row & 7);
        MemoryUtil.putByte(address, (byte) (value ? current | mask : current & ~mask));
    }

    /** The error for field {@code field} of the current record, which {@link #append} refused: it names file, line, column and value. */
    SluiceException badValue(CsvTokenizer record, int field, String file) {
        String text = record.text(field);
        if (text.length() > MAX_VALUE_IN_MESSAGE) {
            text = text.substring(0, MAX_VALUE_IN_MESSAGE) + "...";
        }
        return new SluiceException(file + ": line " + record.line() + ", column '" + name + "': cannot parse '" + text
                + "' as " + type);
    }

    /** Starts a vector of {@link #startRows} rows, or doubles the rows of the one being filled (at most to the batch size). */
    private void grow() {
        if (vector == null) {
            FieldVector created = arrowField.createVector(allocator);
            try {
                if (created instanceof BaseVariableWidthVector strings) {
                    strings.allocateNew(Math.max(startBytes, 64), startRows);
                } else if (created instanceof BaseFixedWidthVector fixed) {
                    fixed.allocateNew(startRows);
                }
            } catch (RuntimeException | Error e) {
                created.close();
                throw e;
            }
            vector = created;
            if (created instanceof BaseVariableWidthVector || created instanceof BaseFixedWidthVector) {
                ArrowBuf bits = created.getValidityBuffer();
                bits.setZero(0, bits.capacity());
            }
            if (created instanceof BaseVariableWidthVector) {
                created.getOffsetBuffer().setInt(0, 0);
            }
        } else if (vector instanceof BaseVariableWidthVector strings) {
            strings.reallocValidityAndOffsetBuffers();
        } else if (vector instanceof BaseFixedWidthVector fixed) {
            fixed.reAlloc();
        }
        bind();
    }

    /** Makes the string bytes hold {@code needed} bytes (the vector exists: {@link #append} made it). */
    private void growStringBytes(long needed) {
        if (needed > Integer.MAX_VALUE) {
            throw new SluiceException("CSV column '" + name + "': a batch of strings over 2 GB; lower the batch size");
        }
        ((BaseVariableWidthVector) vector).reallocDataBuffer(Math.max(needed, Math.min(Integer.MAX_VALUE, 2 * dataBytes)));
        bind();
    }

    /** Reads the buffers' addresses and capacity after an allocation. */
    private void bind() {
        if (vector instanceof BaseVariableWidthVector strings) {
            data = strings.getDataBuffer().memoryAddress();
            dataBytes = strings.getDataBuffer().capacity();
            offsets = strings.getOffsetBuffer().memoryAddress();
            validity = strings.getValidityBuffer().memoryAddress();
            capacity = Math.min(maxRows, strings.getValueCapacity());
        } else if (vector instanceof BaseFixedWidthVector fixed) {
            data = fixed.getDataBuffer().memoryAddress();
            validity = fixed.getValidityBuffer().memoryAddress();
            capacity = Math.min(maxRows, fixed.getValueCapacity());
        } else {
            capacity = maxRows; // a NULL column: no buffers
        }
    }

    int size() {
        return size;
    }

    /** The values appended since the last build as a vector the caller now owns; the next append starts a new one. */
    FieldVector build() {
        if (vector == null) {
            grow(); // no row appended: an empty vector
        }
        int n = size;
        if (vector instanceof BaseVariableWidthVector strings) {
            strings.setLastSet(n - 1);
            startBytes = Math.max(startBytes, stringBytes + stringBytes / 8);
        }
        vector.setValueCount(n);
        FieldVector out = vector;
        vector = null;
        startRows = Math.max(startRows, Math.min(maxRows, n));
        size = 0;
        capacity = 0;
        stringBytes = 0;
        data = validity = offsets = dataBytes = 0;
        return out;
    }

    /** Frees the vector being filled, if any. */
    @Override
    public void close() {
        if (vector != null) {
            vector.close();
            vector = null;
            capacity = 0;
            size = 0;
        }
    }
}
