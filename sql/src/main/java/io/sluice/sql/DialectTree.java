package io.sluice.sql;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlCastFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/**
 * Where the dialects disagree, the parsed tree is made to say what the session's
 * {@link SqlDialect} means, so that the translators never ask which dialect is in force:
 * <ul>
 * <li>a sort key that does not say where NULLs go gets the dialect's place for them (in
 *     {@link SqlDialect#SPARK spark}, first in an ascending key): ORDER BY and window ORDER BY;</li>
 * <li>in spark, a cast to an integer type becomes a {@link #TRUNCATING_CAST} (a fraction truncates
 *     toward zero);</li>
 * <li>a division that was written {@code DIV} ({@link SparkSyntax}) becomes {@link #INTEGER_DIVIDE}.</li>
 * </ul>
 * The tree is changed in place, before translation.
 */
final class DialectTree {
    /** {@code a DIV b}: integral division, truncated toward zero. */
    static final SqlBinaryOperator INTEGER_DIVIDE = new SqlBinaryOperator("DIV", SqlKind.OTHER, 60, true,
            ReturnTypes.BIGINT_NULLABLE, InferTypes.FIRST_KNOWN, OperandTypes.NUMERIC_NUMERIC);

    /** A cast to an integer type that truncates a fraction toward zero, as Spark's. */
    static final SqlCastFunction TRUNCATING_CAST = new SqlCastFunction();

    private static final Set<String> INTEGER_TYPES = Set.of("TINYINT", "SMALLINT", "INTEGER", "INT", "BIGINT",
            "BYTE", "SHORT", "LONG");

    private final SqlDialect dialect;
    private final List<Integer> integerDivisions;
    private final CalciteParser.Parsed parsed;
    private final String text;

    private DialectTree(SqlDialect dialect, List<Integer> integerDivisions, CalciteParser.Parsed parsed, String text) {
        this.dialect = dialect;
        this.integerDivisions = integerDivisions;
        this.parsed = parsed;
        this.text = text;
    }

    /** Applies the dialect to {@code parsed}'s tree; {@code text} is what was given to the parser. */
    static void apply(CalciteParser.Parsed parsed, SparkSyntax.Rewritten rewritten, String text) {
        new DialectTree(rewritten.dialect(), rewritten.integerDivisions(), parsed, text).walk(parsed.node());
    }

    private void walk(SqlNode node) {
        if (node instanceof SqlNodeList list) {
            for (SqlNode item : list) {
                walk(item);
            }
            return;
        }
        if (!(node instanceof SqlCall call)) {
            return;
        }
        if (call instanceof SqlSelect select) {
            nullOrder(select.getOrderList());
        } else if (call instanceof SqlOrderBy orderBy) {
            nullOrder(orderBy.orderList);
        } else if (call instanceof SqlWindow window) {
            nullOrder(window.getOrderList());
        } else if (call instanceof SqlBasicCall basic) {
            if (basic.getKind() == SqlKind.DIVIDE && !integerDivisions.isEmpty() && writtenDiv(basic)) {
                basic.setOperator(INTEGER_DIVIDE);
            } else if (basic.getKind() == SqlKind.CAST && dialect == SqlDialect.SPARK && toInteger(basic)) {
                basic.setOperator(TRUNCATING_CAST);
            }
        }
        for (SqlNode operand : call.getOperandList()) {
            if (operand != null) {
                walk(operand);
            }
        }
    }

    private void nullOrder(SqlNodeList keys) {
        if (keys == null || dialect != SqlDialect.SPARK) {
            return; // ansi: the translators' own default, NULLs last both ways
        }
        for (int i = 0; i < keys.size(); i++) {
            SqlNode key = keys.get(i);
            if (key.getKind() == SqlKind.NULLS_FIRST || key.getKind() == SqlKind.NULLS_LAST) {
                continue;
            }
            if (key.getKind() != SqlKind.DESCENDING) { // descending keeps NULLs last, Spark's default too
                keys.set(i, SqlStdOperatorTable.NULLS_FIRST.createCall(SqlParserPos.ZERO, key));
            }
        }
    }

    private static boolean toInteger(SqlBasicCall cast) {
        return cast.operandCount() == 2 && cast.operand(1) instanceof SqlDataTypeSpec spec
                && INTEGER_TYPES.contains(spec.getTypeName().getSimple().toUpperCase(Locale.ROOT));
    }

    /** Whether the text between the division's operands holds a {@code /} that was written {@code DIV}. */
    private boolean writtenDiv(SqlBasicCall division) {
        SqlParserPos left = division.operand(0).getParserPosition();
        SqlParserPos right = division.operand(1).getParserPosition();
        int from = offset(left.getEndLineNum(), left.getEndColumnNum());
        int to = offset(right.getLineNum(), right.getColumnNum());
        for (int at : integerDivisions) {
            if (from < at && at < to) {
                return true;
            }
        }
        return false;
    }

    /** The offset in the text given to the parser of a position in the text the parser read (words quoted). */
    private int offset(int line, int column) {
        return CalciteParser.offsetOf(text, line, parsed.textColumn(line, column));
    }
}
