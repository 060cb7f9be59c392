package io.sluice.operators.function;

import static io.sluice.operators.function.FunctionTesting.call;
import static io.sluice.operators.function.FunctionTesting.eval;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import java.math.BigDecimal;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Spark's math and conditional functions: negative numbers, zero, NULLs, mixed types. */
class MathFunctionsTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void powersRootsAndLogarithms() {
        assertThat(eval("pow", 2, 10)).isEqualTo(1024.0);
        assertThat(eval("power", -2, 3)).isEqualTo(-8.0);
        assertThat(eval("sqrt", 4)).isEqualTo(2.0);
        assertThat((Double) eval("sqrt", -1)).isNaN();
        assertThat(eval("exp", 0)).isEqualTo(1.0);
        assertThat(eval("ln", 1)).isEqualTo(0.0);
        assertThat(eval("ln", 0)).isNull();
        assertThat(eval("log", 10, 100)).isEqualTo(2.0);
        assertThat(eval("log", -10, 100)).isNull();
        assertThat(eval("log10", 1000)).isEqualTo(3.0);
        assertThat(eval("log2", 8)).isEqualTo(3.0);
        assertThat(eval("log2", (Object) null)).isNull();
    }

    @Test
    void modulusSignAndRounding() {
        assertThat(eval("pmod", 10, 3)).isEqualTo(1L);
        assertThat(eval("pmod", -10, 3)).isEqualTo(2L);
        assertThat(eval("pmod", -7.5, 2)).isEqualTo(0.5);
        assertThat(eval("pmod", 7, 0)).isNull();
        assertThat(eval("mod", -10, 3)).isEqualTo(-1L);
        assertThat(eval("sign", -4)).isEqualTo(-1.0);
        assertThat(eval("signum", 0)).isEqualTo(0.0);
        assertThat(eval("bround", 2.5)).isEqualTo(2.0);
        assertThat(eval("bround", 3.5)).isEqualTo(4.0);
        assertThat(eval("bround", -2.5)).isEqualTo(-2.0);
        assertThat(eval("bround", new BigDecimal("2.25"), 1)).isEqualTo(new BigDecimal("2.2"));
        assertThat(eval("bround", 25, -1)).isEqualTo(20L);
        assertThat(eval("round", 2.5)).isEqualTo(3.0);
    }

    @Test
    void greatestAndLeastSkipNulls() {
        assertThat(eval("greatest", 10, 9, 2, 4, 3)).isEqualTo(10L);
        assertThat(eval("least", 10, 9.5, null)).isEqualTo(9.5);
        assertThat(eval("greatest", null, null)).isNull();
        assertThat(eval("greatest", "apple", "pear", "fig")).isEqualTo("pear");
        assertThatThrownBy(() -> call("greatest", 1, "x").type(new Schema(List.of()))).isInstanceOf(SluiceException.class)
                .hasMessage("greatest(): the arguments have no common type: BIGINT and VARCHAR");
    }

    @Test
    void conditionals() {
        assertThat(eval("if", true, 1, 2)).isEqualTo(1L);
        assertThat(eval("if", null, 1, 2)).isEqualTo(2L);
        assertThat(eval("nvl", null, "x")).isEqualTo("x");
        assertThat(eval("ifnull", "a", "x")).isEqualTo("a");
        assertThat(eval("nvl2", null, 1, 2)).isEqualTo(2L);
        assertThat(eval("nvl2", 0, 1, 2)).isEqualTo(1L);
        assertThat(eval("nullif", 2, 2)).isNull();
        assertThat(eval("coalesce", null, null, 3)).isEqualTo(3L);
    }

    @Test
    void randWithASeedRepeatsAndIsNeverFolded() {
        Schema schema = Schema.of(new Field("k", DataType.INT64));
        Expr rand = call("rand", 42);
        double[] first = randoms(rand, schema);
        assertThat(randoms(rand, schema)).isEqualTo(first);
        assertThat(java.util.Arrays.stream(first).allMatch(d -> d >= 0 && d < 1)).isTrue();
        assertThat(first[0]).isNotEqualTo(first[1]);
        assertThat(new EvaluatingConstantFolder().fold(rand, schema)).isEmpty();
        assertThat(new EvaluatingConstantFolder().fold(call("pow", 2, 3), schema)).contains(Literal.of(8.0));
    }

    private double[] randoms(Expr rand, Schema schema) {
        Col keys = Col.ofLongs(DataType.INT64, new long[] {1, 2, 3, 4}, null);
        VectorSchemaRoot root = new VectorSchemaRoot(schema.toArrow().getFields(), List.of(keys.write("k", allocator)), 4);
        return FunctionTesting.evaluate(rand, schema, root).doubles;
    }
}
