package io.sluice.operators;

import io.sluice.common.types.Schema;
import java.util.List;

/**
 * An operator with one input whose output has the input's columns (it drops, keeps or reorders
 * rows, never columns): its schema and children follow from {@link #input()}.
 */
public interface UnaryExec extends ExecutionPlan {
    ExecutionPlan input();

    @Override
    default Schema schema() {
        return input().schema();
    }

    @Override
    default List<ExecutionPlan> children() {
        return List.of(input());
    }
}
