package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Unpivots;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUnpivot;

/**
 * SQL's {@code input UNPIVOT [INCLUDE | EXCLUDE NULLS] (value FOR name IN (a, b AS 'label', …))}
 * as Spark reads it: the columns not listed stay as ids, then the name and the value; NULL values
 * are left out unless INCLUDE NULLS. One value column only ({@link Unpivots} plans it).
 */
final class SqlUnpivots {
    private SqlUnpivots() {
    }

    /** The plan of {@code unpivot} over {@code input}, the plan of its input relation. */
    static LogicalPlan plan(SqlUnpivot unpivot, LogicalPlan input) {
        if (unpivot.measureList.size() != 1 || unpivot.axisList.size() != 1) {
            throw SqlErrors.at(unpivot.getParserPosition(), new SluiceException(
                    "UNPIVOT of several value or name columns is not supported by Sluice; unpivot one at a time"));
        }
        String value = name(unpivot.measureList.get(0));
        String variable = name(unpivot.axisList.get(0));
        List<Expr> values = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        Set<String> listed = new HashSet<>();
        for (SqlNode item : unpivot.inList) {
            SqlNode columns = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
            SqlNode column = columns instanceof SqlNodeList list && list.size() == 1 ? list.get(0) : columns;
            if (!(column instanceof SqlIdentifier)) {
                throw SqlErrors.at(item.getParserPosition(), new SluiceException("UNPIVOT takes one column per IN entry, not "
                        + item));
            }
            String name = name(column);
            String resolved = input.schema().field(name).name();
            values.add(new Column(resolved));
            listed.add(resolved.toLowerCase(Locale.ROOT));
            labels.add(item.getKind() == SqlKind.AS ? label(((SqlCall) item).operand(1)) : Unpivots.unqualified(resolved));
        }
        List<Expr> ids = new ArrayList<>();
        for (String name : input.schema().names()) {
            if (!listed.contains(name.toLowerCase(Locale.ROOT))) {
                ids.add(new Column(name));
            }
        }
        LogicalPlan plan = Unpivots.plan(input, ids, values, labels, variable, value);
        return unpivot.includeNulls ? plan : new Filter(plan, new Unary(Unary.Op.IS_NOT_NULL, new Column(value)));
    }

    private static String name(SqlNode node) {
        SqlIdentifier id = (SqlIdentifier) (node instanceof SqlNodeList list && list.size() == 1 ? list.get(0) : node);
        return id.names.get(id.names.size() - 1);
    }

    private static String label(SqlNode node) {
        SqlNode single = node instanceof SqlNodeList list && list.size() == 1 ? list.get(0) : node;
        if (single instanceof SqlLiteral literal) {
            return literal.toValue();
        }
        if (single instanceof SqlIdentifier id) {
            return id.getSimple();
        }
        throw SqlErrors.at(node.getParserPosition(), new SluiceException("UNPIVOT takes a name or a literal after AS, not " + node));
    }
}
