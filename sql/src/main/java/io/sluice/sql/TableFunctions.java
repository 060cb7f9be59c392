package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.RangeRelation;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;

/**
 * Table-valued functions in FROM. {@code range(end)}, {@code range(start, end)},
 * {@code range(start, end, step)} and {@code range(start, end, step, numPartitions)} are Spark's:
 * one BIGINT column {@code id}, made on the workers ({@link RangeRelation}). Arguments are integer
 * literals, as Spark requires them to be constants.
 */
final class TableFunctions {
    private TableFunctions() {
    }

    /** The plan of {@code call}, the function call inside a {@code COLLECTION_TABLE} node. */
    static LogicalPlan plan(SqlNode call) {
        if (!(call instanceof SqlBasicCall function)) {
            throw SqlErrors.unsupported(QueryTranslator.describe(call) + " in FROM");
        }
        String name = function.getOperator().getName().toLowerCase(Locale.ROOT);
        if (!name.equals("range")) {
            throw SqlErrors.at(function.getParserPosition(), new SluiceException("unknown table function " + name
                    + "(); Sluice has range(end), range(start, end[, step[, numPartitions]])"));
        }
        List<SqlNode> args = function.getOperandList();
        if (args.isEmpty() || args.size() > 4) {
            throw SqlErrors.at(function.getParserPosition(), new SluiceException("range() takes 1 to 4 arguments, not "
                    + args.size()));
        }
        long[] values = new long[args.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = integer(args.get(i));
        }
        try {
            return switch (values.length) {
                case 1 -> new RangeRelation(0, values[0], 1, 0);
                case 2 -> new RangeRelation(values[0], values[1], 1, 0);
                case 3 -> new RangeRelation(values[0], values[1], values[2], 0);
                default -> {
                    if (values[3] < 1 || values[3] > Integer.MAX_VALUE) {
                        throw new SluiceException("range(): numPartitions must be a positive INT, not " + values[3]);
                    }
                    yield new RangeRelation(values[0], values[1], values[2], (int) values[3]);
                }
            };
        } catch (SluiceException e) {
            throw SqlErrors.at(function.getParserPosition(), e);
        }
    }

    private static long integer(SqlNode arg) {
        SqlNode literal = arg.getKind() == SqlKind.MINUS_PREFIX ? ((SqlCall) arg).operand(0) : arg;
        if (literal instanceof SqlNumericLiteral number && number.isExact()) {
            BigDecimal value = number.getValueAs(BigDecimal.class);
            value = arg == literal ? value : value.negate();
            try {
                return value.longValueExact();
            } catch (ArithmeticException e) {
                throw SqlErrors.at(arg.getParserPosition(), new SluiceException("range() takes BIGINT arguments, not " + value));
            }
        }
        throw SqlErrors.at(arg.getParserPosition(), new SluiceException("range() takes integer literals, not " + arg));
    }
}
