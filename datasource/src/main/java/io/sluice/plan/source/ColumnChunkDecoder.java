package io.sluice.plan.source;

import io.sluice.plan.exec.Col;

/** Decodes one column of a Parquet row group, a batch at a time. */
interface ColumnChunkDecoder {
    /** The next {@code n} values of the column; the caller guarantees that many remain. */
    Col decode(int n);
}
