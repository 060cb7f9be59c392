package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Sample;
import java.math.BigDecimal;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSampleSpec;

/**
 * Spark's {@code TABLESAMPLE} on a relation ({@link SparkSyntax} rewrote it for Calcite):
 * {@code (n ROWS)} keeps the first {@code n} rows the relation gives, as Spark's (a limit);
 * {@code (p PERCENT)} and {@code (BUCKET x OUT OF y)} keep each row with probability {@code p/100}
 * ({@code x/y}), a {@link Sample} as Spark's (Bernoulli, without replacement), whose seed is
 * {@code REPEATABLE (seed)}'s or else a new random one each time the query is planned;
 * {@code (100 PERCENT)} keeps every row and {@code (0 PERCENT)} none.
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
        BigDecimal fraction = sample.sampleRate.stripTrailingZeros();
        if (fraction.signum() < 0 || fraction.compareTo(BigDecimal.ONE) > 0) {
            throw new SluiceException("TABLESAMPLE: the sampling fraction must be 0 to 1 (0 to 100 PERCENT), not "
                    + fraction.toPlainString());
        }
        if (fraction.compareTo(BigDecimal.ONE) == 0) {
            return relation;
        }
        if (fraction.signum() == 0) {
            return new EmptyRelation(relation.schema());
        }
        long seed = sample.isRepeatable() ? sample.getRepeatableSeed() : ThreadLocalRandom.current().nextLong();
        return new Sample(relation, fraction.doubleValue(), seed);
    }
}
