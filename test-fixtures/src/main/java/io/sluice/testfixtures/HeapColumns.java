package io.sluice.testfixtures;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Col;
import java.util.ArrayList;
import java.util.List;

/**
 * Test rows (one {@code Object[]} a row, NULL as null) as heap columns, whole or cut into batches,
 * to feed operators and shuffles: strings for UTF8, doubles for FLOAT64, longs for every other type.
 */
public final class HeapColumns {
    private HeapColumns() {
    }

    /** One heap column per field of {@code schema}, holding every row, each column able to hold NULLs. */
    public static Col[] of(Schema schema, List<Object[]> rows) {
        int n = rows.size();
        Col[] out = new Col[schema.size()];
        for (int c = 0; c < out.length; c++) {
            DataType type = schema.field(c).type();
            Col col = Col.allocate(type, n, true);
            for (int r = 0; r < n; r++) {
                Object v = rows.get(r)[c];
                if (v == null) {
                    col.nulls[r] = true;
                } else if (type.kind() == DataType.Kind.UTF8) {
                    col.strings[r] = (String) v;
                } else if (type.kind() == DataType.Kind.FLOAT64) {
                    col.doubles[r] = (Double) v;
                } else {
                    col.longs[r] = (Long) v;
                }
            }
            out[c] = col;
        }
        return out;
    }

    /** The rows in batches of at most {@code batchRows}, in order. */
    public static List<Col[]> batches(Schema schema, List<Object[]> rows, int batchRows) {
        List<Col[]> out = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += batchRows) {
            out.add(of(schema, rows.subList(from, Math.min(rows.size(), from + batchRows))));
        }
        return out;
    }
}
