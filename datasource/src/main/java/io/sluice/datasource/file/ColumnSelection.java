package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns a scan returns: their schema, in the requested order, and where each sits in the
 * table schema. Unknown names are {@link io.sluice.common.SluiceException}s listing the columns there
 * are; a name requested twice is rejected by {@link Schema}.
 */
public final class ColumnSelection {
    private final Schema schema;
    private final int[] tableIndexes;

    private ColumnSelection(Schema schema, int[] tableIndexes) {
        this.schema = schema;
        this.tableIndexes = tableIndexes;
    }

    public static ColumnSelection of(Schema tableSchema, List<String> columns) {
        requireNonNull(tableSchema, "tableSchema is null");
        requireNonNull(columns, "columns is null");
        List<Field> fields = new ArrayList<>(columns.size());
        int[] indexes = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            String name = requireNonNull(columns.get(i), "column name is null");
            Field field = tableSchema.field(name);
            indexes[i] = tableSchema.indexOf(field.name());
            fields.add(field);
        }
        return new ColumnSelection(new Schema(fields), indexes);
    }

    public Schema schema() {
        return schema;
    }

    public int size() {
        return tableIndexes.length;
    }

    /** Position in the table schema of selected column {@code i}. */
    public int tableIndex(int i) {
        return tableIndexes[i];
    }
}
