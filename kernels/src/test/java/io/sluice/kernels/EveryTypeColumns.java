package io.sluice.kernels;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.List;

/** Three rows of a column of every type, row 1 NULL in each: for tests that compare a read of Arrow with the heap column. */
final class EveryTypeColumns {
    static final boolean[] NULLS = {false, true, false};

    private EveryTypeColumns() {
    }

    static Col[] columns() {
        return new Col[] {
            Col.ofBools(new boolean[] {true, false, false}, NULLS),
            Col.ofLongs(DataType.INT32, new long[] {-7, 0, Integer.MAX_VALUE}, NULLS),
            Col.ofLongs(DataType.INT64, new long[] {Long.MIN_VALUE, 0, 42}, NULLS),
            Col.ofDoubles(new double[] {-0.5, 0, Double.NaN}, NULLS),
            Col.ofLongs(DataType.decimal(15, 2), new long[] {-12345, 0, 99}, NULLS),
            Col.ofInt128(DataType.decimal(38, 4), new long[] {-1, 0, 5}, new long[] {-3, 0, 7}, NULLS),
            Col.ofStrings(new String[] {"ä€𝄞", null, ""}, NULLS),
            Col.ofLongs(DataType.DATE32, new long[] {-1, 0, 19_000}, NULLS),
            Col.ofLongs(DataType.TIMESTAMP, new long[] {-1_000_001, 0, 1_700_000_000_123_456L}, NULLS),
            Col.ofObjects(DataType.list(DataType.INT64), new Object[] {List.of(1L, 2L), null, List.of()}, NULLS),
            Col.allNull(DataType.NULL, 3),
        };
    }

    /** Column {@code c} named {@code "c" + c}. */
    static Schema schema(Col[] cols) {
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < cols.length; c++) {
            fields.add(new Field("c" + c, cols[c].type));
        }
        return new Schema(fields);
    }
}
