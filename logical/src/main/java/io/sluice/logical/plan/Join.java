package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;

/**
 * Joins two inputs. A pair of rows matches when every {@code leftKeys[i] = rightKeys[i]} (NULL keys
 * never match) and the residual {@code filter}, if any, is true; the filter is evaluated over the
 * left columns followed by the right ones. Output: the left columns then the right ones, or only
 * the left ones for semi and anti joins (see {@link JoinType}). An {@code INNER} join without keys
 * or filter is a cross join.
 *
 * <p>Guarantees, checked here: key lists have equal lengths, each key types over its own side, each
 * pair of keys is comparable, the filter is boolean over the concatenated columns, and the
 * concatenated column names are unique (whenever the right columns are output or a filter reads
 * them), so every column of the output has one meaning.
 */
public record Join(LogicalPlan left, LogicalPlan right, JoinType type, List<Expr> leftKeys, List<Expr> rightKeys,
        Expr filter, JoinMark mark, Schema schema) implements LogicalPlan {
    public Join {
        requireNonNull(schema, "schema is null");
        requireNonNull(left, "left is null");
        requireNonNull(right, "right is null");
        requireNonNull(type, "type is null");
        leftKeys = List.copyOf(leftKeys);
        rightKeys = List.copyOf(rightKeys);
        if (leftKeys.size() != rightKeys.size()) {
            throw new IllegalArgumentException("join has " + leftKeys.size() + " left keys but " + rightKeys.size()
                    + " right keys");
        }
        Schema leftSchema = left.schema();
        Schema rightSchema = right.schema();
        for (int i = 0; i < leftKeys.size(); i++) {
            Expr l = leftKeys.get(i);
            Expr r = rightKeys.get(i);
            checkNoAggregate(l);
            checkNoAggregate(r);
            DataType lt = l.type(leftSchema);
            DataType rt = r.type(rightSchema);
            try {
                TypeRules.checkComparable(BinaryOp.EQ, lt, rt);
            } catch (SluiceException e) {
                throw new SluiceException("join keys " + l + " and " + r + " are not comparable: " + e.getMessage(), e);
            }
        }
        if ((type == JoinType.LEFT_MARK) != (mark != null)) {
            throw new IllegalArgumentException("a LEFT_MARK join, and only it, has a mark: " + type + ", " + mark);
        }
        if (type.outputsRight() || filter != null || mark != null) {
            Schema combined = concat(leftSchema, rightSchema);
            if (filter != null) {
                checkNoAggregate(filter);
                TypeRules.checkBoolean("join filter " + filter, filter.type(combined));
            }
            if (mark != null) {
                checkNoAggregate(mark.condition());
                TypeRules.checkBoolean("mark condition " + mark.condition(), mark.condition().type(combined));
            }
        }
    }

    /** A join without a mark, deriving the output schema once, here. */
    public Join(LogicalPlan left, LogicalPlan right, JoinType type, List<Expr> leftKeys, List<Expr> rightKeys,
            Expr filter) {
        this(left, right, type, leftKeys, rightKeys, filter, null);
    }

    /** Derives the output schema once, here; {@code mark} only for {@link JoinType#LEFT_MARK}. */
    public Join(LogicalPlan left, LogicalPlan right, JoinType type, List<Expr> leftKeys, List<Expr> rightKeys,
            Expr filter, JoinMark mark) {
        this(left, right, type, leftKeys, rightKeys, filter, mark, schemaOf(requireNonNull(left, "left is null"),
                requireNonNull(right, "right is null"), requireNonNull(type, "type is null"), mark));
    }

    /** A mark join (see {@link JoinType#LEFT_MARK}). */
    public static Join mark(LogicalPlan left, LogicalPlan right, List<Expr> leftKeys, List<Expr> rightKeys,
            Expr filter, JoinMark mark) {
        return new Join(left, right, JoinType.LEFT_MARK, leftKeys, rightKeys, filter, requireNonNull(mark, "mark is null"));
    }

    /** A cross join: every left row with every right row. */
    public static Join cross(LogicalPlan left, LogicalPlan right) {
        return new Join(left, right, JoinType.INNER, List.of(), List.of(), null);
    }

    private static void checkNoAggregate(Expr e) {
        if (Exprs.containsAggregate(e)) {
            throw new SluiceException("aggregate functions are not allowed in a join condition: " + e);
        }
    }

    /**
     * The left fields then the right ones; a name on both sides is a user error that names it, since
     * a reference to it could not tell the sides apart.
     */
    public static Schema concat(Schema left, Schema right) {
        for (Field r : right.fields()) {
            for (Field l : left.fields()) {
                if (l.name().equals(r.name())) {
                    throw new SluiceException("join output has two columns named '" + r.name()
                            + "' (one from each side); alias the inputs so their names differ");
                }
            }
        }
        List<Field> fields = new ArrayList<>(left.fields());
        fields.addAll(right.fields());
        return new Schema(fields);
    }

    /** Whether this is a cross join: inner, without keys or filter. */
    public boolean isCross() {
        return type == JoinType.INNER && leftKeys.isEmpty() && filter == null;
    }

    /** The columns the filter is evaluated over: the left ones, then the right ones. */
    public Schema combinedSchema() {
        return concat(left.schema(), right.schema());
    }

    /** A copy with other keys and filter, same inputs and type. */
    public Join withCondition(List<Expr> newLeftKeys, List<Expr> newRightKeys, Expr newFilter) {
        return new Join(left, right, type, newLeftKeys, newRightKeys, newFilter, mark);
    }

    private static Schema schemaOf(LogicalPlan left, LogicalPlan right, JoinType type, JoinMark mark) {
        if (mark != null) {
            return markSchema(left.schema(), mark.column());
        }
        return type.outputsRight() ? concat(left.schema(), right.schema()) : left.schema();
    }

    /** The left fields then the mark, a nullable boolean; a mark named like a left column is an error. */
    public static Schema markSchema(Schema left, String markColumn) {
        List<Field> fields = new ArrayList<>(left.fields());
        fields.add(new Field(markColumn, DataType.BOOL));
        try {
            return new Schema(fields);
        } catch (SluiceException e) {
            throw new IllegalArgumentException("mark column '" + markColumn + "' clashes with a left column", e);
        }
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(left, right);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        if (children.size() != 2) {
            throw new IllegalArgumentException("a join has two children, not " + children.size());
        }
        return new Join(children.get(0), children.get(1), type, leftKeys, rightKeys, filter, mark);
    }

    @Override
    public List<Expr> expressions() {
        List<Expr> out = new ArrayList<>(leftKeys);
        out.addAll(rightKeys);
        if (filter != null) {
            out.add(filter);
        }
        if (mark != null) {
            out.add(mark.condition());
        }
        return out;
    }

    @Override
    public String describe() {
        if (isCross()) {
            return "Join: CROSS";
        }
        StringBuilder out = new StringBuilder("Join: ").append(type);
        if (!leftKeys.isEmpty()) {
            List<String> pairs = new ArrayList<>();
            for (int i = 0; i < leftKeys.size(); i++) {
                pairs.add(leftKeys.get(i) + " = " + rightKeys.get(i));
            }
            out.append(" keys=[").append(String.join(", ", pairs)).append(']');
        }
        if (filter != null) {
            out.append(" filter=").append(filter);
        }
        if (mark != null) {
            out.append(" mark=").append(mark);
        }
        return out.toString();
    }

    /** See {@link JoinStatistics}. */
    @Override
    public Statistics statistics(StatisticsContext context) {
        return JoinStatistics.of(this, context.of(left), context.of(right));
    }
}
