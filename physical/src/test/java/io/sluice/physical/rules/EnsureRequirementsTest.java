package io.sluice.physical.rules;

import static io.sluice.physical.PhysicalRuleTesting.CONFIG;
import static io.sluice.physical.PhysicalRuleTesting.beforeAfter;
import static io.sluice.physical.PhysicalRuleTesting.source;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.SplitPoints;
import io.sluice.operators.aggregate.HashAggregateExec;
import io.sluice.operators.basic.LimitExec;
import io.sluice.operators.basic.RepartitionExec;
import io.sluice.operators.join.HashJoinExec;
import io.sluice.operators.sort.OrderedGatherExec;
import io.sluice.operators.sort.SortExec;
import io.sluice.physical.CoRangeTestOperator;
import io.sluice.physical.KeyedSortedTestOperator;
import io.sluice.physical.PhysicalOptimizer;
import io.sluice.physical.TestSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link EnsureRequirements} alone: the exchanges and sorts it inserts, as whole plans before and after. */
class EnsureRequirementsTest {
    private static final EnsureRequirements RULE = new EnsureRequirements();

    private static Column col(String name) {
        return new Column(name);
    }

    private static TestSource unknown(String name, int partitions, String... columns) {
        return source(name, PlanProperties.of(new Partitioning.Unknown(partitions)), columns);
    }

    private static TestSource hashed(String name, String key, int partitions, String... columns) {
        return source(name, PlanProperties.of(new Partitioning.Hash(List.of(col(key)), partitions)), columns);
    }

    private static HashJoinExec partitionedJoin(ExecutionPlan left, ExecutionPlan right, String leftKey, String rightKey) {
        return new HashJoinExec(left, right, JoinType.INNER, List.of(col(leftKey)), List.of(col(rightKey)), null,
                HashJoinExec.Mode.PARTITIONED);
    }

    @Test
    void hashRequirementGetsAHashRepartition() {
        ExecutionPlan plan = new KeyedSortedTestOperator(unknown("t", 3, "a", "b"), "a", "b");
        assertThat(beforeAfter(RULE, plan)).isEqualTo("""
                before:
                KeyedSortedTestOperator: key=a, sort=b  [unknown(3)]
                  TestSource: t  [unknown(3)]
                after:
                KeyedSortedTestOperator: key=a, sort=b  [hash([a], 4)]
                  SortExec: [b ASC NULLS LAST], preserve_partitioning  [hash([a], 4), order=b ASC NULLS LAST]
                    RepartitionExec: hash([a], 4)  [hash([a], 4)]
                      TestSource: t  [unknown(3)]
                """);
    }

    @Test
    void singlePartitionRequirementGathers() {
        ExecutionPlan plan = new LimitExec(unknown("t", 3, "a"), 0, 10, true);
        assertThat(beforeAfter(RULE, plan)).isEqualTo("""
                before:
                GlobalLimitExec: fetch=10  [unknown(3)]
                  TestSource: t  [unknown(3)]
                after:
                GlobalLimitExec: fetch=10  [single]
                  RepartitionExec: single  [single]
                    TestSource: t  [unknown(3)]
                """);
    }

    /**
     * A global ORDER BY as planned (an ordered gather): a range repartition on fresh split points
     * and a per-partition sort go below it; nothing gathers rows into one partition.
     */
    @Test
    void orderedGatherGetsARangeRepartitionAndALocalSort() {
        List<SortKey> keys = List.of(SortKey.desc(col("a")), SortKey.asc(col("b")));
        ExecutionPlan plan = new OrderedGatherExec(unknown("t", 3, "a", "b"), keys);
        String printed = beforeAfter(RULE, plan);
        String id = splitId(RULE.apply(plan, CONFIG), 0);
        assertThat(printed.replace(id, "S")).isEqualTo("""
                before:
                OrderedGatherExec: [a DESC NULLS LAST, b ASC NULLS LAST]  [single, order=a DESC NULLS LAST, b ASC NULLS LAST]
                  TestSource: t  [unknown(3)]
                after:
                OrderedGatherExec: [a DESC NULLS LAST, b ASC NULLS LAST]  [single, order=a DESC NULLS LAST, b ASC NULLS LAST]
                  SortExec: [a DESC NULLS LAST, b ASC NULLS LAST], preserve_partitioning  [range([a DESC NULLS LAST, b ASC NULLS LAST], S(unresolved), 4), order=a DESC NULLS LAST, b ASC NULLS LAST]
                    RepartitionExec: range([a DESC NULLS LAST, b ASC NULLS LAST], S(unresolved), 4)  [range([a DESC NULLS LAST, b ASC NULLS LAST], S(unresolved), 4)]
                      TestSource: t  [unknown(3)]
                """);
    }

    /**
     * Input range-partitioned on a prefix of its sorted order already meets an ordered gather (no
     * exchange, no sort); and where one partition is required (a global sort, a global limit) it
     * is gathered in order, so the global sort above becomes redundant and goes.
     */
    @Test
    void rangePartitionedSortedInputIsGatheredInOrder() {
        Partitioning.Range range = new Partitioning.Range(List.of(SortKey.asc(col("a"))), SplitPoints.unresolved("range-x"), 4);
        List<SortKey> ab = List.of(SortKey.asc(col("a")), SortKey.asc(col("b")));
        ExecutionPlan sortedRanged = source("t", PlanProperties.of(range, ab), "a", "b");
        assertThat(RULE.apply(new OrderedGatherExec(sortedRanged, ab), CONFIG).explain()).isEqualTo("""
                OrderedGatherExec: [a ASC NULLS LAST, b ASC NULLS LAST]  [single, order=a ASC NULLS LAST, b ASC NULLS LAST]
                  TestSource: t  [range([a ASC NULLS LAST], range-x(unresolved), 4), order=a ASC NULLS LAST, b ASC NULLS LAST]
                """);
        ExecutionPlan globalSort = new SortExec(sortedRanged, List.of(SortKey.asc(col("a"))), SortExec.NO_FETCH, false);
        assertThat(beforeAfter(RULE, globalSort)).isEqualTo("""
                before:
                SortExec: [a ASC NULLS LAST]  [single, order=a ASC NULLS LAST]
                  TestSource: t  [range([a ASC NULLS LAST], range-x(unresolved), 4), order=a ASC NULLS LAST, b ASC NULLS LAST]
                after:
                OrderedGatherExec: [a ASC NULLS LAST, b ASC NULLS LAST]  [single, order=a ASC NULLS LAST, b ASC NULLS LAST]
                  TestSource: t  [range([a ASC NULLS LAST], range-x(unresolved), 4), order=a ASC NULLS LAST, b ASC NULLS LAST]
                """);
        // sorted on b but split on a: reading the partitions in order is not sorted on b, so a plain gather and the sort stay
        ExecutionPlan splitOnA = source("t", PlanProperties.of(range, List.of(SortKey.asc(col("b")))), "a", "b");
        ExecutionPlan sortB = new SortExec(splitOnA, List.of(SortKey.asc(col("b"))), SortExec.NO_FETCH, false);
        assertThat(RULE.apply(sortB, CONFIG).explain()).contains("RepartitionExec: single").doesNotContain("OrderedGatherExec");
        assertThat(RULE.apply(RULE.apply(globalSort, CONFIG), CONFIG).explain()).isEqualTo(RULE.apply(globalSort, CONFIG).explain());
    }

    @Test
    void broadcastJoinBroadcastsItsBuildSideOnly() {
        ExecutionPlan plan = new HashJoinExec(unknown("a", 3, "a.k"), unknown("b", 2, "b.k"), JoinType.INNER,
                List.of(col("a.k")), List.of(col("b.k")), null, HashJoinExec.Mode.COLLECT_RIGHT);
        assertThat(beforeAfter(RULE, plan)).isEqualTo("""
                before:
                HashJoinExec: mode=collect_right, type=inner, on=[(a.k, b.k)], build=right  [unknown(3)]
                  TestSource: a  [unknown(3)]
                  TestSource: b  [unknown(2)]
                after:
                HashJoinExec: mode=collect_right, type=inner, on=[(a.k, b.k)], build=right  [unknown(3)]
                  TestSource: a  [unknown(3)]
                  RepartitionExec: broadcast  [broadcast]
                    TestSource: b  [unknown(2)]
                """);
    }

    @Test
    void rangeRequirementGetsARangeRepartitionAndSort() {
        ExecutionPlan plan = new CoRangeTestOperator(unknown("a", 3, "x"), unknown("b", 2, "y"), "x", "y", true);
        String printed = beforeAfter(RULE, plan);
        String id = splitId(RULE.apply(plan, CONFIG), 0);
        assertThat(printed.replace(id, "S")).isEqualTo("""
                before:
                CoRangeTestOperator: a=x, b=y, sorted  [unknown(3)]
                  TestSource: a  [unknown(3)]
                  TestSource: b  [unknown(2)]
                after:
                CoRangeTestOperator: a=x, b=y, sorted  [range([x ASC NULLS LAST], S(unresolved), 4)]
                  SortExec: [x ASC NULLS LAST], preserve_partitioning  [range([x ASC NULLS LAST], S(unresolved), 4), order=x ASC NULLS LAST]
                    RepartitionExec: range([x ASC NULLS LAST], S(unresolved), 4)  [range([x ASC NULLS LAST], S(unresolved), 4)]
                      TestSource: a  [unknown(3)]
                  SortExec: [y ASC NULLS LAST], preserve_partitioning  [range([y ASC NULLS LAST], S(unresolved), 4), order=y ASC NULLS LAST]
                    RepartitionExec: range([y ASC NULLS LAST], S(unresolved), 4)  [range([y ASC NULLS LAST], S(unresolved), 4)]
                      TestSource: b  [unknown(2)]
                """);
    }

    /** The split-point set of the range repartition under input {@code i} (below any sort). */
    static String splitId(ExecutionPlan plan, int i) {
        ExecutionPlan node = plan.children().get(i);
        while (!(node.properties().partitioning() instanceof Partitioning.Range range) || node.children().isEmpty()) {
            node = node.children().get(0);
        }
        return range.splits().id();
    }

    @Test
    void coPartitionedRangeInputsShareOneSplitPointSetAndOptimizingTwiceChangesNothing() {
        ExecutionPlan plan = new CoRangeTestOperator(unknown("a", 3, "x"), unknown("b", 2, "y"), "x", "y", false);
        ExecutionPlan once = PhysicalOptimizer.standard().optimize(plan, CONFIG);
        ExecutionPlan twice = PhysicalOptimizer.standard().optimize(once, CONFIG);
        assertThat(twice.explain()).isEqualTo(once.explain());
        // Planning the same plan afresh gives the same ids: they come from the plan, not a counter.
        assertThat(PhysicalOptimizer.standard().optimize(plan, CONFIG).explain()).isEqualTo(once.explain());
        RepartitionExec left = (RepartitionExec) once.children().get(0);
        RepartitionExec right = (RepartitionExec) once.children().get(1);
        Partitioning.Range l = (Partitioning.Range) left.partitioning();
        Partitioning.Range r = (Partitioning.Range) right.partitioning();
        assertThat(l.keys()).containsExactly(SortKey.asc(col("x")));
        assertThat(r.keys()).containsExactly(SortKey.asc(col("y")));
        assertThat(l.splits().id()).isEqualTo(r.splits().id());
        assertThat(l.splits().resolved()).isFalse();
        assertThat(l.partitionCount()).isEqualTo(4).isEqualTo(r.partitionCount());
    }

    /**
     * One input already range-partitioned on its key over split set S (an earlier merge join's
     * output, say): the rule keeps it and range-partitions only the other input over the same S,
     * with S's partition count. The scheduler then resolves S from both map stages at once.
     */
    @Test
    void anInputAlreadyRangePartitionedOverSetSLendsSToTheOther() {
        Partitioning.Range overS = new Partitioning.Range(List.of(SortKey.asc(col("x"))), SplitPoints.unresolved("S"), 6);
        ExecutionPlan plan = new CoRangeTestOperator(source("a", PlanProperties.of(overS), "x"), unknown("b", 2, "y"),
                "x", "y", false);
        assertThat(beforeAfter(RULE, plan)).isEqualTo("""
                before:
                CoRangeTestOperator: a=x, b=y  [range([x ASC NULLS LAST], S(unresolved), 6)]
                  TestSource: a  [range([x ASC NULLS LAST], S(unresolved), 6)]
                  TestSource: b  [unknown(2)]
                after:
                CoRangeTestOperator: a=x, b=y  [range([x ASC NULLS LAST], S(unresolved), 6)]
                  TestSource: a  [range([x ASC NULLS LAST], S(unresolved), 6)]
                  RepartitionExec: range([y ASC NULLS LAST], S(unresolved), 6)  [range([y ASC NULLS LAST], S(unresolved), 6)]
                    TestSource: b  [unknown(2)]
                """);
    }

    /** Resolved split points are lent as they are: the new map stage needs no sampling. */
    @Test
    void resolvedSplitPointsAreLentWithTheirBoundaries() {
        Partitioning.Range overS = new Partitioning.Range(List.of(SortKey.asc(col("x"))),
                SplitPoints.unresolved("S").resolve(List.of(List.of(10L), List.of(20L))), 3);
        ExecutionPlan plan = new CoRangeTestOperator(unknown("a", 2, "x"), source("b", PlanProperties.of(
                overS.mapKeys(k -> java.util.Optional.of(col("y")))), "y"), "x", "y", false);
        assertThat(beforeAfter(RULE, plan)).isEqualTo("""
                before:
                CoRangeTestOperator: a=x, b=y  [unknown(2)]
                  TestSource: a  [unknown(2)]
                  TestSource: b  [range([y ASC NULLS LAST], S(2 boundaries), 3)]
                after:
                CoRangeTestOperator: a=x, b=y  [range([x ASC NULLS LAST], S(2 boundaries), 3)]
                  RepartitionExec: range([x ASC NULLS LAST], S(2 boundaries), 3)  [range([x ASC NULLS LAST], S(2 boundaries), 3)]
                    TestSource: a  [unknown(2)]
                  TestSource: b  [range([y ASC NULLS LAST], S(2 boundaries), 3)]
                """);
    }

    /**
     * S is not lent to an input that already reads a writer of S (a self-join on a merge join's
     * output): its map stage would wait for S's resolution, which waits for it. Both inputs then
     * get a fresh set.
     */
    @Test
    void setSIsNotLentToAnInputThatAlreadyDependsOnIt() {
        Partitioning.Range overS = new Partitioning.Range(List.of(SortKey.asc(col("x"))), SplitPoints.unresolved("S"), 4);
        ExecutionPlan shared = source("a", PlanProperties.of(overS), "x");
        ExecutionPlan derived = new io.sluice.operators.basic.ProjectionExec(
                new RepartitionExec(shared, new Partitioning.Unknown(4)), List.of(new Alias(col("x"), "y")));
        ExecutionPlan plan = new CoRangeTestOperator(shared, derived, "x", "y", false);
        String after = RULE.apply(plan, CONFIG).explain();
        String fresh = splitId(RULE.apply(plan, CONFIG), 1);
        assertThat(fresh).isNotEqualTo("S");
        assertThat(after.replace(fresh, "F")).isEqualTo("""
                CoRangeTestOperator: a=x, b=y  [range([x ASC NULLS LAST], F(unresolved), 4)]
                  RepartitionExec: range([x ASC NULLS LAST], F(unresolved), 4)  [range([x ASC NULLS LAST], F(unresolved), 4)]
                    TestSource: a  [range([x ASC NULLS LAST], S(unresolved), 4)]
                  RepartitionExec: range([y ASC NULLS LAST], F(unresolved), 4)  [range([y ASC NULLS LAST], F(unresolved), 4)]
                    ProjectionExec: x AS y  [unknown(4)]
                      RepartitionExec: unknown(4)  [unknown(4)]
                        TestSource: a  [range([x ASC NULLS LAST], S(unresolved), 4)]
                """);
    }

    @Test
    void coPartitionedHashInputsWithDifferentCountsTakeTheLargerExistingCount() {
        ExecutionPlan plan = partitionedJoin(hashed("a", "a.k", 8, "a.k"), hashed("b", "b.k", 2, "b.k"), "a.k", "b.k");
        assertThat(beforeAfter(RULE, plan)).isEqualTo("""
                before:
                HashJoinExec: mode=partitioned, type=inner, on=[(a.k, b.k)], build=left  [hash([b.k], 2)]
                  TestSource: a  [hash([a.k], 8)]
                  TestSource: b  [hash([b.k], 2)]
                after:
                HashJoinExec: mode=partitioned, type=inner, on=[(a.k, b.k)], build=left  [hash([b.k], 8)]
                  TestSource: a  [hash([a.k], 8)]
                  RepartitionExec: hash([b.k], 8)  [hash([b.k], 8)]
                    TestSource: b  [hash([b.k], 2)]
                """);
    }

    @Test
    void anUnpartitionedInputFollowsTheOtherInputsExistingHashPartitioning() {
        ExecutionPlan plan = partitionedJoin(unknown("a", 3, "a.k"), hashed("b", "b.k", 8, "b.k"), "a.k", "b.k");
        assertThat(beforeAfter(RULE, plan)).isEqualTo("""
                before:
                HashJoinExec: mode=partitioned, type=inner, on=[(a.k, b.k)], build=left  [hash([b.k], 8)]
                  TestSource: a  [unknown(3)]
                  TestSource: b  [hash([b.k], 8)]
                after:
                HashJoinExec: mode=partitioned, type=inner, on=[(a.k, b.k)], build=left  [hash([b.k], 8)]
                  RepartitionExec: hash([a.k], 8)  [hash([a.k], 8)]
                    TestSource: a  [unknown(3)]
                  TestSource: b  [hash([b.k], 8)]
                """);
    }

    /** After an inner join on a.k = b.k the output, hashed on b.k, also meets a requirement on a.k. */
    @Test
    void hashedOnOneJoinKeySatisfiesARequirementOnTheOtherThroughTheEquivalence() {
        HashJoinExec join = partitionedJoin(unknown("a", 3, "a.k", "a.v"), unknown("b", 3, "b.k", "b.v"), "a.k", "b.k");
        List<Expr> sum = List.of(new Alias(new AggregateCall(AggregateFunction.SUM, col("b.v")), "s"));
        HashAggregateExec partial = HashAggregateExec.partial(join, List.of(col("a.k")), sum);
        ExecutionPlan plan = HashAggregateExec.finalPhase(partial, partial);
        assertThat(beforeAfter(RULE, plan)).isEqualTo("""
                before:
                HashAggregateExec: mode=final, groupBy=[a.k], aggr=[sum(b.v) AS s]  [unknown(3)]
                  HashAggregateExec: mode=partial, groupBy=[a.k], aggr=[sum(b.v) AS s]  [unknown(3)]
                    HashJoinExec: mode=partitioned, type=inner, on=[(a.k, b.k)], build=left  [unknown(3)]
                      TestSource: a  [unknown(3)]
                      TestSource: b  [unknown(3)]
                after:
                HashAggregateExec: mode=final, groupBy=[a.k], aggr=[sum(b.v) AS s]  [hash([a.k], 4)]
                  HashAggregateExec: mode=partial, groupBy=[a.k], aggr=[sum(b.v) AS s]  [hash([a.k], 4)]
                    HashJoinExec: mode=partitioned, type=inner, on=[(a.k, b.k)], build=left  [hash([b.k], 4)]
                      RepartitionExec: hash([a.k], 4)  [hash([a.k], 4)]
                        TestSource: a  [unknown(3)]
                      RepartitionExec: hash([b.k], 4)  [hash([b.k], 4)]
                        TestSource: b  [unknown(3)]
                """);
    }

    /** The same fact one level up: a third join on a.k needs no shuffle of the first join's output. */
    @Test
    void aSecondJoinOnAnEquivalentKeyReusesTheFirstJoinsPartitioning() {
        HashJoinExec first = partitionedJoin(unknown("a", 3, "a.k"), unknown("b", 3, "b.k"), "a.k", "b.k");
        ExecutionPlan plan = partitionedJoin(first, unknown("c", 3, "c.k"), "a.k", "c.k");
        assertThat(RULE.apply(plan, CONFIG).explain()).isEqualTo("""
                HashJoinExec: mode=partitioned, type=inner, on=[(a.k, c.k)], build=left  [hash([c.k], 4)]
                  HashJoinExec: mode=partitioned, type=inner, on=[(a.k, b.k)], build=left  [hash([b.k], 4)]
                    RepartitionExec: hash([a.k], 4)  [hash([a.k], 4)]
                      TestSource: a  [unknown(3)]
                    RepartitionExec: hash([b.k], 4)  [hash([b.k], 4)]
                      TestSource: b  [unknown(3)]
                  RepartitionExec: hash([c.k], 4)  [hash([c.k], 4)]
                    TestSource: c  [unknown(3)]
                """);
    }
}
