package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import java.math.BigDecimal;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSampleSpec;

/**
 * Spark's {@code TABLESAMPLE} on a relation ({@link SparkSyntax} rewrote it for Calcite):
 * {@code (n ROWS)} keeps the first {@code n} rows the relation gives, as Spark's (a limit);
 * {@code (100 PERCENT)} keeps every row and {@code (0 PERCENT)} none. A fraction in between would
 * need a random sample, which Sluice does not draw: it is an error saying so.
 */
final class TableSamples {
    private TableSamples() {
    }

    static LogicalPlan sample(LogicalPlan relation, SqlNode spec) {
        if (!(spec instanceof SqlLiteral literal) || !(literal.getValue() instanceof SqlSampleSpec.SqlTableSampleSpec sample)) {
            throw SqlErrors.unsupported("TABLESAMPLE " + spec);
        }
        if (!sample.isBernoulli()) { // (n ROWS), rewritten SYSTEM(0) REPEATABLE(n)
            return new Limit(relation, 0, sample.getRepeatableSeed());
        }
        BigDecimal amount = sample.sampleRate.stripTrailingZeros();
        if (amount.compareTo(BigDecimal.ONE) == 0) {
            return relation;
        }
        if (amount.signum() == 0) {
            return new EmptyRelation(relation.schema());
        }
        if (amount.signum() < 0 || amount.compareTo(BigDecimal.ONE) > 0) {
            throw new SluiceException("TABLESAMPLE percentage must be 0 to 100, not " + amount.movePointRight(2).toPlainString());
        }
        throw SqlErrors.unsupported("TABLESAMPLE (" + amount.movePointRight(2).toPlainString()
                + " PERCENT): a random sample (only 0 and 100 PERCENT, and n ROWS)");
    }
}
