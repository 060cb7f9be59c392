package io.sluice.operators.expr;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.ConstantFolder;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.function.FunctionCall;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Folds a constant expression by binding it ({@link ExprBinder}) and evaluating it on a batch of one
 * row and no columns: the kernels the executors use compute the value. A text or binary value
 * longer than {@link #MAX_FOLDED_LENGTH} is not folded: the expression stays as written and is
 * computed where it runs, so that folding literals into one another (a concatenation of a value
 * with itself, level after level) stops at that size instead of doubling on the coordinator.
 */
public final class EvaluatingConstantFolder implements ConstantFolder {
    /** The longest text (characters) or binary (bytes) value a fold may produce. */
    public static final int MAX_FOLDED_LENGTH = 64 * 1024;

    private static final Schema NO_COLUMNS = new Schema(List.of());

    @Override
    public Optional<Literal> fold(Expr expr, Schema input) {
        if (!FunctionCall.isDeterministic(expr)) {
            return Optional.empty(); // rand() is a new value per row, never one constant
        }
        DataType type;
        Col col;
        try (Batch one = new Batch(NO_COLUMNS, new VectorSchemaRoot(List.of(), List.of(), 1))) {
            type = expr.type(input);
            if (type.isNested()) {
                return Optional.empty(); // a literal holds no nested value
            }
            col = ExprBinder.bind(expr, NO_COLUMNS).evaluate(one);
        } catch (SluiceException | ArithmeticException | IllegalArgumentException | IllegalStateException ex) {
            return Optional.empty();
        }
        if (col.length != 1 || !col.type.equals(type)) {
            return Optional.empty();
        }
        if (col.isNull(0) || type.kind() == DataType.Kind.NULL) {
            return Optional.of(new Literal(null, type));
        }
        Literal folded = ScalarLiteral.literalAt(col, 0);
        return tooLong(folded.value()) ? Optional.empty() : Optional.of(folded);
    }

    private static boolean tooLong(Object value) {
        return value instanceof CharSequence text && text.length() > MAX_FOLDED_LENGTH
                || value instanceof byte[] bytes && bytes.length > MAX_FOLDED_LENGTH;
    }
}
