package io.sluice.datasource.parquet;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.Type;

/**
 * How a nested Parquet field maps to a Sluice type: a group annotated LIST is a LIST, one annotated
 * MAP (or the legacy MAP_KEY_VALUE) a MAP, any other group a STRUCT of its fields, and a repeated
 * field outside such a group a LIST of its values. A LIST's element follows the Parquet format's
 * backward-compatibility rules, so the 2-level lists older writers made (Spark's legacy format,
 * parquet-avro, parquet-thrift) read as the standard 3-level ones do: the repeated field is the
 * element when it is primitive, when it is a group of several fields, or when it is named
 * {@code array} or {@code <list>_tuple}; otherwise its one child is. Leaves map as
 * {@link ParquetColumnType} says; a shape that fits none of this is refused, naming the column.
 */
final class ParquetNestedType {
    private ParquetNestedType() {
    }

    /** The type of a top-level field, flat or nested. */
    static DataType of(Type field, String file) {
        if (ParquetColumnType.isFlat(field)) {
            return ParquetColumnType.of(field, file).type();
        }
        try {
            return typeOf(field, file, false);
        } catch (SluiceException e) {
            throw new SluiceException("in nested column '" + field.getName() + "': " + e.getMessage(), e);
        }
    }

    /** The type of {@code field}; {@code single}: the field is one element of a list, so its repetition is the list's. */
    static DataType typeOf(Type field, String file, boolean single) {
        if (!single && field.isRepetition(Type.Repetition.REPEATED)) {
            return DataType.list(typeOf(field, file, true));
        }
        if (field.isPrimitive()) {
            return ParquetColumnType.leaf(field.asPrimitiveType(), file).type();
        }
        GroupType group = field.asGroupType();
        if (isList(group)) {
            Type repeated = repeatedChild(group, file);
            Type element = listElement(group, repeated);
            return DataType.list(typeOf(element, file, element == repeated));
        }
        if (isMap(group)) {
            GroupType keyValue = mapKeyValue(group, file);
            return DataType.map(typeOf(keyValue.getType(0), file, false), typeOf(keyValue.getType(1), file, false));
        }
        if (group.getFieldCount() == 0) {
            throw ParquetColumnType.unsupported(field, file, "a group without fields has no type");
        }
        List<Field> fields = new ArrayList<>(group.getFieldCount());
        for (Type child : group.getFields()) {
            fields.add(new Field(child.getName(), typeOf(child, file, false)));
        }
        try {
            return DataType.struct(fields);
        } catch (SluiceException e) {
            throw ParquetColumnType.unsupported(field, file, e.getMessage());
        }
    }

    /**
     * {@code field} with only the struct fields {@code type} keeps, through structs, lists' elements
     * and maps' values at any depth, so that a narrowed column (the optimizer's
     * {@code PruneNestedFields}) reads only those leaves; a field {@code type} keeps whole stays as
     * it is.
     */
    static Type narrow(Type field, DataType type) {
        return narrow(field, type, false);
    }

    /** {@code single}: the field is one element of a list, so its repetition is the list's. */
    private static Type narrow(Type field, DataType type, boolean single) {
        if (field.isPrimitive()) {
            return field;
        }
        if (!single && field.isRepetition(Type.Repetition.REPEATED)) {
            return type.kind() == DataType.Kind.LIST ? narrow(field, type.elementType(), true) : field;
        }
        GroupType group = field.asGroupType();
        if (isList(group) || isMap(group)) {
            if (group.getFieldCount() != 1 || group.getType(0).isPrimitive()) {
                return field; // refused, naming the column, when typed
            }
            GroupType repeated = group.getType(0).asGroupType();
            if (isMap(group)) {
                if (type.kind() != DataType.Kind.MAP || repeated.getFieldCount() != 2) {
                    return field;
                }
                return group.withNewFields(repeated.withNewFields(repeated.getType(0),
                        narrow(repeated.getType(1), type.valueType(), false)));
            }
            if (type.kind() != DataType.Kind.LIST) {
                return field;
            }
            Type element = listElement(group, repeated);
            if (element != repeated) {
                return group.withNewFields(repeated.withNewFields(narrow(element, type.elementType(), false)));
            }
            Type narrowed = narrow(repeated, type.elementType(), true);
            // a 2-level list's element group cut to one field would read as a 3-level list of that field
            return listElement(group, narrowed) == narrowed || narrowed.isPrimitive() ? group.withNewFields(narrowed) : field;
        }
        if (type.kind() != DataType.Kind.STRUCT) {
            return field;
        }
        List<Type> kept = new ArrayList<>(type.fields().size());
        for (Field child : type.fields()) {
            if (!group.containsField(child.name())) {
                return field; // the table's type says more than the file: refused when the types are compared
            }
            kept.add(narrow(group.getType(child.name()), child.type(), false));
        }
        return group.withNewFields(kept);
    }

    static boolean isList(GroupType group) {
        return group.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation;
    }

    static boolean isMap(GroupType group) {
        LogicalTypeAnnotation logical = group.getLogicalTypeAnnotation();
        return logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
                || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation;
    }

    /** A LIST or MAP group's one repeated child. */
    static Type repeatedChild(GroupType group, String file) {
        if (group.getFieldCount() != 1 || !group.getType(0).isRepetition(Type.Repetition.REPEATED)) {
            throw ParquetColumnType.unsupported(group, file, "a " + group.getLogicalTypeAnnotation()
                    + " group must hold one repeated field");
        }
        return group.getType(0);
    }

    /** A list's element field: the repeated field itself (2-level lists) or its one child (3-level). */
    static Type listElement(GroupType list, Type repeated) {
        if (repeated.isPrimitive()) {
            return repeated;
        }
        GroupType group = repeated.asGroupType();
        if (group.getFieldCount() != 1 || group.getName().equals("array")
                || group.getName().equals(list.getName() + "_tuple")) {
            return repeated;
        }
        return group.getType(0);
    }

    /** A map's repeated key-value group: a required key and an optional value. */
    static GroupType mapKeyValue(GroupType map, String file) {
        Type repeated = repeatedChild(map, file);
        if (repeated.isPrimitive() || repeated.asGroupType().getFieldCount() != 2) {
            throw ParquetColumnType.unsupported(map, file, "a map's repeated group must hold a key and a value");
        }
        return repeated.asGroupType();
    }
}
