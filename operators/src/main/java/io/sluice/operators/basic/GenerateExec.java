package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.kernels.NestedValues;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.Generate;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Repeats each input row once per element of the generator's list (or entry of its map) and
 * appends the elements (keys and values; with {@code posexplode} the position first; with
 * {@code inline} a struct element's fields) as new columns: the physical form of
 * {@code io.sluice.logical.plan.Generate}. Rows stay in their partition, so the input's partitioning
 * holds; one output batch per input batch.
 */
public record GenerateExec(ExecutionPlan input, Generate.Function function, Expr generator, boolean outer, Schema schema,
        long estimatedRows) implements ExecutionPlan {
    public GenerateExec {
        requireNonNull(input, "input is null");
        requireNonNull(function, "function is null");
        requireNonNull(generator, "generator is null");
        requireNonNull(schema, "schema is null");
    }

    public GenerateExec(ExecutionPlan input, Generate.Function function, Expr generator, boolean outer, Schema schema) {
        this(input, function, generator, outer, schema, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new GenerateExec(input, function, generator, outer, schema, rows);
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new GenerateExec(children.get(0), function, generator, outer, schema, estimatedRows);
    }

    @Override
    public PlanProperties properties() {
        PlanProperties in = input.properties();
        return new PlanProperties(in.partitioning(), List.of(), in.bounded());
    }

    @Override
    public String describe() {
        List<String> generated = schema.names().subList(input.schema().size(), schema.size());
        return "GenerateExec: " + function.sqlName(outer) + "(" + generator + ") AS " + String.join(", ", generated);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        BoundExprs bound = new BoundExprs(List.of(generator), input.schema());
        BatchStream in = input.execute(partition, context);
        return new BatchStream() {
            @Override
            public Batch next() {
                while (true) {
                    Batch batch = in.next();
                    if (batch == null) {
                        return null;
                    }
                    try (batch) {
                        Batch out = explode(batch, bound.evaluate(0, batch), context);
                        if (out != null) {
                            return out;
                        }
                    }
                }
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }

    private Batch explode(Batch batch, Col values, TaskContext context) {
        int rows = batch.rowCount();
        boolean map = values.type.kind() == DataType.Kind.MAP;
        int total = 0;
        for (int r = 0; r < rows; r++) {
            int size = values.isNull(r) ? 0 : map ? ((Map<?, ?>) values.get(r)).size() : ((List<?>) values.get(r)).size();
            total += size == 0 && outer ? 1 : size;
        }
        if (total == 0) {
            return null;
        }
        int inputColumns = batch.schema().size();
        int made = schema.size() - inputColumns;
        int[] from = new int[total];
        long[] positions = function == Generate.Function.POSEXPLODE ? new long[total] : null;
        boolean[] missing = outer ? new boolean[total] : null; // rows an outer generator made for a NULL or empty value
        Object[][] generated = new Object[made][total];
        List<Field> fields = function == Generate.Function.INLINE ? values.type.elementType().fields() : List.of();
        int first = positions == null ? 0 : 1;
        int at = 0;
        for (int r = 0; r < rows; r++) {
            int start = at;
            if (!values.isNull(r)) {
                if (map) {
                    for (Map.Entry<?, ?> e : ((Map<?, ?>) values.get(r)).entrySet()) {
                        generated[first][at] = e.getKey();
                        generated[first + 1][at++] = e.getValue();
                    }
                } else if (function == Generate.Function.INLINE) {
                    for (Object element : (List<?>) values.get(r)) {
                        if (element != null) {
                            Map<?, ?> struct = (Map<?, ?>) element;
                            for (int c = 0; c < made; c++) {
                                generated[c][at] = struct.get(fields.get(c).name());
                            }
                        }
                        at++;
                    }
                } else {
                    for (Object element : (List<?>) values.get(r)) {
                        generated[first][at++] = element;
                    }
                }
            }
            if (positions != null) {
                for (int i = start; i < at; i++) {
                    positions[i] = i - start;
                }
            }
            if (at == start && outer) {
                missing[at++] = true; // the new columns stay NULL
            }
            Arrays.fill(from, start, at, r);
        }
        Col[] cols = new Col[schema.size()];
        for (int i = 0; i < inputColumns; i++) {
            cols[i] = batch.column(i).gather(from, total);
        }
        if (positions != null) {
            cols[inputColumns] = Col.ofLongs(DataType.INT32, positions, missing);
        }
        for (int c = first; c < made; c++) {
            cols[inputColumns + c] = NestedValues.of(schema.field(inputColumns + c).type(), generated[c]);
        }
        return Batch.of(schema, cols, total, context.allocator());
    }
}
