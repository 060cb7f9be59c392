package io.sluice.tpch;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/** Writes rows of one TPC-H table to one Parquet file, straight from the generator's row objects. */
final class TpchParquetWriter<E extends TpchEntity> implements AutoCloseable {
    private static final int ROW_GROUP_BYTES = 32 << 20;

    private final ParquetWriter<E> writer;

    TpchParquetWriter(TpchTable<E> table, Path file) throws IOException {
        EntityWriteSupport<E> support = new EntityWriteSupport<>(table);
        this.writer = new Builder<>(file, support)
                .withConf(new Configuration(false))
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withRowGroupSize((long) ROW_GROUP_BYTES)
                .build();
    }

    void write(E row) throws IOException {
        writer.write(row);
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    /** The Parquet type of a generator column: money as DECIMAL(15,2), as the specification types it. */
    private static Type parquetType(TpchColumn<?> column) {
        String name = column.getColumnName();
        return switch (column.getType().getBase()) {
            case IDENTIFIER -> Types.required(PrimitiveTypeName.INT64).named(name);
            case INTEGER -> Types.required(PrimitiveTypeName.INT32).named(name);
            case DATE -> Types.required(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.dateType()).named(name);
            case DOUBLE -> Types.required(PrimitiveTypeName.INT64)
                    .as(LogicalTypeAnnotation.decimalType(2, 15)).named(name);
            case VARCHAR -> Types.required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(name);
        };
    }

    private static final class EntityWriteSupport<E extends TpchEntity> extends WriteSupport<E> {
        private final List<TpchColumn<E>> columns;
        private final MessageType schema;
        private RecordConsumer consumer;

        EntityWriteSupport(TpchTable<E> table) {
            this.columns = table.getColumns();
            List<Type> fields = new ArrayList<>();
            for (TpchColumn<E> column : columns) {
                fields.add(parquetType(column));
            }
            this.schema = new MessageType(table.getTableName(), fields);
        }

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(schema, new HashMap<>());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.consumer = recordConsumer;
        }

        @Override
        public void write(E row) {
            consumer.startMessage();
            for (int i = 0; i < columns.size(); i++) {
                TpchColumn<E> column = columns.get(i);
                String name = column.getColumnName();
                consumer.startField(name, i);
                switch (column.getType().getBase()) {
                    case IDENTIFIER -> consumer.addLong(column.getIdentifier(row));
                    case INTEGER -> consumer.addInteger(column.getInteger(row));
                    case DATE -> consumer.addInteger(column.getDate(row));
                    case DOUBLE -> consumer.addLong(Math.round(column.getDouble(row) * 100));
                    case VARCHAR -> consumer.addBinary(Binary.fromString(column.getString(row)));
                }
                consumer.endField(name, i);
            }
            consumer.endMessage();
        }
    }

    private static final class Builder<E> extends ParquetWriter.Builder<E, Builder<E>> {
        private final WriteSupport<E> support;

        Builder(Path file, WriteSupport<E> support) {
            super(new LocalOutputFile(file));
            this.support = support;
        }

        @Override
        protected Builder<E> self() {
            return this;
        }

        @Override
        protected WriteSupport<E> getWriteSupport(Configuration configuration) {
            return support;
        }
    }
}
