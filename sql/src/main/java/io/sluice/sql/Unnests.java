package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.plan.Generate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnnestOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code UNNEST(e) [AS u [(x, ...)]]} in FROM, as Calcite parses it, and Spark's explode() in a select list. */
final class Unnests {
    /** The relation name of an UNNEST without an alias, as DuckDB names its column. */
    static final String DEFAULT_ALIAS = "unnest";
    /** The relation a select list's explode() becomes; no SQL name can clash with it. */
    static final String GENERATED = "generate$";
    private static final Set<String> GENERATORS = Set.of("explode", "explode_outer", "posexplode", "posexplode_outer", "inline",
            "inline_outer", "unnest");

    private Unnests() {
    }

    /**
     * One UNNEST: the generator, the expression it expands, whether it is an outer one, its alias
     * and the column names given (maybe none). {@code UNNEST(posexplode(e))} (what Spark's
     * generators in a select list or a LATERAL VIEW become) is that generator of {@code e}.
     */
    record Call(Generate.Function function, SqlNode argument, boolean outer, String alias, List<String> columns) {
    }

    /**
     * Spark's {@code SELECT ..., explode(e) [AS x], ... FROM f}: the generator moves into FROM as
     * {@code f CROSS JOIN UNNEST(e) AS generate$[(x)]} (a LEFT JOIN ... ON TRUE for
     * {@code explode_outer}) and its select item becomes that relation's columns. WHERE, GROUP BY
     * and the rest see the exploded rows, as they would the generator's output in Spark (WHERE
     * cannot name the generator's columns there, so filtering before or after is the same). One
     * generator per select list.
     */
    static void moveSelectGenerator(SqlSelect select) {
        SqlNodeList items = select.getSelectList();
        int found = -1;
        for (int i = 0; i < items.size(); i++) {
            if (generator(items.get(i)) != null) {
                if (found >= 0) {
                    throw SqlErrors.unsupported("more than one explode() in a select list");
                }
                found = i;
            }
        }
        if (found < 0) {
            return;
        }
        SqlNode item = items.get(found);
        SqlCall call = generator(item);
        String alias = item.getKind() == SqlKind.AS ? ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple() : null;
        if (select.getFrom() == null) {
            throw SqlErrors.unsupported("explode() in a query without FROM");
        }
        if (call.operandCount() != 1) {
            throw new SluiceException(call.getOperator().getName() + "() takes 1 argument, not " + call.operandCount());
        }
        String name = call.getOperator().getName();
        boolean outer = Generate.Function.isOuter(name);
        SqlParserPos pos = call.getParserPosition();
        SqlNode unnested = name.equalsIgnoreCase("unnest") || name.equalsIgnoreCase("explode") ? call.operand(0) : call;
        List<SqlNode> as = new ArrayList<>(List.of(new SqlBasicCall(SqlStdOperatorTable.UNNEST, List.of(unnested), pos),
                new SqlIdentifier(GENERATED, pos)));
        if (alias != null) {
            as.add(new SqlIdentifier(alias, pos));
        }
        select.setFrom(new SqlJoin(pos, select.getFrom(), SqlLiteral.createBoolean(false, pos),
                (outer ? JoinType.LEFT : JoinType.CROSS).symbol(pos), new SqlBasicCall(SqlStdOperatorTable.AS, as, pos),
                (outer ? JoinConditionType.ON : JoinConditionType.NONE).symbol(pos),
                outer ? SqlLiteral.createBoolean(true, pos) : null));
        items.set(found, alias != null ? new SqlIdentifier(List.of(GENERATED, alias), pos)
                : SqlIdentifier.star(List.of(GENERATED, ""), pos, List.of(pos, pos)));
    }

    private static SqlCall generator(SqlNode item) {
        SqlNode inner = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
        return inner instanceof SqlCall call && !(call instanceof SqlSelect)
                && GENERATORS.contains(call.getOperator().getName().toLowerCase(Locale.ROOT)) ? call : null;
    }

    static boolean isUnnest(SqlNode node) {
        SqlNode inner = node.getKind() == SqlKind.AS ? ((SqlCall) node).operand(0) : node;
        return inner.getKind() == SqlKind.UNNEST;
    }

    static boolean isTrue(SqlNode condition) {
        return condition instanceof SqlLiteral l && Boolean.TRUE.equals(l.getValue());
    }

    static Call call(SqlNode node) {
        String alias = DEFAULT_ALIAS;
        List<String> columns = new ArrayList<>();
        if (node.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) node;
            alias = ((SqlIdentifier) as.operand(1)).getSimple();
            for (SqlNode column : as.getOperandList().subList(2, as.operandCount())) {
                columns.add(((SqlIdentifier) column).getSimple());
            }
            node = as.operand(0);
        }
        SqlCall unnest = (SqlCall) node;
        if (unnest.operandCount() != 1) {
            throw SqlErrors.unsupported("UNNEST of " + unnest.operandCount() + " arrays at once");
        }
        if (unnest.getOperator() instanceof SqlUnnestOperator op && op.withOrdinality) {
            throw SqlErrors.unsupported("UNNEST ... WITH ORDINALITY");
        }
        SqlNode argument = unnest.operand(0);
        if (argument instanceof SqlCall generator && !(generator instanceof SqlSelect)
                && Generate.Function.named(generator.getOperator().getName()) != null) {
            String name = generator.getOperator().getName();
            if (generator.operandCount() != 1) {
                throw new SluiceException(name + "() takes 1 argument, not " + generator.operandCount());
            }
            return new Call(Generate.Function.named(name), generator.operand(0), Generate.Function.isOuter(name), alias, columns);
        }
        return new Call(Generate.Function.EXPLODE, argument, false, alias, columns);
    }

    /**
     * The new columns' names: those given, else Spark's ({@code pos}, {@code col}, {@code key},
     * {@code value}, an inlined struct's fields; {@code defaults}), except that an explode of a list
     * with an alias and no names takes the alias, as PostgreSQL and DuckDB name it.
     */
    static List<String> columnNames(Call call, List<String> defaults) {
        int count = defaults.size();
        if (!call.columns().isEmpty()) {
            if (call.columns().size() != count) {
                throw new SluiceException("UNNEST AS " + call.alias() + " names " + call.columns().size() + " column"
                        + (call.columns().size() == 1 ? "" : "s") + ", but it makes " + count);
            }
            return call.columns();
        }
        boolean named = !call.alias().equals(DEFAULT_ALIAS) && !call.alias().equals(GENERATED);
        return named && call.function() == Generate.Function.EXPLODE && count == 1 ? List.of(call.alias()) : defaults;
    }
}
