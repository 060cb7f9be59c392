package io.sluice.plan.wire;

import io.sluice.plan.expr.AddInterval;
import io.sluice.plan.expr.AggregateCall;
import io.sluice.plan.expr.AggregateFunction;
import io.sluice.plan.expr.Alias;
import io.sluice.plan.expr.Binary;
import io.sluice.plan.expr.BinaryOp;
import io.sluice.plan.expr.Case;
import io.sluice.plan.expr.Cast;
import io.sluice.plan.expr.Column;
import io.sluice.plan.expr.Exists;
import io.sluice.plan.expr.Extract;
import io.sluice.plan.expr.InSubquery;
import io.sluice.plan.expr.Like;
import io.sluice.plan.expr.Literal;
import io.sluice.plan.expr.OuterColumn;
import io.sluice.plan.expr.ScalarFunction;
import io.sluice.plan.expr.ScalarSubquery;
import io.sluice.plan.expr.SortKey;
import io.sluice.plan.expr.Substring;
import io.sluice.plan.expr.Unary;
import io.sluice.plan.logical.Aggregate;
import io.sluice.plan.logical.EmptyRelation;
import io.sluice.plan.logical.Filter;
import io.sluice.plan.logical.Join;
import io.sluice.plan.logical.JoinType;
import io.sluice.plan.logical.Limit;
import io.sluice.plan.logical.Projection;
import io.sluice.plan.logical.Sort;
import io.sluice.plan.logical.SubqueryAlias;
import io.sluice.plan.logical.TableScan;
import io.sluice.plan.logical.Union;
import io.sluice.plan.operators.AggregateMode;
import io.sluice.plan.operators.EmptyExec;
import io.sluice.plan.operators.FileScanExec;
import io.sluice.plan.operators.FilterExec;
import io.sluice.plan.operators.HashAggregateExec;
import io.sluice.plan.operators.HashJoinExec;
import io.sluice.plan.operators.LimitExec;
import io.sluice.plan.operators.ProjectionExec;
import io.sluice.plan.operators.RepartitionExec;
import io.sluice.plan.operators.RuntimeFilter;
import io.sluice.plan.operators.RuntimeFilterExec;
import io.sluice.plan.operators.RuntimeFilterSourceExec;
import io.sluice.plan.operators.SampleExec;
import io.sluice.plan.operators.SortExec;
import io.sluice.plan.operators.SortMergeJoinExec;
import io.sluice.plan.operators.UnionExec;
import io.sluice.plan.physical.FetchFailure;
import io.sluice.plan.physical.MapStatus;
import io.sluice.plan.physical.OperatorMetrics;
import io.sluice.plan.physical.Partitioning;
import io.sluice.plan.physical.PlanProperties;
import io.sluice.plan.physical.SplitPoints;
import io.sluice.plan.source.ColumnStats;
import io.sluice.plan.sink.FileWriteExec;
import io.sluice.plan.sink.SaveMode;
import io.sluice.plan.sink.WriteTarget;
import io.sluice.plan.source.FileFormat;
import io.sluice.plan.source.ScanPartition;
import io.sluice.plan.source.TableSource;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.Field;
import io.sluice.plan.types.Schema;
import io.sluice.plan.exec.Temporal;
import io.sluice.plan.expr.DateTrunc;
import io.sluice.plan.expr.GroupingCall;
import io.sluice.plan.expr.QuantifiedComparison;
import io.sluice.plan.expr.WindowCall;
import io.sluice.plan.expr.WindowFrame;
import io.sluice.plan.expr.WindowFunction;
import io.sluice.plan.logical.JoinMark;
import io.sluice.plan.logical.Window;
import io.sluice.plan.operators.OrderedGatherExec;
import io.sluice.plan.operators.WindowExec;
import java.util.List;

/** The plan module's wire classes: types, expressions, logical nodes, operators and task results. */
public final class PlanWireClasses implements WireClasses {
    @Override
    public List<Class<?>> classes() {
        return List.of(
                // types and sources
                DataType.class, DataType.Kind.class, Field.class, Schema.class,
                TableSource.class, FileFormat.class, ScanPartition.class, ColumnStats.class,
                // expressions
                AddInterval.class, AggregateCall.class, AggregateFunction.class, Alias.class, Binary.class,
                BinaryOp.class, Case.class, Cast.class, Column.class, Exists.class, Extract.class,
                Extract.Field.class, InSubquery.class, Like.class, Literal.class, OuterColumn.class,
                ScalarFunction.class, ScalarFunction.Function.class, ScalarSubquery.class, SortKey.class,
                Substring.class, Unary.class, Unary.Op.class, GroupingCall.class, QuantifiedComparison.class,
                DateTrunc.class, Temporal.TruncUnit.class, WindowCall.class, WindowFunction.class, WindowFrame.class,
                WindowFrame.Units.class, WindowFrame.BoundKind.class, WindowFrame.Bound.class,
                // logical plans
                Aggregate.class, EmptyRelation.class, Filter.class, Join.class, JoinType.class, JoinMark.class, Limit.class,
                Projection.class, Sort.class, SubqueryAlias.class, TableScan.class, Union.class, Window.class,
                // physical plans
                AggregateMode.class, EmptyExec.class, FileScanExec.class, FilterExec.class,
                HashAggregateExec.class, HashJoinExec.class, HashJoinExec.Mode.class, LimitExec.class,
                ProjectionExec.class, RepartitionExec.class, RuntimeFilterExec.class, RuntimeFilterSourceExec.class, RuntimeFilter.class, SampleExec.class, SortExec.class,
                SortMergeJoinExec.class, UnionExec.class, OrderedGatherExec.class, WindowExec.class,
                Partitioning.Unknown.class, Partitioning.Single.class, Partitioning.Hash.class,
                Partitioning.RoundRobin.class, Partitioning.Broadcast.class, Partitioning.Range.class,
                PlanProperties.class, SplitPoints.class,
                // writes
                FileWriteExec.class, WriteTarget.class, SaveMode.class,
                // task results
                MapStatus.class, FetchFailure.class, OperatorMetrics.class,
                // user functions: a class name and its job's jar, never a user object
                io.sluice.plan.expr.UserFunctionCall.class, io.sluice.plan.expr.UserJar.class);
    }
}
