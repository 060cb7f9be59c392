package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Lambda;
import io.sluice.logical.expr.LambdaVariable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A lambda function's body bound to the batches it is evaluated over: one row per element (or
 * map entry) of all the rows of an input batch, its parameters' values in the last columns and,
 * before them, only the input fields the body reads (outer columns and enclosing lambdas'
 * parameters), repeated per element. The body is evaluated once per input batch over all its
 * elements, as any expression over a batch.
 */
record BoundLambda(PhysicalExpr body, Schema schema, int[] outerIndexes) {
    /** The batches built here are heap columns only; nothing evaluating an expression writes them to Arrow. */
    private static final BufferAllocator NO_ARROW = new RootAllocator(0);

    BoundLambda {
        requireNonNull(body, "body is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(outerIndexes, "outerIndexes is null");
    }

    /** {@code lambda} with parameters of {@code types}, over batches of {@code input}. */
    static BoundLambda bind(Lambda lambda, List<DataType> types, Schema input) {
        Set<String> read = new LinkedHashSet<>();
        readFields(lambda.body(), lowerCase(lambda.parameters()), read);
        List<Field> fields = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        for (String name : read) {
            int index = input.indexOf(name);
            if (index >= 0 && !indexes.contains(index)) {
                indexes.add(index);
                fields.add(input.field(index));
            }
        }
        Schema parameters = lambda.bodySchema(new Schema(fields), types);
        return new BoundLambda(ExprBinder.bind(lambda.body(), parameters), parameters,
                indexes.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The names of the input fields {@code e} reads: its columns and the variables {@code bound} does not hold. */
    private static void readFields(Expr e, Set<String> bound, Set<String> out) {
        if (e instanceof Column c) {
            out.add(c.column());
        } else if (e instanceof LambdaVariable v && !bound.contains(v.name().toLowerCase(Locale.ROOT))) {
            out.add(v.fieldName());
        } else if (e instanceof Lambda inner) {
            Set<String> nested = new HashSet<>(bound);
            nested.addAll(lowerCase(inner.parameters()));
            readFields(inner.body(), nested, out);
            return;
        }
        for (Expr child : e.children()) {
            readFields(child, bound, out);
        }
    }

    private static Set<String> lowerCase(List<String> names) {
        Set<String> out = new HashSet<>();
        names.forEach(n -> out.add(n.toLowerCase(Locale.ROOT)));
        return out;
    }

    DataType type() {
        return body.type();
    }

    /**
     * The body's values over {@code count} elements, element {@code k} of input row {@code rows[k]}
     * with parameter values {@code parameters[j]} (each {@code count} long).
     */
    Col apply(Batch input, int[] rows, int count, Col... parameters) {
        if (count == 0) {
            return Col.allNull(body.type(), 0);
        }
        Col[] columns = new Col[schema.size()];
        for (int i = 0; i < outerIndexes.length; i++) {
            columns[i] = input.column(outerIndexes[i]).gather(rows, count);
        }
        System.arraycopy(parameters, 0, columns, outerIndexes.length, parameters.length);
        try (Batch elements = Batch.of(schema, columns, count, NO_ARROW)) {
            return body.evaluate(elements);
        }
    }
}
