package io.sluice.datasource.sink;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
 * NULL (an untyped {@code SELECT NULL}) has no Parquet type and is refused, naming it.
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
            DataType t = f.type();
            fields.add(switch (t.kind()) {
                case BOOL -> Types.optional(PrimitiveTypeName.BOOLEAN).named(f.name());
                case INT32 -> Types.optional(PrimitiveTypeName.INT32).named(f.name());
                case INT64 -> Types.optional(PrimitiveTypeName.INT64).named(f.name());
                case FLOAT64 -> Types.optional(PrimitiveTypeName.DOUBLE).named(f.name());
                case DATE32 -> Types.optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.dateType()).named(f.name());
                case DECIMAL -> (t.isWideDecimal()
                        ? Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(16)
                        : Types.optional(PrimitiveTypeName.INT64))
                        .as(LogicalTypeAnnotation.decimalType(t.scale(), t.precision())).named(f.name());
                case TIMESTAMP -> Types.optional(PrimitiveTypeName.INT64)
                        .as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS)).named(f.name());
                case UTF8 -> Types.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(f.name());
                case NULL -> throw new SluiceException("column '" + f.name() + "' has no type (an untyped NULL); "
                        + "cast it, e.g. CAST(NULL AS INT), to write it as Parquet");
                case STRUCT, LIST, MAP -> throw new SluiceException("column '" + f.name() + "' of type " + t.sqlName()
                        + " cannot be written as Parquet yet");
            });
        }
        return new MessageType("sluice", fields);
    }

    @Override
    public void write(Batch batch) throws IOException {
        row.columns = batch.columns();
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
        Col[] columns;
        int row;
    }

    private static final class BatchWriteSupport extends WriteSupport<RowRef> {
        private final MessageType type;
        private final String[] names;
        private final DataType.Kind[] kinds;
        private final boolean[] wide;
        private RecordConsumer consumer;

        BatchWriteSupport(Schema schema, MessageType type) {
            this.type = type;
            this.names = new String[schema.size()];
            this.kinds = new DataType.Kind[schema.size()];
            this.wide = new boolean[schema.size()];
            for (int i = 0; i < schema.size(); i++) {
                wide[i] = schema.fields().get(i).type().isWideDecimal();
                names[i] = schema.fields().get(i).name();
                kinds[i] = schema.fields().get(i).type().kind();
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
                Col c = ref.columns[i];
                if (c.isNull(r)) {
                    continue;
                }
                consumer.startField(names[i], i);
                switch (kinds[i]) {
                    case BOOL -> consumer.addBoolean(c.bools[r]);
                    case INT32, DATE32 -> consumer.addInteger((int) c.longs[r]);
                    case DECIMAL -> {
                        if (wide[i]) {
                            consumer.addBinary(wideBinary(c.high(r), c.low(r)));
                        } else {
                            consumer.addLong(c.longs[r]);
                        }
                    }
                    case INT64, TIMESTAMP -> consumer.addLong(c.longs[r]);
                    case FLOAT64 -> consumer.addDouble(c.doubles[r]);
                    case UTF8 -> consumer.addBinary(Binary.fromString(c.strings[r]));
                    case NULL, STRUCT, LIST, MAP -> throw new IllegalStateException("a " + kinds[i] + " column has a value");
                }
                consumer.endField(names[i], i);
            }
            consumer.endMessage();
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
