package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;

/**
 * Names a relation: every column {@code c} of the input is output as {@code alias.c}, and a column
 * already qualified {@code x.c} as {@code alias.c}. Joined tables thereby get distinct, qualified
 * names; an unqualified reference {@code c} still finds {@code alias.c} through
 * {@link Schema#indexOf} when no other input has a {@code c}. Rows pass through unchanged, and
 * column i of the output is column i of the input.
 *
 * <p>A name counts as qualified only when the part before its last dot is a plain identifier, so an
 * expression name such as {@code (t.v + 1)} is kept whole: {@code s.(t.v + 1)}.
 */
public record SubqueryAlias(LogicalPlan input, String alias, Schema schema) implements LogicalPlan {
    public SubqueryAlias {
        requireNonNull(schema, "schema is null");
        requireNonNull(input, "input is null");
        requireNonNull(alias, "alias is null");
        if (alias.isEmpty() || alias.indexOf('.') >= 0) {
            throw new IllegalArgumentException("a relation alias must be a non-empty name without dots: '" + alias + "'");
        }
        schemaOf(input.schema(), alias);
    }

    /** Derives the schema once, here. */
    public SubqueryAlias(LogicalPlan input, String alias) {
        this(input, alias, schemaOf(requireNonNull(input, "input is null").schema(), requireNonNull(alias, "alias is null")));
    }

    /** The unqualified part of a column name: {@code c} for {@code x.c} and for {@code c}. */
    public static String unqualified(String name) {
        int dot = name.lastIndexOf('.');
        if (dot <= 0 || dot == name.length() - 1) {
            return name;
        }
        for (int i = 0; i < dot; i++) {
            char ch = name.charAt(i);
            if (!(Character.isLetterOrDigit(ch) || ch == '_' || ch == '$')) {
                return name;
            }
        }
        return name.substring(dot + 1);
    }

    private static Schema schemaOf(Schema input, String alias) {
        List<Field> fields = new ArrayList<>(input.size());
        for (Field f : input.fields()) {
            String name = alias + "." + unqualified(f.name());
            for (Field earlier : fields) {
                if (earlier.name().equals(name)) {
                    throw new SluiceException("relation '" + alias + "' would have two columns named '" + name
                            + "'; give the columns of its input distinct names");
                }
            }
            fields.add(new Field(name, f.type()));
        }
        return new Schema(fields);
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(input);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new SubqueryAlias(children.get(0), alias);
    }

    @Override
    public List<Expr> expressions() {
        return List.of();
    }

    @Override
    public String describe() {
        return "SubqueryAlias: " + alias;
    }

    /** The input's statistics: the columns are the same, renamed. */
    @Override
    public Statistics statistics(StatisticsContext context) {
        return context.of(input);
    }
}
