package io.sluice.datasource;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.ColumnStats;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.InList;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.Unary;
import java.math.BigDecimal;
import java.util.List;

/**
 * Decides from a partition's min/max statistics whether it may hold rows passing a filter. Only
 * conjuncts of the form {@code column <op> literal} (either order) and {@code column IS NULL} are
 * used, also inside {@code AND} and {@code OR}, and an {@code IN} list as the equalities it means
 * (a group whose range holds none of its items is skipped); anything else is assumed to match. A
 * false answer is a proof: no row of the partition passes.
 */
public final class RowGroupPruner {
    private RowGroupPruner() {
    }

    public static boolean mayMatch(ScanPartition partition, List<Expr> conjuncts, Schema schema) {
        for (Expr conjunct : conjuncts) {
            if (!mayMatch(partition, conjunct, schema)) {
                return false;
            }
        }
        return true;
    }

    private static boolean mayMatch(ScanPartition partition, Expr conjunct, Schema schema) {
        if (conjunct instanceof InList in) {
            return mayMatch(partition, in.comparisons(), schema);
        }
        if (conjunct instanceof Binary logical && logical.op() == BinaryOp.OR) {
            return mayMatch(partition, logical.left(), schema) || mayMatch(partition, logical.right(), schema);
        }
        if (conjunct instanceof Binary logical && logical.op() == BinaryOp.AND) {
            return mayMatch(partition, logical.left(), schema) && mayMatch(partition, logical.right(), schema);
        }
        if (conjunct instanceof Unary u && u.op() == Unary.Op.IS_NULL && u.input() instanceof Column c) {
            ColumnStats stats = partition.stats(c.column());
            return stats == null || stats.nullCount() != 0;
        }
        if (!(conjunct instanceof Binary b) || b.op().kind() != BinaryOp.Kind.COMPARISON || b.op() == BinaryOp.NOT_EQ) {
            return true;
        }
        BinaryOp op = b.op();
        Column column;
        Literal literal;
        if (b.left() instanceof Column c && b.right() instanceof Literal l) {
            column = c;
            literal = l;
        } else if (b.right() instanceof Column c && b.left() instanceof Literal l) {
            column = c;
            literal = l;
            op = op.flip();
        } else {
            return true;
        }
        if (literal.value() == null) {
            return false; // a comparison with NULL is never true
        }
        ColumnStats stats = partition.stats(column.column());
        int index = schema.indexOf(column.column());
        if (stats == null || index < 0) {
            return true;
        }
        if (stats.min() == null) {
            return false; // only NULLs in this row group
        }
        DataType type = schema.field(index).type();
        Integer lo = compare(stats.min(), type, literal);
        Integer hi = compare(stats.max(), type, literal);
        if (lo == null || hi == null) {
            return true;
        }
        return switch (op) {
            case EQ -> lo <= 0 && hi >= 0;
            case LT -> lo < 0;
            case LT_EQ -> lo <= 0;
            case GT -> hi > 0;
            case GT_EQ -> hi >= 0;
            default -> true;
        };
    }

    /** Sign of (stat - literal), or null when they do not compare exactly. */
    private static Integer compare(Object stat, DataType columnType, Literal literal) {
        Object value = literal.value();
        if (stat instanceof String s && value instanceof String v) {
            return Integer.signum(s.compareTo(v));
        }
        if (stat instanceof Boolean s && value instanceof Boolean v) {
            return Integer.signum(Boolean.compare(s, v));
        }
        BigDecimal left = number(stat, columnType);
        BigDecimal right = number(value, literal.type());
        if (left == null || right == null) {
            return null;
        }
        return left.compareTo(right);
    }

    private static BigDecimal number(Object value, DataType type) {
        if (value instanceof Long l) {
            return type.kind() == DataType.Kind.DECIMAL ? BigDecimal.valueOf(l, type.scale()) : BigDecimal.valueOf(l);
        }
        if (value instanceof Double d && !d.isNaN() && !d.isInfinite()) {
            return BigDecimal.valueOf(d);
        }
        return null;
    }
}
