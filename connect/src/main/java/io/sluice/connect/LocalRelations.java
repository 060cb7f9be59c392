package io.sluice.connect;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.QueryResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The rows of {@code createDataFrame}: Spark's client sends them as an Arrow IPC stream of Spark's
 * Arrow types (8, 16 and 32-bit integers, floats, zoned timestamps), which become Sluice's types
 * here. Local relations are small (the client sends larger ones in chunks Sluice does not take), so
 * they are read value by value.
 */
final class LocalRelations {
    /** The most Arrow bytes a local relation may decode to. */
    private static final long DECODE_LIMIT = 256L << 20;

    private LocalRelations() {
    }

    static QueryResult decode(byte[] ipc) {
        try (BufferAllocator allocator = new RootAllocator(DECODE_LIMIT);
                ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            List<Field> fields = new ArrayList<>();
            for (org.apache.arrow.vector.types.pojo.Field f : root.getSchema().getFields()) {
                fields.add(new Field(f.getName(), type(f)));
            }
            Schema schema = new Schema(fields);
            List<List<Object>> rows = new ArrayList<>();
            while (reader.loadNextBatch()) {
                List<FieldVector> vectors = root.getFieldVectors();
                for (int r = 0; r < root.getRowCount(); r++) {
                    List<Object> row = new ArrayList<>(vectors.size());
                    for (int c = 0; c < vectors.size(); c++) {
                        row.add(value(vectors.get(c), r, fields.get(c).type()));
                    }
                    rows.add(Collections.unmodifiableList(row));
                }
            }
            return new QueryResult(schema, rows);
        } catch (IOException e) {
            throw new SluiceException("bad Arrow data in a local relation: " + e.getMessage(), e);
        }
    }

    /** The rows under the names (and types) a schema the client sent gives them. */
    static QueryResult rename(QueryResult rows, Schema declared) {
        if (declared.size() != rows.schema().size()) {
            return rows;
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < declared.size(); i++) {
            fields.add(new Field(declared.field(i).name(), rows.schema().field(i).type()));
        }
        return new QueryResult(new Schema(fields), rows.rows());
    }

    private static DataType type(org.apache.arrow.vector.types.pojo.Field field) {
        ArrowType t = field.getType();
        if (t instanceof ArrowType.Int i) {
            return i.getBitWidth() <= 32 ? DataType.INT32 : DataType.INT64;
        }
        if (t instanceof ArrowType.FloatingPoint) {
            return DataType.FLOAT64;
        }
        if (t instanceof ArrowType.Utf8 || t instanceof ArrowType.LargeUtf8) {
            return DataType.UTF8;
        }
        if (t instanceof ArrowType.Bool) {
            return DataType.BOOL;
        }
        if (t instanceof ArrowType.Decimal d) {
            return DataType.decimal(d.getPrecision(), d.getScale());
        }
        if (t instanceof ArrowType.Date) {
            return DataType.DATE32;
        }
        if (t instanceof ArrowType.Timestamp) {
            return DataType.TIMESTAMP;
        }
        if (t instanceof ArrowType.Null) {
            return DataType.NULL;
        }
        throw new SluiceException("column " + field.getName() + " of createDataFrame has Arrow type " + t
                + ", which Sluice does not take in a local relation");
    }

    private static Object value(FieldVector vector, int row, DataType type) {
        if (vector.isNull(row)) {
            return null;
        }
        Object v = vector.getObject(row);
        return switch (type.kind()) {
            case INT32, INT64 -> ((Number) v).longValue();
            case FLOAT64 -> ((Number) v).doubleValue();
            case UTF8 -> v.toString();
            case DECIMAL -> (BigDecimal) v;
            case DATE32 -> v instanceof LocalDateTime t ? t.toLocalDate() : LocalDate.ofEpochDay(((Number) v).longValue());
            case TIMESTAMP -> v instanceof LocalDateTime t ? t : LocalDateTime.ofEpochSecond(
                    Math.floorDiv(((Number) v).longValue(), 1_000_000L),
                    (int) Math.floorMod(((Number) v).longValue(), 1_000_000L) * 1000, ZoneOffset.UTC);
            default -> v;
        };
    }
}
