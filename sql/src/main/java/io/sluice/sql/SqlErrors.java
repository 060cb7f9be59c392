package io.sluice.sql;

import io.sluice.common.SluiceException;
import org.apache.calcite.sql.parser.SqlParserPos;

/** Builds the front end's user errors so their wording stays uniform. */
final class SqlErrors {
    private SqlErrors() {
    }

    /** {@code e} with the position of the text at fault in front: "line 2, column 8: unknown column ...". */
    static SluiceException at(SqlParserPos pos, SluiceException e) {
        if (pos == null || pos.getLineNum() <= 0) {
            return e;
        }
        return new SluiceException("line " + pos.getLineNum() + ", column " + pos.getColumnNum() + ": "
                + e.getMessage(), e);
    }

    /** A construct the parser accepts but Sluice cannot plan; {@code what} names it. */
    static SluiceException unsupported(String what) {
        return new SluiceException("unsupported SQL: " + what);
    }
}
