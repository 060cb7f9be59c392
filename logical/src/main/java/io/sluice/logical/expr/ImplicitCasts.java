package io.sluice.logical.expr;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TextCasts;
import io.sluice.common.types.TypeRules;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The implicit conversions DuckDB and Spark apply before type checking, made explicit in the plan:
 * <ul>
 *   <li>a string literal compared with a date, timestamp, number or boolean (also in {@code BETWEEN}
 *       and {@code IN} lists, each item as the equality with it) becomes a constant of that type, so
 *       {@code d_date BETWEEN '2000-01-27' AND ...} compares dates and a filter on it can prune
 *       row groups; against a number the text is read as a number literal ({@code '2'} is 2,
 *       {@code '2.5'} 2.5), so the numeric comparison rules apply; text that does not convert is
 *       an error naming it ({@code cannot cast 'abc' to DATE});</li>
 *   <li>a date compared with a timestamp becomes its midnight;</li>
 *   <li>string literal results of a {@code CASE} (and so of {@code coalesce}) whose other results
 *       are dates, timestamps or numbers become constants of their common type.</li>
 * </ul>
 * Only literals convert, as in DuckDB: a text column compared with a date stays an error. Date
 * arithmetic ({@code date ± integer}) and numeric widening need no rewrite: the operators' type
 * rules ({@link TypeRules}) accept them directly.
 */
public final class ImplicitCasts {
    private ImplicitCasts() {
    }

    /** {@code e} over input {@code schema}, with the conversions above applied bottom-up. */
    public static Expr apply(Expr e, Schema schema) {
        return Exprs.transformUp(e, node -> {
            if (node instanceof Binary b && b.op().kind() == BinaryOp.Kind.COMPARISON) {
                return comparison(b, schema);
            }
            if (node instanceof InList in) {
                return inList(in, schema);
            }
            if (node instanceof Case c) {
                return caseResults(c, schema);
            }
            return node;
        });
    }

    /**
     * Each item converted as the equality {@code value = item} converts it; should one of those
     * equalities convert the value instead (a date against a timestamp), the list becomes its
     * comparisons, each converted on its own.
     */
    private static Expr inList(InList in, Schema schema) {
        List<Expr> items = new ArrayList<>(in.items().size());
        boolean changed = false;
        for (Expr item : in.items()) {
            Expr converted = comparison(new Binary(BinaryOp.EQ, in.value(), item), schema);
            if (!(converted instanceof Binary b) || b.left() != in.value()) {
                return apply(in.comparisons(), schema);
            }
            changed |= b.right() != item;
            items.add(b.right());
        }
        return changed ? new InList(in.value(), items, in.negated()) : in;
    }

    private static Expr comparison(Binary b, Schema schema) {
        DataType l = typeOrNull(b.left(), schema);
        DataType r = typeOrNull(b.right(), schema);
        if (l == null || r == null || l.equals(r)) {
            return b;
        }
        Expr left = b.left();
        Expr right = b.right();
        if (l.kind() == Kind.UTF8 && convertible(r) && left instanceof Literal lit) {
            left = convert(lit, r);
        } else if (r.kind() == Kind.UTF8 && convertible(l) && right instanceof Literal lit) {
            right = convert(lit, l);
        } else if (l.kind() == Kind.DATE32 && r.kind() == Kind.TIMESTAMP) {
            left = new Cast(left, DataType.TIMESTAMP);
        } else if (l.kind() == Kind.TIMESTAMP && r.kind() == Kind.DATE32) {
            right = new Cast(right, DataType.TIMESTAMP);
        } else {
            return b;
        }
        return new Binary(b.op(), left, right, b.mode());
    }

    private static Expr caseResults(Case c, Schema schema) {
        DataType common = null;
        boolean anyText = false;
        List<Expr> results = new ArrayList<>(c.results());
        results.add(c.otherwise());
        for (Expr r : results) {
            if (r instanceof Literal lit && lit.type().kind() == Kind.UTF8) {
                anyText = true;
                continue;
            }
            DataType t = typeOrNull(r, schema);
            if (t == null) {
                return c;
            }
            common = common == null ? t : TypeRules.commonType(common, t);
            if (common == null) {
                return c;
            }
        }
        if (!anyText || common == null || !convertible(common)) {
            return c;
        }
        List<Expr> converted = new ArrayList<>(results.size());
        for (Expr r : results) {
            converted.add(r instanceof Literal lit && lit.type().kind() == Kind.UTF8 ? convert(lit, common) : r);
        }
        return new Case(c.conditions(), converted.subList(0, converted.size() - 1), converted.get(converted.size() - 1));
    }

    private static boolean convertible(DataType target) {
        return target.isTemporal() || target.isNumeric() || target.kind() == Kind.BOOL;
    }

    /**
     * A text constant as a constant of {@code target}'s kind: a date, timestamp or boolean of that
     * type; for a number, the number the text spells (integer, decimal or double), which the numeric
     * rules then widen.
     */
    static Literal convert(Literal text, DataType target) {
        if (text.value() == null) {
            return new Literal(null, target);
        }
        if (!target.isNumeric()) {
            String value = (String) text.value();
            return switch (target.kind()) { // as CAST would at run time, with its errors
                case DATE32 -> new Literal(TextCasts.toDate(value), target);
                case TIMESTAMP -> new Literal(TextCasts.toTimestamp(value), target);
                case BOOL -> new Literal(TextCasts.toBool(value), target);
                default -> throw new IllegalArgumentException("no conversion of text to " + target);
            };
        }
        String s = ((String) text.value()).strip();
        try {
            BigDecimal n = new BigDecimal(s);
            if (n.scale() <= 0 && n.precision() - n.scale() <= 18) {
                return Literal.of(n.longValueExact());
            }
            if (n.scale() > 0 && n.scale() <= DataType.MAX_LONG_DECIMAL_PRECISION
                    && n.precision() <= DataType.MAX_LONG_DECIMAL_PRECISION && !s.toLowerCase().contains("e")) {
                return Literal.ofDecimal(n);
            }
            return Literal.of(n.doubleValue());
        } catch (NumberFormatException | ArithmeticException e) {
            try {
                return Literal.of(Double.parseDouble(s)); // inf, nan
            } catch (NumberFormatException notDouble) {
                throw new SluiceException("cannot cast '" + text.value() + "' to " + target.sqlName());
            }
        }
    }

    /** The expression's type, or null when it does not type-check here (its plan node reports that, with context). */
    private static DataType typeOrNull(Expr e, Schema schema) {
        try {
            return e.type(schema);
        } catch (SluiceException | IllegalStateException | IllegalArgumentException ex) {
            return null;
        }
    }
}
