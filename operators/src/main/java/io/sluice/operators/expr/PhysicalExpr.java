package io.sluice.operators.expr;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.SelectionKernels;
import io.sluice.kernels.Utf8Bytes;
import org.apache.arrow.vector.FieldVector;

/**
 * A scalar expression bound to one input schema ({@link ExprBinder}): columns are positions in the
 * batch, constants are one-row scalars, result types are fixed, patterns are compiled. An operator
 * binds its logical expressions once per {@code execute} and evaluates the bound form per batch, so
 * nothing is looked up by name, expanded or compiled per batch.
 *
 * <p>Bound expressions are not part of a plan: plans keep (and send, and print) their logical
 * expressions, and bind them where they run.
 */
public interface PhysicalExpr {
    /** The type every evaluation yields. */
    DataType type();

    /** One value per row of {@code batch}, whose schema is the one this expression was bound to. */
    Col evaluate(Batch batch);

    /**
     * The values as UTF-8 bytes when {@code batch} already holds them so (a string column in Arrow
     * form), else null: for operators that hash, compare or copy strings as bytes, never decoding
     * them. Only a bound column answers; everything else is evaluated.
     */
    default Utf8Bytes utf8(Batch batch) {
        return null;
    }

    /**
     * The values as the Arrow vector {@code batch} already holds them in (an input column of a
     * batch in Arrow form), else null: for kernels that read Arrow buffers in place instead of a
     * heap column made per batch. Owned by the batch. Only a bound column (and a struct field of
     * one, {@link FieldAccessExpr}) answers.
     */
    default FieldVector arrowVector(Batch batch) {
        return null;
    }

    /**
     * The values read in place from the fixed-width Arrow vector {@code batch} holds them in (a
     * bound numeric or date column of a batch in Arrow form), else null: kernels then loop over
     * the vector's buffers rather than a heap copy of the column. Valid while the batch is open.
     */
    default InPlaceValues inPlace(Batch batch) {
        return null;
    }

    /**
     * Narrows {@code selection[0..count)} (ascending rows of {@code batch}) to the rows where this
     * predicate is TRUE, reading its operands in place, and returns the new count; -1 when this
     * expression cannot be read so (the caller then evaluates it as a boolean column).
     */
    default int narrowSelection(Batch batch, int[] selection, int count) {
        return -1;
    }

    /**
     * Narrows {@code selection[0..count)} to the rows where this predicate is TRUE: in place when
     * {@link #narrowSelection} can, else by evaluating it as a boolean column; never -1.
     */
    default int keepTrue(Batch batch, int[] selection, int count) {
        if (count == 0) {
            return 0;
        }
        int kept = narrowSelection(batch, selection, count);
        return kept >= 0 ? kept : SelectionKernels.mask(evaluate(batch), selection, count);
    }
}
