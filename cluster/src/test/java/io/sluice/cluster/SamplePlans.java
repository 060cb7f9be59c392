package io.sluice.cluster;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/** Plans for serialization tests. */
public final class SamplePlans {
    private SamplePlans() {
    }

    public static final TableSource ORDERS = new TableSource("orders", FileFormat.PARQUET, "file:///tmp/orders",
            Schema.of(new Field("id", DataType.INT64), new Field("customer", DataType.UTF8),
                    new Field("amount", DataType.decimal(12, 2)), new Field("price", DataType.FLOAT64),
                    new Field("day", DataType.DATE32), new Field("paid", DataType.BOOL)));

    /** A plan touching every logical node, most expressions and every kind of literal. */
    public static LogicalPlan samplePlan() {
        LogicalPlan scan = new TableScan(ORDERS, List.of("id", "customer", "amount", "price", "day", "paid"));
        Expr predicate = new Binary(BinaryOp.AND,
                new Binary(BinaryOp.GT, new Column("amount"), Literal.ofDecimal(new BigDecimal("10.50"))),
                new Binary(BinaryOp.OR,
                        new Binary(BinaryOp.LT_EQ, new Column("day"), Literal.ofDate(LocalDate.of(2024, 2, 29))),
                        new Unary(Unary.Op.IS_NULL, new Column("paid"))));
        LogicalPlan filter = new Filter(scan, predicate);
        LogicalPlan projection = new Projection(filter, List.of(
                new Column("customer"),
                new Alias(new Binary(BinaryOp.MULTIPLY, new Column("price"), Literal.of(1.25)), "gross"),
                new Alias(new Cast(new Column("id"), DataType.INT32), "id32"),
                new Alias(new Binary(BinaryOp.EQ, new Column("customer"), Literal.of("O'Neil")), "is_oneil"),
                new Alias(Literal.nullValue(), "nothing"),
                new Alias(Literal.of(true), "yes")));
        LogicalPlan aggregate = new Aggregate(projection, List.of(new Column("customer")), List.of(
                new Alias(new AggregateCall(AggregateFunction.SUM, new Column("gross")), "total"),
                new AggregateCall(AggregateFunction.COUNT_STAR, null),
                new Alias(new AggregateCall(AggregateFunction.MAX, new Column("id32")), "max_id")));
        LogicalPlan sort = new Sort(aggregate, List.of(SortKey.desc(new Column("total")),
                new SortKey(new Column("customer"), true, true)));
        return new Limit(sort, 5, 10);
    }
}
