package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code input [NOT] RLIKE 'regex'} (also spelled {@code REGEXP}): whether the Java regular expression
 * matches some part of the input, as Spark's {@code rlike}. The pattern is a constant, checked here
 * so that a bad one is an error naming it before any task runs. NULL input gives NULL.
 */
public record RegexMatch(Expr input, String pattern, boolean negated) implements Expr {
    public RegexMatch {
        requireNonNull(input, "input is null");
        requireNonNull(pattern, "pattern is null");
        try {
            Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw new SluiceException("invalid regular expression '" + pattern + "' in RLIKE: " + e.getDescription());
        }
    }

    @Override
    public DataType type(Schema schema) {
        DataType t = input.type(schema);
        if (t.kind() != DataType.Kind.UTF8 && t.kind() != DataType.Kind.NULL) {
            throw new SluiceException("RLIKE needs a string operand, not " + t + " (" + input + ")");
        }
        return DataType.BOOL;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new RegexMatch(children.get(0), pattern, negated);
    }

    @Override
    public String toString() {
        return input + (negated ? " NOT" : "") + " RLIKE '" + pattern.replace("'", "''") + "'";
    }

    @Override
    public boolean mayFailItself() {
        return false;
    }
}
