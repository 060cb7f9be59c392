package io.sluice.common.types;

import io.sluice.common.SluiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An ordered list of uniquely named fields. Name lookup is exact first, then case-insensitive, then
 * an unqualified name against qualified ones ({@code k} finds {@code t.k} when no other {@code .k}).
 */
public record Schema(List<Field> fields) {
    public Schema {
        fields = List.copyOf(fields);
        for (int i = 0; i < fields.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (fields.get(i).name().equals(fields.get(j).name())) {
                    throw new SluiceException("duplicate column name '" + fields.get(i).name() + "'");
                }
            }
        }
    }

    public static Schema of(Field... fields) {
        return new Schema(List.of(fields));
    }

    public int size() {
        return fields.size();
    }

    public Field field(int index) {
        return fields.get(index);
    }

    /** Index of the named column, or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        int found = -1;
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equalsIgnoreCase(name)) {
                if (found >= 0) {
                    throw new SluiceException("column name '" + name + "' is ambiguous: " + names());
                }
                found = i;
            }
        }
        if (found >= 0 || name.indexOf('.') >= 0) {
            return found;
        }
        // An unqualified name matches one qualified column "t.name" when exactly one exists.
        String suffix = "." + name;
        for (int i = 0; i < fields.size(); i++) {
            String field = fields.get(i).name();
            if (field.length() > suffix.length() && field.regionMatches(true, field.length() - suffix.length(), suffix, 0,
                    suffix.length())) {
                if (found >= 0) {
                    throw new SluiceException("column name '" + name + "' is ambiguous: " + names());
                }
                found = i;
            }
        }
        return found;
    }

    /** The named field; an unknown name is a user error that lists the columns there are. */
    public Field field(String name) {
        int index = indexOf(name);
        if (index < 0) {
            throw new SluiceException("unknown column '" + name + "'; available columns: " + String.join(", ", names()));
        }
        return fields.get(index);
    }

    public List<String> names() {
        List<String> names = new ArrayList<>(fields.size());
        for (Field f : fields) {
            names.add(f.name());
        }
        return names;
    }

    public org.apache.arrow.vector.types.pojo.Schema toArrow() {
        List<org.apache.arrow.vector.types.pojo.Field> arrow = new ArrayList<>(fields.size());
        for (Field f : fields) {
            arrow.add(f.toArrow());
        }
        return new org.apache.arrow.vector.types.pojo.Schema(arrow);
    }

    public static Schema fromArrow(org.apache.arrow.vector.types.pojo.Schema schema) {
        List<Field> fields = new ArrayList<>();
        for (org.apache.arrow.vector.types.pojo.Field f : schema.getFields()) {
            fields.add(new Field(f.getName(), DataType.fromArrowField(f)));
        }
        return new Schema(fields);
    }

    @Override
    public String toString() {
        return fields.stream().map(Field::toString).collect(Collectors.joining(", ", "[", "]"));
    }
}
