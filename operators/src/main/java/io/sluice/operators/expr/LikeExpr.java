package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.ArrowKernels;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.SelectionKernels;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.RegexMatch;
import java.util.regex.Pattern;
import org.apache.arrow.vector.VarCharVector;

/**
 * {@code input [NOT] [I]LIKE 'pattern'} with the pattern compiled once, at binding: to UTF-8 byte
 * segments ({@link ArrowKernels.BytePattern}, when it has no {@code _} and no case folding) for an
 * Arrow string column, and to a regular expression for every other input; {@code RLIKE}'s is a
 * regular expression already.
 */
public record LikeExpr(PhysicalExpr input, boolean negated, ArrowKernels.BytePattern bytes, Pattern regex)
        implements PhysicalExpr {
    public LikeExpr {
        requireNonNull(input, "input is null");
        requireNonNull(regex, "regex is null");
    }

    static LikeExpr of(Like like, PhysicalExpr input) {
        ArrowKernels.BytePattern bytes = like.caseInsensitive() ? null : ArrowKernels.BytePattern.compile(like.pattern());
        return new LikeExpr(input, like.negated(), bytes, toRegex(like.pattern(), like.caseInsensitive()));
    }

    /** {@code RLIKE}: the regular expression matching anywhere in the input ({@code find}, as Spark's). */
    static LikeExpr of(RegexMatch match, PhysicalExpr input) {
        return new LikeExpr(input, match.negated(), null, Pattern.compile(".*(?:" + match.pattern() + ").*", Pattern.DOTALL));
    }

    @Override
    public DataType type() {
        return DataType.BOOL;
    }

    @Override
    public Col evaluate(Batch batch) {
        if (bytes != null && input instanceof BoundColumn column
                && batch.arrowVector(column.index()) instanceof VarCharVector strings) {
            return ArrowKernels.like(strings, bytes, negated);
        }
        return matches(input.evaluate(batch), regex, negated);
    }

    /** Per row of a string column: NULL, or whether {@code regex} matches it ({@code != negated}). */
    static Col matches(Col c, Pattern regex, boolean negated) {
        if (c.type.kind() == DataType.Kind.NULL) {
            return Col.allNull(DataType.BOOL, c.length);
        }
        boolean[] out = new boolean[c.length];
        for (int i = 0; i < c.length; i++) {
            if (!c.isNull(i)) {
                out[i] = regex.matcher(c.strings[i]).matches() != negated;
            }
        }
        return Col.ofBools(out, c.nulls);
    }

    /** The regular expression equivalent to a LIKE pattern; everything but % and _ is literal. */
    static Pattern toRegex(String like, boolean caseInsensitive) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < like.length(); i++) {
            char ch = like.charAt(i);
            if (ch == '%' || ch == '_') {
                if (!literal.isEmpty()) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(ch == '%' ? ".*" : ".");
            } else {
                literal.append(ch);
            }
        }
        if (!literal.isEmpty()) {
            regex.append(Pattern.quote(literal.toString()));
        }
        int flags = Pattern.DOTALL | (caseInsensitive ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        return Pattern.compile(regex.toString(), flags);
    }

    /** On the bytes of the Arrow vector, for a byte pattern over a column the batch holds as one. */
    @Override
    public int narrowSelection(Batch batch, int[] selection, int count) {
        if (bytes != null && input instanceof BoundColumn column
                && batch.arrowVector(column.index()) instanceof VarCharVector strings) {
            return SelectionKernels.like(strings, bytes, negated, selection, count);
        }
        return -1;
    }

    @Override
    public String toString() {
        return input + (negated ? " NOT LIKE " : " LIKE ") + regex;
    }
}
