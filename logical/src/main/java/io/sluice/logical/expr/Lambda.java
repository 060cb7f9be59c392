package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A lambda function {@code (x, i) -> body}, only valid as an argument of a {@link HigherOrderCall},
 * which gives its parameters their types. The body reads its parameters as {@link LambdaVariable}s
 * and may read the input's columns (outer columns); it is typed and bound against
 * {@link #bodySchema}: the input with one field per parameter, so a parameter shadows a column of
 * the same name, as in Spark.
 */
public record Lambda(List<String> parameters, Expr body) implements Expr {
    public Lambda {
        parameters = List.copyOf(parameters);
        requireNonNull(body, "body is null");
        Set<String> seen = new HashSet<>();
        for (String p : parameters) {
            if (!seen.add(p.toLowerCase(Locale.ROOT))) {
                throw new SluiceException("lambda function " + this + " names its argument '" + p + "' twice");
            }
        }
        if (parameters.isEmpty()) {
            throw new SluiceException("a lambda function needs at least one argument: " + this);
        }
    }

    /** The schema the body is typed and bound against: {@code input} and the parameters of {@code types}. */
    public Schema bodySchema(Schema input, List<DataType> types) {
        List<Field> fields = new ArrayList<>(input.size() + parameters.size());
        for (Field f : input.fields()) {
            if (!isParameterField(f.name())) {
                fields.add(f);
            }
        }
        for (int i = 0; i < parameters.size(); i++) {
            fields.add(new Field(LambdaVariable.fieldName(parameters.get(i)), types.get(i)));
        }
        return new Schema(fields);
    }

    private boolean isParameterField(String name) {
        for (String p : parameters) {
            if (LambdaVariable.fieldName(p).equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public DataType type(Schema input) {
        throw new SluiceException("lambda function " + this + " is only valid as an argument of a higher-order"
                + " function such as transform or filter");
    }

    @Override
    public List<Expr> children() {
        return List.of(body);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new Lambda(parameters, children.get(0));
    }

    @Override
    public String toString() {
        return "lambdafunction(" + body + ", " + String.join(", ", parameters) + ")";
    }
}
