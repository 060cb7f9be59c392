package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * A nested column's shape with the definition and repetition levels of every node, walked from
 * its Parquet field and its Sluice type together by the rules of {@link ParquetNestedType} (2-level
 * lists, bare repeated fields, legacy maps included). Each node names its first leaf: every leaf
 * under a node carries the node's structure (its NULLs, its list sizes) in its levels, so one leaf
 * is enough to rebuild it.
 */
sealed interface ParquetNestedShape {
    /** The index of the first leaf under this node, in the order {@link #of} collects the leaf paths. */
    int firstLeaf();

    /**
     * A primitive value, defined when a slot's definition level reaches {@code definedAt} (its
     * leaf's maximum).
     */
    record Leaf(int leaf, int definedAt, ParquetColumnType columnType) implements ParquetNestedShape {
        public Leaf {
            requireNonNull(columnType, "columnType is null");
        }

        @Override
        public int firstLeaf() {
            return leaf;
        }
    }

    /** A struct, non-NULL when a slot's definition level reaches {@code definedAt}. */
    record Struct(int definedAt, List<ParquetNestedShape> children) implements ParquetNestedShape {
        public Struct {
            children = List.copyOf(children);
        }

        @Override
        public int firstLeaf() {
            return children.get(0).firstLeaf();
        }
    }

    /**
     * A list (or a map: {@code entries} then holds the key and the value), non-NULL when a slot's
     * definition level reaches {@code definedAt}; an element (entry) is a slot whose repetition
     * level is at most {@code elementRepetition} and whose definition level reaches
     * {@code elementDefinedAt}.
     */
    record Repeated(int definedAt, int elementRepetition, int elementDefinedAt, List<ParquetNestedShape> entries,
            boolean map) implements ParquetNestedShape {
        public Repeated {
            entries = List.copyOf(entries);
        }

        @Override
        public int firstLeaf() {
            return entries.get(0).firstLeaf();
        }
    }

    /** The shape of top-level {@code field} read as {@code type}; {@code leaves} collects the leaf paths. */
    static ParquetNestedShape of(Type field, DataType type, String file, List<String[]> leaves) {
        return of(field, type, file, 0, 0, false, new ArrayList<>(), leaves);
    }

    private static ParquetNestedShape of(Type field, DataType type, String file, int parentDefinition,
            int parentRepetition, boolean single, List<String> path, List<String[]> leaves) {
        List<String> here = new ArrayList<>(path);
        if (!single) {
            here.add(field.getName());
        }
        if (!single && field.isRepetition(Type.Repetition.REPEATED)) {
            // a bare repeated field: a never-NULL list of its values
            ParquetNestedShape element = of(field, type.elementType(), file, parentDefinition + 1, parentRepetition + 1,
                    true, here, leaves);
            return new Repeated(parentDefinition, parentRepetition + 1, parentDefinition + 1, List.of(element), false);
        }
        int definition = parentDefinition + (field.isRepetition(Type.Repetition.OPTIONAL) ? 1 : 0);
        if (field.isPrimitive()) {
            leaves.add(here.toArray(new String[0]));
            return new Leaf(leaves.size() - 1, definition, ParquetColumnType.leaf(field.asPrimitiveType(), file));
        }
        GroupType group = field.asGroupType();
        int repetition = parentRepetition + 1;
        if (ParquetNestedType.isList(group)) {
            Type repeated = ParquetNestedType.repeatedChild(group, file);
            Type element = ParquetNestedType.listElement(group, repeated);
            List<String> inner = new ArrayList<>(here);
            inner.add(repeated.getName());
            ParquetNestedShape shape = element == repeated
                    ? of(repeated, type.elementType(), file, definition + 1, repetition, true, inner, leaves)
                    : of(element, type.elementType(), file, definition + 1, repetition, false, inner, leaves);
            return new Repeated(definition, repetition, definition + 1, List.of(shape), false);
        }
        if (ParquetNestedType.isMap(group)) {
            GroupType keyValue = ParquetNestedType.mapKeyValue(group, file);
            List<String> inner = new ArrayList<>(here);
            inner.add(keyValue.getName());
            ParquetNestedShape key = of(keyValue.getType(0), type.keyType(), file, definition + 1, repetition, false,
                    inner, leaves);
            ParquetNestedShape value = of(keyValue.getType(1), type.valueType(), file, definition + 1, repetition, false,
                    inner, leaves);
            return new Repeated(definition, repetition, definition + 1, List.of(key, value), true);
        }
        List<ParquetNestedShape> children = new ArrayList<>(group.getFieldCount());
        for (int j = 0; j < group.getFieldCount(); j++) {
            children.add(of(group.getType(j), type.fields().get(j).type(), file, definition, parentRepetition, false,
                    here, leaves));
        }
        return new Struct(definition, children);
    }
}
