package io.sluice.plan.operators;

import io.sluice.plan.exec.Col;
import java.util.ArrayList;
import java.util.List;

/** Column sets of several chunks of rows: concatenating and gathering them. */
final class ColChunks {
    private ColChunks() {
    }

    /** The chunks' rows one after the other, as one set of columns (the chunks must be non-empty in number). */
    static Col[] concat(List<Col[]> chunks) {
        if (chunks.size() == 1) {
            return chunks.get(0);
        }
        Col[] out = new Col[chunks.get(0).length];
        for (int c = 0; c < out.length; c++) {
            List<Col> parts = new ArrayList<>(chunks.size());
            for (Col[] chunk : chunks) {
                parts.add(chunk[c]);
            }
            out[c] = Col.concat(parts.get(0).type, parts);
        }
        return out;
    }

    /** Rows {@code rows[0..count)} of every column. */
    static Col[] gather(Col[] columns, int[] rows, int count) {
        Col[] out = new Col[columns.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = columns[c].gather(rows, count);
        }
        return out;
    }
}
