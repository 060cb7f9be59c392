package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.SubqueryAlias;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Plans the DataFrame joins as Spark does. Where both sides have a column of one (unqualified) name,
 * each side's column is renamed {@code q.name} with its DataFrame's qualifier ({@code alias(..)}, the
 * table name, else {@code df<id>}): {@code df1.col("a")} and {@code df2.col("a")} then resolve to
 * their own side through the lineage, while an unqualified {@code col("a")} is ambiguous and says so
 * naming both. A join {@code using} columns outputs each key once, first (the left key; for a full
 * join the first non-NULL of both), then the other left columns, then the other right ones.
 */
final class Joins {
    private Joins() {
    }

    /** Spark's join type names: inner, cross, outer/full/fullouter, left/leftouter, right/rightouter, semi/leftsemi, anti/leftanti. */
    static JoinType type(String name) {
        String n = name.toLowerCase(Locale.ROOT).replace("_", "");
        return switch (n) {
            case "inner", "cross" -> JoinType.INNER;
            case "outer", "full", "fullouter" -> JoinType.FULL;
            case "left", "leftouter" -> JoinType.LEFT;
            case "right", "rightouter" -> JoinType.RIGHT;
            case "semi", "leftsemi" -> JoinType.LEFT_SEMI;
            case "anti", "leftanti" -> JoinType.LEFT_ANTI;
            default -> throw new SluiceException("unsupported join type '" + name + "'; supported: inner, cross, outer,"
                    + " full, fullouter, full_outer, left, leftouter, left_outer, right, rightouter, right_outer,"
                    + " semi, leftsemi, left_semi, anti, leftanti, left_anti");
        };
    }

    /** Both sides, renamed where their names clash, and the lineage of the pair. */
    private record Sides(LogicalPlan left, LogicalPlan right, ColumnLineage lineage) {
    }

    /**
     * The sides with each clashing unqualified column qualified by its DataFrame ({@code q.c}); for
     * semi and anti joins, whose output is the left columns only, only the right side's are.
     */
    private static Sides sides(DataFrame left, DataFrame right, JoinType type, Map<String, String> rightRenames) {
        Schema l = left.schema();
        Schema r = right.schema();
        boolean leftToo = type.outputsRight();
        Map<String, String> leftRenames = new HashMap<>();
        Map<String, String> rightAll = new HashMap<>(rightRenames);
        for (String rn : r.names()) {
            if (rightRenames.containsKey(rn) || SubqueryAlias.unqualified(rn).length() != rn.length()) {
                continue;
            }
            for (String ln : l.names()) {
                if (SubqueryAlias.unqualified(ln).equalsIgnoreCase(rn)) {
                    rightAll.put(rn, right.qualifier() + "." + rn);
                    if (leftToo && ln.length() == rn.length()) {
                        leftRenames.put(ln, left.qualifier() + "." + ln);
                    }
                }
            }
        }
        return new Sides(renamed(left.logicalPlan(), leftRenames), renamed(right.logicalPlan(), rightAll),
                ColumnLineage.join(left.fullLineage().renamed(identityPlus(l, leftRenames)),
                        right.fullLineage().renamed(identityPlus(r, rightAll))));
    }

    private static Map<String, String> identityPlus(Schema schema, Map<String, String> renames) {
        Map<String, String> out = new HashMap<>();
        schema.names().forEach(n -> out.put(n, renames.getOrDefault(n, n)));
        return out;
    }

    private static LogicalPlan renamed(LogicalPlan plan, Map<String, String> renames) {
        if (renames.isEmpty()) {
            return plan;
        }
        List<Expr> exprs = new ArrayList<>();
        for (String n : plan.schema().names()) {
            String to = renames.get(n);
            exprs.add(to == null ? new Column(n) : new Alias(new Column(n), to));
        }
        return new Projection(plan, exprs);
    }

    /** {@code left} joined with {@code right} where {@code condition} holds (null: every pair, a cross join). */
    static DataFrame on(DataFrame left, DataFrame right, Expr condition, JoinType type) {
        Sides sides = sides(left, right, type, Map.of());
        Expr filter = null;
        if (condition != null) {
            Schema combined = Join.concat(sides.left.schema(), sides.right.schema());
            filter = left.resolveOver(condition, combined, sides.lineage);
        }
        Join join = new Join(sides.left, sides.right, type, List.of(), List.of(), filter);
        return left.joined(join, type.outputsRight() ? sides.lineage : sides.lineage.keeping(join.schema()));
    }

    /** {@code left} joined with {@code right} on equal {@code keys}, each key output once. */
    static DataFrame using(DataFrame left, DataFrame right, List<String> keys, JoinType type) {
        if (keys.isEmpty()) {
            throw new SluiceException("a join using columns needs at least one column");
        }
        Map<String, String> hidden = new HashMap<>();
        List<String> leftKeys = new ArrayList<>();
        List<String> rightKeys = new ArrayList<>();
        for (String key : keys) {
            leftKeys.add(side(left.schema(), key, "left"));
            String r = side(right.schema(), key, "right");
            rightKeys.add(r);
            hidden.put(r, right.qualifier() + "." + r);
        }
        Sides sides = sides(left, right, type, hidden);
        List<Expr> equalities = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            equalities.add(new Binary(BinaryOp.EQ, new Column(leftKeys.get(i)), new Column(hidden.get(rightKeys.get(i)))));
        }
        Join join = new Join(sides.left, sides.right, type, List.of(), List.of(), Exprs.and(equalities));
        List<Expr> out = new ArrayList<>();
        Map<String, String> extra = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            Column l = new Column(leftKeys.get(i));
            Column r = new Column(hidden.get(rightKeys.get(i)));
            String name = leftKeys.get(i);
            Expr value = switch (type) {
                case RIGHT -> r;
                case FULL -> new Case(List.of(new Unary(Unary.Op.IS_NOT_NULL, l)), List.of(l), r);
                default -> l;
            };
            out.add(value instanceof Column c && c.column().equals(name) ? value : new Alias(value, name));
            if (type.outputsRight()) {
                extra.put(r.column(), name);
            }
            extra.put(l.column(), name);
        }
        Schema joined = join.schema();
        for (String n : joined.names()) {
            boolean key = leftKeys.stream().anyMatch(n::equals) || hidden.containsValue(n);
            if (!key) {
                out.add(new Column(n));
            }
        }
        Projection projection = new Projection(join, out);
        return left.joined(projection, sides.lineage.project(out, joined, extra));
    }

    private static String side(Schema schema, String key, String side) {
        int index = schema.indexOf(key);
        if (index < 0) {
            throw new SluiceException("using column '" + key + "' is not a column of the " + side
                    + " side of the join; its columns: " + String.join(", ", schema.names()));
        }
        return schema.field(index).name();
    }
}
