package io.sluice.wire;

import io.sluice.common.WireClasses;
import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TemporalValues;
import io.sluice.datasource.FileScanExec;
import io.sluice.datasource.file.ColumnStats;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.datasource.sink.FileWriteExec;
import io.sluice.logical.expr.AddInterval;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.DateTrunc;
import io.sluice.logical.expr.Extract;
import io.sluice.logical.expr.GroupingCall;
import io.sluice.logical.expr.HigherOrderCall;
import io.sluice.logical.expr.Lambda;
import io.sluice.logical.expr.LambdaVariable;
import io.sluice.logical.expr.InList;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.OuterColumn;
import io.sluice.logical.expr.RegexMatch;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.Substring;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.logical.expr.WindowFunction;
import io.sluice.logical.function.FunctionCall;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.BroadcastHint;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.Exists;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Generate;
import io.sluice.logical.plan.GroupingSetChoice;
import io.sluice.logical.plan.InSubquery;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinMark;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.RangeRelation;
import io.sluice.logical.plan.QuantifiedComparison;
import io.sluice.logical.plan.Repartition;
import io.sluice.logical.plan.Sample;
import io.sluice.logical.plan.ScalarSubquery;
import io.sluice.logical.plan.SharedSubplan;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.SortWithinPartitions;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.plan.Union;
import io.sluice.logical.plan.Window;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.operators.FetchFailure;
import io.sluice.operators.MapStatus;
import io.sluice.operators.OperatorMetrics;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.SplitPoints;
import io.sluice.operators.aggregate.AggregateMode;
import io.sluice.operators.aggregate.HashAggregateExec;
import io.sluice.operators.basic.EmptyExec;
import io.sluice.operators.basic.GenerateExec;
import io.sluice.operators.basic.LimitExec;
import io.sluice.operators.basic.ProjectionExec;
import io.sluice.operators.basic.RangeExec;
import io.sluice.operators.basic.RepartitionExec;
import io.sluice.operators.basic.RowSampleExec;
import io.sluice.operators.basic.SampleExec;
import io.sluice.operators.basic.UnionExec;
import io.sluice.operators.filter.FilterExec;
import io.sluice.operators.filter.RuntimeFilter;
import io.sluice.operators.filter.RuntimeFilterExec;
import io.sluice.operators.filter.RuntimeFilterSourceExec;
import io.sluice.operators.filter.RuntimeRowFilter;
import io.sluice.operators.join.HashJoinExec;
import io.sluice.operators.join.SortMergeJoinExec;
import io.sluice.operators.sort.OrderedGatherExec;
import io.sluice.operators.sort.SortExec;
import io.sluice.operators.window.WindowExec;
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
                Extract.Field.class, InSubquery.class, InList.class, Like.class, RegexMatch.class, Literal.class, OuterColumn.class,
                ScalarFunction.class, ScalarFunction.Function.class, ScalarSubquery.class, SortKey.class,
                Substring.class, Unary.class, Unary.Op.class, GroupingCall.class, QuantifiedComparison.class,
                DateTrunc.class, FunctionCall.class, TemporalValues.TruncUnit.class, WindowCall.class, WindowFunction.class, WindowFrame.class,
                WindowFrame.Units.class, WindowFrame.BoundKind.class, WindowFrame.Bound.class, ArithmeticMode.class,
                HigherOrderCall.class, HigherOrderCall.Function.class, Lambda.class, LambdaVariable.class,
                // logical plans
                Aggregate.class, EmptyRelation.class, Filter.class, Join.class, JoinType.class, JoinMark.class, Limit.class,
                Projection.class, Sort.class, SortWithinPartitions.class, Repartition.class, BroadcastHint.class, SubqueryAlias.class, TableScan.class, Union.class, Window.class, Generate.class, GroupingSetChoice.class, SharedSubplan.class, Generate.Function.class, Sample.class, RangeRelation.class,
                // physical plans
                AggregateMode.class, EmptyExec.class, FileScanExec.class, FileScanExec.ListedFiles.class, FilterExec.class,
                HashAggregateExec.class, HashJoinExec.class, HashJoinExec.Mode.class, LimitExec.class,
                ProjectionExec.class, RepartitionExec.class, RuntimeFilterExec.class, RuntimeFilterSourceExec.class, RuntimeFilter.class, RuntimeRowFilter.class, SampleExec.class, SortExec.class,
                SortMergeJoinExec.class, UnionExec.class, OrderedGatherExec.class, WindowExec.class, GenerateExec.class,
                RowSampleExec.class, RangeExec.class,
                Partitioning.Unknown.class, Partitioning.Single.class, Partitioning.Hash.class,
                Partitioning.RoundRobin.class, Partitioning.Broadcast.class, Partitioning.Range.class,
                PlanProperties.class, SplitPoints.class,
                // writes
                FileWriteExec.class, WriteTarget.class, SaveMode.class,
                // task results
                MapStatus.class, FetchFailure.class, OperatorMetrics.class,
                // user functions: a class name and its job's jar, never a user object
                io.sluice.logical.expr.UserFunctionCall.class, io.sluice.logical.expr.UserJar.class);
    }
}
