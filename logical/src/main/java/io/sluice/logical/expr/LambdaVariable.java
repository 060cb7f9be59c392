package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;

/**
 * A parameter of an enclosing {@link Lambda}, read in its body. It is a field of the body's schema
 * ({@link Lambda#bodySchema}) under {@link #fieldName}, a name no column has, so binding it is
 * binding a column.
 */
public record LambdaVariable(String name) implements Expr {
    private static final String PREFIX = "#lambda:";

    public LambdaVariable {
        requireNonNull(name, "name is null");
    }

    /** The field of a body schema that holds parameter {@code name}. */
    public static String fieldName(String name) {
        return PREFIX + name;
    }

    public String fieldName() {
        return fieldName(name);
    }

    @Override
    public DataType type(Schema input) {
        int index = input.indexOf(fieldName());
        if (index < 0) {
            throw new SluiceException("unknown lambda variable '" + name + "': no enclosing lambda function names it");
        }
        return input.field(index).type();
    }

    @Override
    public List<Expr> children() {
        return List.of();
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return this;
    }

    @Override
    public String toString() {
        return name;
    }
}
