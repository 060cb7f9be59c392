package io.sluice.sql;

import io.sluice.common.NameSuggestions;
import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import java.util.ArrayList;
import java.util.List;

/**
 * Fits an INSERT's query to the table it writes, by position (as Spark and PostgreSQL do): the
 * column counts must match; each query column must have the table column's type, or a type that
 * meets it in a common numeric type (then it is cast, a value that does not fit failing when it is
 * met), or be an untyped NULL. The output takes the table's column names, so the files written
 * read back under them.
 */
final class InsertCoercion {
    private InsertCoercion() {
    }

    /**
     * An INSERT's query with a column list, spread over all of the table's columns in table order:
     * a listed column takes the query's column at the list's position, an unlisted one NULL. The
     * list must name distinct columns of the table, as many as the query gives.
     */
    static LogicalPlan toTableColumns(LogicalPlan query, List<String> columns, Schema table, String tableName) {
        Schema given = query.schema();
        if (columns.size() != given.size()) {
            throw new SluiceException("INSERT INTO " + tableName + ": the column list names " + columns.size()
                    + " column" + (columns.size() == 1 ? "" : "s") + " but the query gives " + given.size());
        }
        int[] source = new int[table.size()];
        java.util.Arrays.fill(source, -1);
        for (int i = 0; i < columns.size(); i++) {
            int index = -1;
            for (int t = 0; t < table.size(); t++) {
                if (table.field(t).name().equalsIgnoreCase(columns.get(i))) {
                    index = t;
                }
            }
            if (index < 0) {
                throw new SluiceException("INSERT INTO " + tableName + ": unknown column '" + columns.get(i) + "';"
                        + NameSuggestions.didYouMean(columns.get(i), table.names()) + " the table has "
                        + String.join(", ", table.names()));
            }
            if (source[index] >= 0) {
                throw new SluiceException("INSERT INTO " + tableName + ": column '" + columns.get(i)
                        + "' is listed twice");
            }
            source[index] = i;
        }
        List<Expr> exprs = new ArrayList<>();
        for (int t = 0; t < table.size(); t++) {
            Field want = table.field(t);
            Expr e = source[t] < 0 ? new Cast(Literal.nullValue(), want.type()) : new Column(given.field(source[t]).name());
            exprs.add(new Alias(e, want.name()));
        }
        return new Projection(query, exprs);
    }

    static LogicalPlan fit(LogicalPlan query, Schema table, String tableName) {
        Schema given = query.schema();
        if (given.size() != table.size()) {
            throw new SluiceException("INSERT INTO " + tableName + ": the query gives " + given.size() + " column"
                    + (given.size() == 1 ? "" : "s") + " but the table has " + table.size() + " ("
                    + String.join(", ", table.names()) + ")");
        }
        List<Expr> exprs = new ArrayList<>();
        boolean identity = true;
        for (int i = 0; i < table.size(); i++) {
            Field want = table.field(i);
            Field got = given.field(i);
            Expr e = new Column(got.name());
            if (!got.type().equals(want.type())) {
                DataType common = TypeRules.commonType(got.type(), want.type());
                if (common == null) {
                    throw new SluiceException("INSERT INTO " + tableName + ": column " + (i + 1) + " ('" + want.name()
                            + "') is " + want.type() + " but the query gives " + got.type() + " ('" + got.name() + "')");
                }
                e = new Cast(e, want.type());
                identity = false;
            }
            if (!got.name().equals(want.name())) {
                e = new Alias(e, want.name());
                identity = false;
            }
            exprs.add(e);
        }
        return identity ? query : new Projection(query, exprs);
    }
}
