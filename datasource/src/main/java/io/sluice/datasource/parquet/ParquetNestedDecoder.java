package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Decodes one nested top-level column (a group or a repeated field) of a row group, a batch at a
 * time, with parquet-mr's record assembly (levels to records) into the Java form of
 * {@link io.sluice.kernels.NestedValues}: a heap {@link Col} that becomes a {@code StructVector},
 * {@code ListVector} or {@code MapVector} when written to Arrow. Only this column's leaves are
 * read. The flat columns keep their own decoders.
 */
final class ParquetNestedDecoder implements ColumnChunkDecoder {
    private final RecordReader<Object> records;
    private final DataType type;

    ParquetNestedDecoder(PageReadStore rowGroup, MessageType fileSchema, Type field, DataType type, String file,
            String createdBy) {
        this.type = requireNonNull(type, "type is null");
        MessageType only = new MessageType(fileSchema.getName(), field);
        MessageColumnIO io = new ColumnIOFactory(createdBy).getColumnIO(only, fileSchema);
        this.records = io.getRecordReader(rowGroup, new ParquetNestedConverters.Materializer(field, type, file));
    }

    @Override
    public void decode(int n, BufferAllocator allocator, Col[] cols, FieldVector[] vectors, int column) {
        Object[] values = new Object[n];
        boolean[] nulls = null;
        for (int i = 0; i < n; i++) {
            values[i] = records.read();
            if (values[i] == null) {
                if (nulls == null) {
                    nulls = new boolean[n];
                }
                nulls[i] = true;
            }
        }
        cols[column] = Col.ofObjects(type, values, nulls);
    }
}
