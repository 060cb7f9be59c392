package io.sluice.datasource.sink;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TemporalValues;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.kernels.VectorReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Writes batches to one Snappy-compressed Parquet file with the types the Parquet scan reads back
 * unchanged: INT32, INT64, DOUBLE, BOOLEAN, strings as BINARY (STRING), dates as INT32 (DATE) and
 * decimals as INT64 (DECIMAL(p, s)) up to precision 18 and as 16-byte FIXED_LEN_BYTE_ARRAY (big-endian
 * two's complement, as Spark and DuckDB write them) from 19 to 38; every column optional, NULLs as absent values. A column typed
 * NULL (an untyped {@code SELECT NULL}) has no Parquet type and is refused, naming it. Nested columns are
 * the standard 3-level groups ({@link #parquetType}), which every reader (and the Parquet scan) reads back.
 */
final class ParquetPartitionWriter implements PartitionFileWriter {
    private final ParquetWriter<RowRef> writer;
    private final RowRef row = new RowRef();

    ParquetPartitionWriter(Schema schema, Path file, Configuration conf) throws IOException {
        MessageType type = messageType(schema);
        this.writer = new Builder(HadoopOutputFile.fromPath(file, conf), new BatchWriteSupport(schema, type))
                .withConf(conf)
                .withWriteMode(ParquetFileWriter.Mode.CREATE)
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .build();
    }

    /** The Parquet schema of a Sluice schema; fails naming a column that has no Parquet type. */
    static MessageType messageType(Schema schema) {
        List<Type> fields = new ArrayList<>();
        for (Field f : schema.fields()) {
            fields.add(parquetType(f.name(), f.type(), Type.Repetition.OPTIONAL, f.name()));
        }
        return new MessageType("sluice", fields);
    }

    /**
     * The Parquet field of one value; nested types as the Parquet format's standard groups: a
     * struct a group of its fields, a list a LIST group of a repeated {@code list} group holding an
     * optional {@code element}, a map a MAP group of a repeated {@code key_value} group of a required
     * {@code key} and an optional {@code value}. {@code column} is named in errors.
     */
    private static Type parquetType(String name, DataType t, Type.Repetition repetition, String column) {
        return switch (t.kind()) {
            case BOOL -> Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
            case INT32 -> Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
            case INT64 -> Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
            case FLOAT64 -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
            case DATE32 -> Types.primitive(PrimitiveTypeName.INT32, repetition).as(LogicalTypeAnnotation.dateType()).named(name);
            case DECIMAL -> (t.isWideDecimal()
                    ? Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition).length(16)
                    : Types.primitive(PrimitiveTypeName.INT64, repetition))
                    .as(LogicalTypeAnnotation.decimalType(t.scale(), t.precision())).named(name);
            case TIMESTAMP -> Types.primitive(PrimitiveTypeName.INT64, repetition)
                    .as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS)).named(name);
            case UTF8 -> Types.primitive(PrimitiveTypeName.BINARY, repetition).as(LogicalTypeAnnotation.stringType()).named(name);
            case NULL -> throw new SluiceException("column '" + column + "' has no type (an untyped NULL); "
                    + "cast it, e.g. CAST(NULL AS INT), to write it as Parquet");
            case STRUCT -> {
                if (t.fields().isEmpty()) {
                    throw new SluiceException("column '" + column + "' is a STRUCT without fields, which Parquet cannot hold");
                }
                List<Type> children = new ArrayList<>();
                for (Field f : t.fields()) {
                    children.add(parquetType(f.name(), f.type(), Type.Repetition.OPTIONAL, column));
                }
                yield new GroupType(repetition, name, children);
            }
            case LIST -> Types.buildGroup(repetition).as(LogicalTypeAnnotation.listType())
                    .addField(new GroupType(Type.Repetition.REPEATED, "list",
                            parquetType("element", t.elementType(), Type.Repetition.OPTIONAL, column)))
                    .named(name);
            case MAP -> Types.buildGroup(repetition).as(LogicalTypeAnnotation.mapType())
                    .addField(new GroupType(Type.Repetition.REPEATED, "key_value",
                            parquetType("key", t.keyType(), Type.Repetition.REQUIRED, column),
                            parquetType("value", t.valueType(), Type.Repetition.OPTIONAL, column)))
                    .named(name);
        };
    }

    @Override
    public void write(Batch batch) throws IOException {
        row.columns = VectorReader.all(batch);
        int rows = batch.rowCount();
        for (int r = 0; r < rows; r++) {
            row.row = r;
            writer.write(row);
        }
        row.columns = null;
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    /** The row being written: a position in the current batch's columns (one reused instance). */
    private static final class RowRef {
        VectorReader[] columns;
        int row;
    }

    private static final class BatchWriteSupport extends WriteSupport<RowRef> {
        private final MessageType type;
        private final String[] names;
        private final DataType.Kind[] kinds;
        private final DataType[] types;
        private final boolean[] wide;
        private RecordConsumer consumer;

        BatchWriteSupport(Schema schema, MessageType type) {
            this.type = type;
            this.names = new String[schema.size()];
            this.kinds = new DataType.Kind[schema.size()];
            this.types = new DataType[schema.size()];
            this.wide = new boolean[schema.size()];
            for (int i = 0; i < schema.size(); i++) {
                wide[i] = schema.fields().get(i).type().isWideDecimal();
                names[i] = schema.fields().get(i).name();
                kinds[i] = schema.fields().get(i).type().kind();
                types[i] = schema.fields().get(i).type();
            }
        }

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(type, new HashMap<>());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.consumer = recordConsumer;
        }

        @Override
        public void write(RowRef ref) {
            int r = ref.row;
            consumer.startMessage();
            for (int i = 0; i < names.length; i++) {
                VectorReader c = ref.columns[i];
                if (c.isNull(r)) {
                    continue;
                }
                consumer.startField(names[i], i);
                switch (kinds[i]) {
                    case BOOL -> consumer.addBoolean(c.boolAt(r));
                    case INT32, DATE32 -> consumer.addInteger((int) c.longAt(r));
                    case DECIMAL -> {
                        if (wide[i]) {
                            consumer.addBinary(wideBinary(c.highAt(r), c.lowAt(r)));
                        } else {
                            consumer.addLong(c.longAt(r));
                        }
                    }
                    case INT64, TIMESTAMP -> consumer.addLong(c.longAt(r));
                    case FLOAT64 -> consumer.addDouble(c.doubleAt(r));
                    case UTF8 -> {
                        // "Reused": parquet copies what it keeps (dictionary entries, statistics), so
                        // the batch's byte array is not held past this call.
                        Utf8Bytes bytes = c.utf8();
                        consumer.addBinary(Binary.fromReusedByteArray(bytes.data(), bytes.start(r),
                                bytes.end(r) - bytes.start(r)));
                    }
                    case STRUCT, LIST, MAP -> writeNested(types[i], c.objectAt(r));
                    case NULL -> throw new IllegalStateException("a NULL column has a value");
                }
                consumer.endField(names[i], i);
            }
            consumer.endMessage();
        }

        /** A nested value in its Java form ({@code io.sluice.kernels.NestedValues}), as the groups {@link #parquetType} declares. */
        private void writeNested(DataType type, Object value) {
            consumer.startGroup();
            switch (type.kind()) {
                case STRUCT -> {
                    Map<?, ?> struct = (Map<?, ?>) value;
                    List<Field> fields = type.fields();
                    for (int j = 0; j < fields.size(); j++) {
                        writeField(fields.get(j).name(), j, fields.get(j).type(), struct.get(fields.get(j).name()));
                    }
                }
                case LIST -> {
                    List<?> list = (List<?>) value;
                    if (!list.isEmpty()) {
                        consumer.startField("list", 0);
                        for (Object element : list) {
                            consumer.startGroup();
                            writeField("element", 0, type.elementType(), element);
                            consumer.endGroup();
                        }
                        consumer.endField("list", 0);
                    }
                }
                default -> {
                    Map<?, ?> map = (Map<?, ?>) value;
                    if (!map.isEmpty()) {
                        consumer.startField("key_value", 0);
                        for (Map.Entry<?, ?> e : map.entrySet()) {
                            consumer.startGroup();
                            writeField("key", 0, type.keyType(), e.getKey());
                            writeField("value", 1, type.valueType(), e.getValue());
                            consumer.endGroup();
                        }
                        consumer.endField("key_value", 0);
                    }
                }
            }
            consumer.endGroup();
        }

        /** One field of a group; a NULL value is an absent field. */
        private void writeField(String name, int index, DataType type, Object value) {
            if (value == null) {
                return;
            }
            consumer.startField(name, index);
            switch (type.kind()) {
                case STRUCT, LIST, MAP -> writeNested(type, value);
                case BOOL -> consumer.addBoolean((Boolean) value);
                case INT32 -> consumer.addInteger(((Number) value).intValue());
                case INT64 -> consumer.addLong(((Number) value).longValue());
                case FLOAT64 -> consumer.addDouble(((Number) value).doubleValue());
                case DATE32 -> consumer.addInteger((int) ((LocalDate) value).toEpochDay());
                case TIMESTAMP -> consumer.addLong(TemporalValues.of((LocalDateTime) value));
                case UTF8 -> consumer.addBinary(Binary.fromString((String) value));
                case DECIMAL -> {
                    BigInteger unscaled = ((BigDecimal) value).setScale(type.scale()).unscaledValue();
                    if (type.isWideDecimal()) {
                        consumer.addBinary(wideBinary(unscaled.shiftRight(64).longValue(), unscaled.longValue()));
                    } else {
                        consumer.addLong(unscaled.longValueExact());
                    }
                }
                case NULL -> throw new IllegalStateException("a NULL-typed field has a value");
            }
            consumer.endField(name, index);
        }

        /** A 128-bit value as 16 big-endian bytes. */
        private static Binary wideBinary(long high, long low) {
            byte[] wideBytes = new byte[16];
            for (int b = 0; b < 8; b++) {
                wideBytes[b] = (byte) (high >>> (56 - 8 * b));
                wideBytes[8 + b] = (byte) (low >>> (56 - 8 * b));
            }
            return Binary.fromConstantByteArray(wideBytes);
        }
    }

    private static final class Builder extends ParquetWriter.Builder<RowRef, Builder> {
        private final WriteSupport<RowRef> support;

        Builder(OutputFile file, WriteSupport<RowRef> support) {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<RowRef> getWriteSupport(Configuration configuration) {
            return support;
        }
    }
}
