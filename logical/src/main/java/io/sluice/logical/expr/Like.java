package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowKernels;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.arrow.vector.VarCharVector;

/**
 * {@code input [NOT] LIKE 'pattern'} ({@code ILIKE} when {@code caseInsensitive}): {@code %} matches
 * any run of characters, {@code _} one character. The pattern is a constant, so it is compiled to a
 * regular expression once per batch rather than per row (a bound expression compiles it once). NULL input gives NULL.
 */
public record Like(Expr input, String pattern, boolean negated, boolean caseInsensitive) implements Expr {
    public Like {
        requireNonNull(input, "input is null");
        requireNonNull(pattern, "pattern is null");
    }

    @Override
    public DataType type(Schema schema) {
        DataType t = input.type(schema);
        if (t.kind() != DataType.Kind.UTF8 && t.kind() != DataType.Kind.NULL) {
            throw new SluiceException("LIKE needs a string operand, not " + t + " (" + input + ")");
        }
        return DataType.BOOL;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new Like(children.get(0), pattern, negated, caseInsensitive);
    }

    @Override
    public Col evaluate(Batch batch) {
        if (!caseInsensitive && input instanceof Column column) {
            // On the UTF-8 bytes of an Arrow string column: no string is decoded.
            int index = batch.schema().indexOf(column.column());
            if (index >= 0 && batch.arrowVector(index) instanceof VarCharVector strings) {
                ArrowKernels.BytePattern bytes = ArrowKernels.BytePattern.compile(pattern);
                if (bytes != null) {
                    return ArrowKernels.like(strings, bytes, negated);
                }
            }
        }
        return matches(input.evaluate(batch), toRegex(pattern, caseInsensitive), negated);
    }

    /** Per row of a string column: NULL, or whether {@code regex} matches it ({@code != negated}). */
    public static Col matches(Col c, Pattern regex, boolean negated) {
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
    public static Pattern toRegex(String like, boolean caseInsensitive) {
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

    @Override
    public String toString() {
        return input + (negated ? " NOT" : "") + (caseInsensitive ? " ILIKE " : " LIKE ")
                + "'" + pattern.replace("'", "''") + "'";
    }
}
