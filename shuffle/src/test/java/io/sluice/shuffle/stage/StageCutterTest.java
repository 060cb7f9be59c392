package io.sluice.shuffle.stage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.SplitPoints;
import io.sluice.operators.aggregate.HashAggregateExec;
import io.sluice.operators.basic.EmptyExec;
import io.sluice.operators.basic.ProjectionExec;
import io.sluice.operators.basic.RepartitionExec;
import io.sluice.operators.basic.UnionExec;
import io.sluice.operators.filter.RuntimeFilterExec;
import io.sluice.operators.filter.RuntimeFilterSourceExec;
import io.sluice.operators.sort.OrderedGatherExec;
import io.sluice.operators.sort.SortExec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where an ordered gather cuts: at the root (under projections) it costs no stage, the result
 * stage running one task per range partition; below another operator it is a boundary whose
 * single-partition reader concatenates the map outputs in map order. A runtime filter's probe stage
 * waits for the stage computing the filter, or loses the filter when that stage cannot finish first.
 */
class StageCutterTest {
    static final Schema SCHEMA = Schema.of(new Field("k", DataType.INT64), new Field("v", DataType.INT64));
    static final List<SortKey> BY_K = List.of(SortKey.asc(new Column("k")));

    /** Range repartition into 4 and a local sort: what EnsureRequirements puts under a gather. */
    static ExecutionPlan sortedRanges() {
        Partitioning.Range range = new Partitioning.Range(BY_K, SplitPoints.unresolved("range-1"), 4);
        return new SortExec(new RepartitionExec(new EmptyExec(SCHEMA), range), BY_K, SortExec.NO_FETCH, true);
    }

    @Test
    void anOrderedGatherAtTheRootIsTheCoordinatorsInOrderCollection() {
        List<Expr> onlyV = List.of(new Column("v"));
        ExecutionPlan plan = new ProjectionExec(new OrderedGatherExec(sortedRanges(), BY_K), onlyV);
        List<Stage> stages = StageCutter.cut(plan, "job1");
        assertThat(stages).hasSize(2);
        Stage result = stages.get(1);
        assertThat(result.taskCount()).isEqualTo(4);
        assertThat(result.plan().input().explain()).isEqualTo("""
                ProjectionExec: v  [unknown(4)]
                  SortExec: [k ASC NULLS LAST], preserve_partitioning  [range([k ASC NULLS LAST], range-1(unresolved), 4), order=k ASC NULLS LAST]
                    ShuffleReaderExec: shuffle=job1-s0  [range([k ASC NULLS LAST], range-1(unresolved), 4)]
                """);
    }

    @Test
    void anOrderedGatherBelowAnotherOperatorIsAStageBoundary() {
        HashAggregateExec partial = HashAggregateExec.partial(new OrderedGatherExec(sortedRanges(), BY_K), List.of(), List.of());
        List<Stage> stages = StageCutter.cut(HashAggregateExec.finalPhase(partial, partial), "job1");
        assertThat(stages).hasSize(3);
        assertThat(stages.get(1).taskCount()).isEqualTo(4);
        assertThat(stages.get(1).plan().outputPartitioning()).isEqualTo(new Partitioning.Single());
        assertThat(stages.get(2).taskCount()).isEqualTo(1);
        // the reader states the gather's order, so operators above it decide in the task as the optimizer did
        assertThat(stages.get(2).plan().explain()).contains("ShuffleReaderExec: shuffle=job1-s1  [single, order=k ASC NULLS LAST]");
    }

    private static ExecutionPlan hashJoin(ExecutionPlan build, ExecutionPlan probe) {
        return new io.sluice.operators.join.HashJoinExec(build, probe, io.sluice.logical.plan.JoinType.INNER,
                List.of(new Column("k")), List.of(new Column("k2")), null,
                io.sluice.operators.join.HashJoinExec.Mode.PARTITIONED);
    }

    private static final Schema PROBE = Schema.of(new Field("k2", DataType.INT64), new Field("w", DataType.INT64));

    /**
     * Two equal exchanges (a CTE read twice) are one stage whose shuffle both consumers read; an
     * exchange of the same input under another partitioning, and the result stage, stay their own.
     */
    @Test
    void anExchangeRepeatedUnderTheSamePartitioningIsOneStage() {
        Partitioning.Hash byK = new Partitioning.Hash(List.of(new Column("k")), 4);
        Partitioning.Hash byV = new Partitioning.Hash(List.of(new Column("v")), 4);
        ExecutionPlan once = new RepartitionExec(new EmptyExec(SCHEMA), byK);
        ExecutionPlan again = new RepartitionExec(new EmptyExec(SCHEMA), byK);
        ExecutionPlan other = new RepartitionExec(new EmptyExec(SCHEMA), byV);
        List<Stage> stages = StageCutter.cut(new io.sluice.operators.basic.UnionExec(List.of(once, again, other)), "job1");
        assertThat(stages).hasSize(3);
        String result = stages.get(2).plan().explain();
        assertThat(result.split("shuffle=job1-s0", -1)).as(result).hasSize(3); // read twice
        assertThat(result).contains("shuffle=job1-s1");
        assertThat(stages.get(2).parents()).containsExactly(0, 1);
        // a repeated subtree whose runtime filter ids differ is not shared
        ExecutionPlan filtered1 = new RepartitionExec(new RuntimeFilterExec(new EmptyExec(PROBE), "rf-1",
                List.of(new Column("k2"))), new Partitioning.Hash(List.of(new Column("k2")), 4));
        ExecutionPlan filtered2 = new RepartitionExec(new RuntimeFilterExec(new EmptyExec(PROBE), "rf-2",
                List.of(new Column("k2"))), new Partitioning.Hash(List.of(new Column("k2")), 4));
        assertThat(StageCutter.cut(new io.sluice.operators.basic.UnionExec(List.of(filtered1, filtered2)), "job2"))
                .hasSize(3);
    }

    @Test
    void aRuntimeFiltersProbeStageWaitsForItsBuildStage() {
        Partitioning.Hash byK = new Partitioning.Hash(List.of(new Column("k")), 4);
        Partitioning.Hash byK2 = new Partitioning.Hash(List.of(new Column("k2")), 4);
        ExecutionPlan build = new RepartitionExec(new RuntimeFilterSourceExec(new EmptyExec(SCHEMA), "rf-0",
                List.of(new Column("k")), 8192), byK);
        ExecutionPlan probe = new RepartitionExec(new RuntimeFilterExec(new EmptyExec(PROBE), "rf-0",
                List.of(new Column("k2"))), byK2);
        List<Stage> stages = StageCutter.cut(hashJoin(build, probe), "job1");
        assertThat(stages).hasSize(3);
        assertThat(stages.get(0).plan().explain()).contains("RuntimeFilterSourceExec");
        assertThat(stages.get(1).plan().explain()).contains("RuntimeFilterExec");
        assertThat(stages.get(1).parents()).containsExactly(0);
        assertThat(stages.get(2).parents()).containsExactly(0, 1);
    }

    @Test
    void aRuntimeFilterWhoseSourceCannotFinishFirstIsRemoved() {
        Partitioning.Hash byK2 = new Partitioning.Hash(List.of(new Column("k2")), 4);
        // the build side is not exchanged: its source runs in the join's stage, after the probe stage
        ExecutionPlan build = new RuntimeFilterSourceExec(new EmptyExec(SCHEMA), "rf-0", List.of(new Column("k")), 8192);
        ExecutionPlan probe = new RepartitionExec(new RuntimeFilterExec(new EmptyExec(PROBE), "rf-0",
                List.of(new Column("k2"))), byK2);
        List<Stage> stages = StageCutter.cut(hashJoin(build, probe), "job1");
        assertThat(stages).hasSize(2);
        assertThat(StageCutter.explain(stages)).doesNotContain("RuntimeFilter");
        assertThat(stages.get(0).parents()).isEmpty();
        // both in one stage: the filter could only be known once the stage is done
        ExecutionPlan together = hashJoin(new RuntimeFilterSourceExec(new EmptyExec(SCHEMA), "rf-1",
                List.of(new Column("k")), 8192), new RuntimeFilterExec(new EmptyExec(PROBE), "rf-1", List.of(new Column("k2"))));
        assertThat(StageCutter.explain(StageCutter.cut(together, "job2"))).doesNotContain("RuntimeFilter");
    }

    /**
     * A filter used twice (the planner reuses one on the other side of a join above): the use that
     * shares its source's stage is removed, the other keeps the filter and waits for the source.
     */
    @Test
    void aRuntimeFilterUsedTwiceLosesOnlyTheUseThatCannotWait() {
        Partitioning.Hash byK = new Partitioning.Hash(List.of(new Column("k")), 4);
        Partitioning.Hash byK2 = new Partitioning.Hash(List.of(new Column("k2")), 4);
        ExecutionPlan source = new RuntimeFilterSourceExec(new EmptyExec(SCHEMA), "rf-0", List.of(new Column("k")), 8192);
        ExecutionPlan build = new RepartitionExec(new RuntimeFilterExec(source, "rf-0", List.of(new Column("k"))), byK);
        ExecutionPlan probe = new RepartitionExec(new RuntimeFilterExec(new EmptyExec(PROBE), "rf-0",
                List.of(new Column("k2"))), byK2);
        List<Stage> stages = StageCutter.cut(hashJoin(build, probe), "job1");
        assertThat(stages).hasSize(3);
        assertThat(stages.get(0).plan().explain()).contains("RuntimeFilterSourceExec").doesNotContain("RuntimeFilterExec");
        assertThat(stages.get(1).plan().explain()).contains("RuntimeFilterExec");
        assertThat(stages.get(1).parents()).containsExactly(0);
    }

    /**
     * A chain of 40 levels, each reading the one below twice through one exchange (a WITH query
     * read twice): cut visiting each operator once, one stage per level, every level's two reads
     * of one shuffle.
     */
    @Test
    void aSharedExchangeIsCutOnceAndReadByBothParents() {
        ExecutionPlan plan = new EmptyExec(SCHEMA);
        for (int i = 0; i < 40; i++) {
            ExecutionPlan exchange = new RepartitionExec(plan, new Partitioning.Hash(List.of(new Column("k")), 4));
            plan = new UnionExec(List.of(exchange, exchange));
        }
        List<Stage> stages = StageCutter.cut(plan, "job1");
        assertThat(stages).hasSize(41);
        assertThat(stages.get(1).plan().input().explain()).isEqualTo("""
                UnionExec  [unknown(8)]
                  ShuffleReaderExec: shuffle=job1-s0  [hash([k], 4)]
                  ShuffleReaderExec: shuffle=job1-s0  [hash([k], 4)]
                """);
        assertThat(stages.get(40).parents()).containsExactly(39);
    }

    /** The same chain without exchanges: a task would run 2^20 operators; refused as too complex at once. */
    @Test
    void aStageRunningASharedOperatorTooManyTimesIsRefused() {
        ExecutionPlan plan = new EmptyExec(SCHEMA);
        for (int i = 0; i < 20; i++) {
            plan = new UnionExec(List.of(plan, plan));
        }
        ExecutionPlan chain = plan;
        assertThatThrownBy(() -> StageCutter.cut(chain, "job1"))
                .isInstanceOf(SluiceException.class)
                .hasMessage("query too complex: the tasks of stage 0 would run more than 50000 operators, an operator "
                        + "shared by several parents within the stage running once per parent");
    }
}
