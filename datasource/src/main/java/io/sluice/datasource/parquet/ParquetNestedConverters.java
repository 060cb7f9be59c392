package io.sluice.datasource.parquet;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.TemporalValues;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * parquet-mr converters that assemble one nested column's records into the Java form of
 * {@link io.sluice.kernels.NestedValues}, walking the Parquet field and its Sluice type together
 * with the shape rules of {@link ParquetNestedType}. Each converter hands its finished value to
 * its parent through a {@link Sink}; an absent optional value is never handed, so it stays null.
 */
final class ParquetNestedConverters {
    private ParquetNestedConverters() {
    }

    /** Where a converter puts the value it assembled. */
    private interface Sink {
        void accept(Object value);
    }

    /** The records of a message holding one field: the field's value, null when absent. */
    static final class Materializer extends RecordMaterializer<Object> {
        private final Root root;

        Materializer(Type field, DataType type, String file) {
            this.root = new Root(field, type, file);
        }

        @Override
        public Object getCurrentRecord() {
            return root.value;
        }

        @Override
        public GroupConverter getRootConverter() {
            return root;
        }
    }

    private static final class Root extends GroupConverter {
        private final Converter field;
        private final boolean repeated;
        private List<Object> list;
        Object value;

        Root(Type field, DataType type, String file) {
            this.repeated = field.isRepetition(Type.Repetition.REPEATED);
            this.field = repeated
                    ? converter(field, type.elementType(), file, v -> list.add(v))
                    : converter(field, type, file, v -> value = v);
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return field;
        }

        @Override
        public void start() {
            value = null;
            list = repeated ? new ArrayList<>() : null;
        }

        @Override
        public void end() {
            if (repeated) {
                value = Collections.unmodifiableList(list);
            }
        }
    }

    /** The converter of {@code field} as one value of {@code type} (its repetition handled by the caller). */
    private static Converter converter(Type field, DataType type, String file, Sink sink) {
        if (field.isPrimitive()) {
            return new Leaf(ParquetColumnType.leaf(field.asPrimitiveType(), file), sink);
        }
        GroupType group = field.asGroupType();
        if (ParquetNestedType.isList(group)) {
            return new ListGroup(group, type, file, sink);
        }
        if (ParquetNestedType.isMap(group)) {
            return new MapGroup(group, type, file, sink);
        }
        return new StructGroup(group, type, file, sink);
    }

    private static final class StructGroup extends GroupConverter {
        private final List<Field> fields;
        private final boolean[] repeated;
        private final Converter[] children;
        private final Sink sink;
        private Object[] values;

        StructGroup(GroupType group, DataType type, String file, Sink sink) {
            this.fields = type.fields();
            this.sink = sink;
            this.repeated = new boolean[fields.size()];
            this.children = new Converter[fields.size()];
            for (int j = 0; j < children.length; j++) {
                int slot = j;
                Type child = group.getType(j);
                repeated[j] = child.isRepetition(Type.Repetition.REPEATED);
                @SuppressWarnings("unchecked")
                Sink childSink = repeated[j] ? v -> ((List<Object>) values[slot]).add(v) : v -> values[slot] = v;
                children[j] = converter(child, repeated[j] ? fields.get(j).type().elementType() : fields.get(j).type(),
                        file, childSink);
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return children[fieldIndex];
        }

        @Override
        public void start() {
            values = new Object[children.length];
            for (int j = 0; j < children.length; j++) {
                if (repeated[j]) {
                    values[j] = new ArrayList<>();
                }
            }
        }

        @Override
        public void end() {
            Map<String, Object> out = new LinkedHashMap<>();
            for (int j = 0; j < children.length; j++) {
                Object v = values[j];
                out.put(fields.get(j).name(), repeated[j] ? Collections.unmodifiableList((List<?>) v) : v);
            }
            sink.accept(Collections.unmodifiableMap(out));
        }
    }

    private static final class ListGroup extends GroupConverter {
        private final Converter repeated;
        private final Sink sink;
        private List<Object> elements;

        ListGroup(GroupType group, DataType type, String file, Sink sink) {
            this.sink = sink;
            Type repeatedField = ParquetNestedType.repeatedChild(group, file);
            Type element = ParquetNestedType.listElement(group, repeatedField);
            Sink add = v -> elements.add(v);
            this.repeated = element == repeatedField
                    ? converter(repeatedField, type.elementType(), file, add)
                    : new Entry(repeatedField.asGroupType(), List.of(type.elementType()), file, add);
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            elements = new ArrayList<>();
        }

        @Override
        public void end() {
            sink.accept(Collections.unmodifiableList(elements));
        }
    }

    private static final class MapGroup extends GroupConverter {
        private final Converter keyValue;
        private final Sink sink;
        private Map<Object, Object> entries;

        MapGroup(GroupType group, DataType type, String file, Sink sink) {
            this.sink = sink;
            this.keyValue = new Entry(ParquetNestedType.mapKeyValue(group, file), List.of(type.keyType(), type.valueType()),
                    file, v -> {
                        Object[] pair = (Object[]) v;
                        entries.put(pair[0], pair[1]);
                    });
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return keyValue;
        }

        @Override
        public void start() {
            entries = new LinkedHashMap<>();
        }

        @Override
        public void end() {
            sink.accept(Collections.unmodifiableMap(entries));
        }
    }

    /**
     * One repetition of a list's or map's repeated group: hands on its one child's value (a list
     * element, NULL when absent) or its pair of children (a map's key and value) as an array.
     */
    private static final class Entry extends GroupConverter {
        private final Converter[] children;
        private final Sink sink;
        private final Object[] values;

        Entry(GroupType group, List<DataType> types, String file, Sink sink) {
            this.sink = sink;
            this.values = new Object[types.size()];
            this.children = new Converter[types.size()];
            for (int j = 0; j < children.length; j++) {
                int slot = j;
                children[j] = converter(group.getType(j), types.get(j), file, v -> values[slot] = v);
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return children[fieldIndex];
        }

        @Override
        public void start() {
            Arrays.fill(values, null);
        }

        @Override
        public void end() {
            sink.accept(values.length == 1 ? values[0] : values.clone());
        }
    }

    /** A primitive value in the Java form of its Sluice type. */
    private static final class Leaf extends PrimitiveConverter {
        private final DataType type;
        private final ParquetColumnType.Decoding decoding;
        private final Sink sink;

        Leaf(ParquetColumnType columnType, Sink sink) {
            this.type = columnType.type();
            this.decoding = columnType.decoding();
            this.sink = sink;
        }

        @Override
        public void addInt(int value) {
            switch (type.kind()) {
                case DATE32 -> sink.accept(LocalDate.ofEpochDay(value));
                case DECIMAL -> sink.accept(BigDecimal.valueOf(value, type.scale()));
                case INT64 -> sink.accept(value & 0xFFFF_FFFFL); // unsigned 32-bit
                default -> sink.accept(value);
            }
        }

        @Override
        public void addLong(long value) {
            switch (decoding) {
                case INT64_MILLIS -> sink.accept(TemporalValues.toLocalDateTime(value * 1000));
                case INT64_NANOS -> sink.accept(TemporalValues.toLocalDateTime(Math.floorDiv(value, 1000L)));
                default -> sink.accept(switch (type.kind()) {
                    case TIMESTAMP -> TemporalValues.toLocalDateTime(value);
                    case DECIMAL -> BigDecimal.valueOf(value, type.scale());
                    default -> (Object) value;
                });
            }
        }

        @Override
        public void addDouble(double value) {
            sink.accept(value);
        }

        @Override
        public void addFloat(float value) {
            sink.accept((double) value);
        }

        @Override
        public void addBoolean(boolean value) {
            sink.accept(value);
        }

        @Override
        public void addBinary(Binary value) {
            sink.accept(switch (decoding) {
                case STRING -> value.toStringUsingUTF8();
                case INT96 -> TemporalValues.toLocalDateTime(ParquetColumnDecoder.int96Micros(value));
                default -> new BigDecimal(new BigInteger(value.getBytes()), type.scale());
            });
        }
    }
}
