package io.sluice.operators.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.Substring;
import io.sluice.logical.function.FunctionCall;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * An operation repeated among an operator's expressions (q1's {@code price * (1 - discount)}) is
 * bound to one node evaluated once per batch, whose values equal the unshared evaluation's on
 * every batch; a call of {@code rand} is never shared.
 */
class SharedSubexpressionsTest {
    private static final DataType MONEY = DataType.decimal(15, 2);
    private static final Schema SCHEMA = Schema.of(new Field("price", MONEY), new Field("discount", MONEY),
            new Field("tax", MONEY));

    private static Expr col(String name) {
        return new Column(name);
    }

    private static Batch batch(int seed, BufferAllocator allocator) {
        int n = 50;
        long[][] values = new long[3][n];
        for (int i = 0; i < n; i++) {
            values[0][i] = 100_000 + 37L * i * seed;
            values[1][i] = (i * seed) % 11;
            values[2][i] = (i + seed) % 9;
        }
        boolean[] nulls = new boolean[n];
        nulls[seed % n] = true;
        return Batch.of(SCHEMA, new Col[] {Col.ofLongs(MONEY, values[0], nulls), Col.ofLongs(MONEY, values[1], null),
                Col.ofLongs(MONEY, values[2], null)}, n, allocator);
    }

    private static List<Object> values(Col c) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < c.length; i++) {
            out.add(c.get(i));
        }
        return out;
    }

    @Test
    void aRepeatedOperationIsEvaluatedOncePerBatchWithTheSameValues() {
        Expr one = new Literal(100L, DataType.decimal(3, 2));
        Expr discounted = new Binary(BinaryOp.MULTIPLY, col("price"), new Binary(BinaryOp.SUBTRACT, one, col("discount")));
        Expr charged = new Binary(BinaryOp.MULTIPLY, discounted, new Binary(BinaryOp.ADD, one, col("tax")));
        List<Expr> exprs = List.of(col("price"), discounted, charged);
        BoundExprs bound = new BoundExprs(exprs, SCHEMA);
        PhysicalExpr first = bound.bound().get(1);
        assertThat(first).isInstanceOf(SharedSubexpressions.Shared.class);
        assertThat(bound.bound().get(2)).isInstanceOf(BinaryExpr.class);
        assertThat(((BinaryExpr) bound.bound().get(2)).left()).as("the one node, read by both").isSameAs(first);
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int seed = 1; seed <= 3; seed++) {
                try (Batch batch = batch(seed, allocator)) {
                    for (int i = 0; i < exprs.size(); i++) {
                        Col unshared = ExprBinder.bind(exprs.get(i), SCHEMA).evaluate(batch);
                        assertThat(values(bound.evaluate(i, batch))).as("batch " + seed + ", " + exprs.get(i))
                                .isEqualTo(values(unshared));
                    }
                    assertThat(bound.evaluate(1, batch)).as("evaluated once per batch").isSameAs(bound.evaluate(1, batch));
                }
            }
        }
    }

    @Test
    void randIsNeverShared() {
        Expr random = new Binary(BinaryOp.ADD, new FunctionCall("rand", List.of()), Literal.of(1.0));
        BoundExprs bound = new BoundExprs(List.of(random, random), Schema.of(new Field("x", DataType.INT64)));
        assertThat(bound.bound().get(0)).isInstanceOf(BinaryExpr.class);
        assertThat(bound.bound().get(1)).isInstanceOf(BinaryExpr.class);
    }

    @Test
    void aSubstringOfAColumnTestedAgainstSeveralCodesIsCutOncePerBatch() {
        Schema schema = Schema.of(new Field("phone", DataType.UTF8));
        Expr code = new Substring(col("phone"), 1, 2L);
        // q22's IN list, as the translation spells it: one equality per code, ORed
        Expr in = new Binary(BinaryOp.OR, new Binary(BinaryOp.EQ, code, Literal.of("13")),
                new Binary(BinaryOp.OR, new Binary(BinaryOp.EQ, code, Literal.of("31")), new Binary(BinaryOp.EQ, code, Literal.of("23"))));
        BoundExprs bound = new BoundExprs(List.of(in, code), schema);
        assertThat(bound.bound().get(1)).isInstanceOf(SharedSubexpressions.Shared.class);
        String[] phones = {"13-555", "31-000", null, "99-1", "2", "23-7", "ä3-1"};
        try (BufferAllocator allocator = new RootAllocator();
                Batch batch = Batch.of(schema, new Col[] {Col.ofStrings(phones, new boolean[] {false, false, true, false, false, false, false})},
                        phones.length, allocator)) {
            batch.root(); // the Arrow form, which the substring reads
            assertThat(values(bound.evaluate(0, batch))).isEqualTo(values(ExprBinder.bind(in, schema).evaluate(batch)))
                    .containsExactly(true, true, null, false, false, true, false);
            assertThat(values(bound.evaluate(1, batch))).containsExactly("13", "31", null, "99", "2", "23", "ä3");
            assertThat(bound.evaluate(1, batch)).as("cut once per batch").isSameAs(bound.evaluate(1, batch));
        }
    }

    @Test
    void aSubstringOfSomethingOtherThanAColumnIsNotShared() {
        Expr random = new Substring(new io.sluice.logical.expr.Cast(new FunctionCall("rand", List.of()), DataType.UTF8,
                io.sluice.common.types.ArithmeticMode.STRICT), 1, 3L);
        BoundExprs bound = new BoundExprs(List.of(random, random), Schema.of(new Field("x", DataType.INT64)));
        assertThat(bound.bound().get(0)).isNotInstanceOf(SharedSubexpressions.Shared.class);
        assertThat(bound.bound().get(1)).isNotInstanceOf(SharedSubexpressions.Shared.class);
    }
}
