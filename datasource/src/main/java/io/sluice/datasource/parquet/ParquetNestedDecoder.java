package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Decodes one nested top-level column (a group or a repeated field) of a row group, a batch at a
 * time, straight into an Arrow {@code StructVector}, {@code ListVector} or {@code MapVector}: each
 * leaf's levels and values are read into arrays ({@link ParquetLeafLevels}) and the vector is built
 * from them column-at-a-time ({@link ParquetNestedAssembler}). Only this column's requested leaves
 * are read; every shape {@link ParquetNestedType} maps is covered.
 */
final class ParquetNestedDecoder implements ColumnChunkDecoder {
    private final ParquetNestedShape shape;
    private final ParquetLeafLevels[] leaves;
    private final DataType type;
    private final String name;

    ParquetNestedDecoder(PageReadStore rowGroup, MessageType fileSchema, Type field, DataType type, String file,
            String createdBy) {
        this.type = requireNonNull(type, "type is null");
        this.name = field.getName();
        MessageType only = new MessageType(fileSchema.getName(), field);
        List<String[]> paths = new ArrayList<>();
        this.shape = ParquetNestedShape.of(field, type, file, paths);
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(rowGroup, new IgnoringConverter(only), only, createdBy);
        this.leaves = new ParquetLeafLevels[paths.size()];
        for (int i = 0; i < leaves.length; i++) {
            leaves[i] = new ParquetLeafLevels(store.getColumnReader(only.getColumnDescription(paths.get(i))),
                    ParquetColumnType.leaf(only.getType(paths.get(i)).asPrimitiveType(), file));
        }
    }

    @Override
    public void decode(int n, BufferAllocator allocator, Col[] cols, FieldVector[] vectors, int column) {
        for (ParquetLeafLevels leaf : leaves) {
            leaf.read(n);
        }
        FieldVector vector = type.toArrowField(name).createVector(allocator);
        try {
            new ParquetNestedAssembler(leaves, allocator).fill(shape, 0, 0, vector);
        } catch (RuntimeException | Error e) {
            vector.close();
            throw e;
        }
        vectors[column] = vector;
    }

    /**
     * {@code ColumnReadStoreImpl} wants a converter tree matching the schema, but values are pulled
     * with the {@code ColumnReader} getters, so the converters are never called.
     */
    private static final class IgnoringConverter extends GroupConverter {
        private static final PrimitiveConverter PRIMITIVE = new PrimitiveConverter() {
        };
        private final GroupType group;

        IgnoringConverter(GroupType group) {
            this.group = group;
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            Type child = group.getType(fieldIndex);
            return child.isPrimitive() ? PRIMITIVE : new IgnoringConverter(child.asGroupType());
        }

        @Override
        public void start() {
        }

        @Override
        public void end() {
        }
    }
}
