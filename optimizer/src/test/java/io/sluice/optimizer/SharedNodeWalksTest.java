package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryExpr;
import io.sluice.logical.plan.Union;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Rules over a plan that is a DAG: a chain of WITH queries, each reading the one before twice
 * (joined to itself, or unioned with itself), has 2^depth paths but a few nodes per level. At
 * depth 40 a rule that walked it as a tree would not finish; each rule here must finish at once,
 * keep the chain shared (both readers of a level get the same rewritten node), and leave a plan of
 * a few nodes per level. At depth 2 the whole plans are checked, shared nodes printed once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharedNodeWalksTest {
    private static final int DEPTH = 40;

    /** {@code levels} WITH queries, each joining the one before to itself on k. */
    static String selfJoinChain(int levels, String select) {
        StringBuilder sql = new StringBuilder("WITH c0 AS (SELECT k, v FROM t)");
        for (int i = 1; i <= levels; i++) {
            sql.append(", c").append(i).append(" AS (SELECT a.k, a.v + b.v AS v FROM c").append(i - 1)
                    .append(" a JOIN c").append(i - 1).append(" b ON a.k = b.k)");
        }
        return sql.append(' ').append(select.replace("LAST", "c" + levels)).toString();
    }

    /** {@code levels} WITH queries, each the union of the one before with itself. */
    static String unionChain(int levels, String first, String select) {
        StringBuilder sql = new StringBuilder("WITH c0 AS (").append(first).append(')');
        for (int i = 1; i <= levels; i++) {
            sql.append(", c").append(i).append(" AS (SELECT k, v, d FROM c").append(i - 1)
                    .append(" UNION ALL SELECT k, v, d FROM c").append(i - 1).append(')');
        }
        return sql.append(' ').append(select.replace("LAST", "c" + levels)).toString();
    }

    @Test
    void pushDownFilterPushesIntoASharedInputOncePerPredicate() {
        LogicalPlan plan = sql(unionChain(DEPTH, "SELECT k, v, d FROM t", "SELECT k, v FROM LAST WHERE v > 1"));
        LogicalPlan out = new PushDownFilter().apply(plan);
        assertShared(out, DEPTH);
        assertThat(out.explain()).contains("Filter: (v > 1)").doesNotContain("Filter: (c" + DEPTH);
        assertThat(new PushDownFilter().apply(out)).as("a second walk finds nothing").isSameAs(out);

        // two parents pushing different predicates into one shared node: each gets its own, the node is untouched
        LogicalPlan two = sql("WITH c AS (SELECT k, v FROM t) SELECT a.k FROM c a JOIN c b ON a.k = b.k "
                + "WHERE a.v > 1 AND b.v < 5");
        assertThat(new PushDownFilter().apply(two).explain()).isEqualTo("""
                Projection: a.k AS k
                  Join: INNER keys=[a.k = b.k]
                    SubqueryAlias: a
                      Projection: k, v
                        Filter: (v > 1)
                          TableScan: t
                    SubqueryAlias: b
                      Projection: k, v
                        Filter: (v < 5)
                          TableScan: t
                """);
    }

    @Test
    void pushDownFilterPrintsTheSharedChainOnce() {
        LogicalPlan out = new PushDownFilter().apply(sql(unionChain(2, "SELECT k, v, d FROM t", "SELECT k, v FROM LAST WHERE v > 1")));
        assertThat(out.explain()).isEqualTo("""
                Projection: c2.k AS k, c2.v AS v
                  SubqueryAlias: c2
                    Union: all
                      Projection: c1.k AS k, c1.v AS v, c1.d AS d
                        SubqueryAlias: c1
                          Union: all
                            Projection: c0.k AS k, c0.v AS v, c0.d AS d
                              SubqueryAlias: c0
                                Projection: k, v, d
                                  Filter: (v > 1)
                                    TableScan: t
                            Projection: c0.k AS k, c0.v AS v, c0.d AS d
                              SubqueryAlias: c0
                                Projection: k, v, d  (shared: printed above)
                      Projection: c1.k AS k, c1.v AS v, c1.d AS d
                        SubqueryAlias: c1
                          Union: all  (shared: printed above)
                """);
    }

    @Test
    void pruneColumnsPrunesASharedInputOncePerDemand() {
        LogicalPlan plan = sql(unionChain(DEPTH, "SELECT k, v, d FROM t", "SELECT k FROM LAST"));
        LogicalPlan out = new PruneColumns().apply(plan);
        assertShared(out, DEPTH);
        assertThat(out.explain()).contains("TableScan: t projection=[k]").doesNotContain("projection=[k, v");
        assertThat(new PruneColumns().apply(out)).isSameAs(out);
    }

    @Test
    void pushDownLimitPushesIntoASharedInputOnce() {
        LogicalPlan plan = sql(unionChain(DEPTH, "SELECT k, v, d FROM t", "SELECT k FROM LAST LIMIT 3"));
        LogicalPlan out = new PushDownLimit().apply(plan);
        assertShared(out, DEPTH);
        assertThat(out.explain()).contains("Limit: fetch=3");
    }

    @Test
    void decorrelationRewritesASharedSubqueryOnce() {
        LogicalPlan plan = sql(unionChain(DEPTH, "SELECT k, v, d FROM t WHERE k IN (SELECT k FROM u WHERE u.a = t.v)",
                "SELECT k FROM LAST"));
        LogicalPlan out = new DecorrelateSubqueries().apply(plan);
        assertShared(out, DEPTH);
        assertThat(nodes(out)).noneMatch(n -> n.expressions().stream().anyMatch(e -> !SubqueryExpr.in(e).isEmpty()));
    }

    @Test
    void reorderJoinsReordersASharedRegionOnce() {
        LogicalPlan plan = sql(selfJoinChain(DEPTH, "SELECT k, v FROM LAST"));
        LogicalPlan prepared = new ExtractEquijoinPredicate().apply(plan);
        LogicalPlan out = new ReorderJoins(ReorderJoins.DEFAULT_DP_LIMIT, StatisticsEstimator::new).apply(prepared);
        assertShared(out, DEPTH);
    }

    /** Every standard rule, to a fixed point, on the self-join chain: within seconds, the chain still shared. */
    @Test
    void theStandardOptimizerPlansASelfJoinedChainOnce() {
        LogicalPlan plan = sql(selfJoinChain(DEPTH, "SELECT k, v FROM LAST WHERE v > 1"));
        LogicalOptimizer.Result result = LogicalOptimizer.standard(StatisticsEstimator::new, new EvaluatingConstantFolder())
                .run(plan);
        assertShared(result.plan(), DEPTH);
        assertThat(String.join("\n", result.trace()).length()).as("trace text").isLessThan(1 << 20);

        LogicalPlan small = LogicalOptimizer.standard(StatisticsEstimator::new, new EvaluatingConstantFolder())
                .optimize(sql(selfJoinChain(2, "SELECT k, v FROM LAST WHERE v > 1")));
        assertThat(small.explain()).isEqualTo("""
                Projection: c2.k AS k, c2.v AS v
                  SubqueryAlias: c2
                    Projection: a.k AS k, (a.v + b.v) AS v
                      Filter: ((a.v + b.v) > 1)
                        Join: INNER keys=[a.k = b.k]
                          SubqueryAlias: a
                            SharedSubplan
                              Projection: a.k AS k, (a.v + b.v) AS v
                                Join: INNER keys=[a.k = b.k]
                                  SubqueryAlias: a
                                    TableScan: t projection=[k, v]
                                  SubqueryAlias: b
                                    TableScan: t projection=[k, v]
                          SubqueryAlias: b
                            SharedSubplan  (shared: printed above)
                """);
    }

    /**
     * The plan has few nodes per level (it was not expanded into a tree) and, along the chain, each
     * join or union reads the same node through both inputs.
     */
    private static void assertShared(LogicalPlan plan, int depth) {
        List<LogicalPlan> nodes = nodes(plan);
        assertThat(nodes.size()).as("distinct nodes").isLessThan(12 * (depth + 2));
        long sharedLevels = nodes.stream()
                .filter(n -> n instanceof Join || n instanceof Union)
                .filter(n -> below(n.children().get(0)) == below(n.children().get(1)))
                .count();
        assertThat(sharedLevels).as("joins and unions reading one shared node twice").isGreaterThanOrEqualTo(depth);
    }

    /** The first node at or under {@code plan} with more than one input or none: what a level reads. */
    private static LogicalPlan below(LogicalPlan plan) {
        LogicalPlan node = plan;
        while (node.children().size() == 1) {
            node = node.children().get(0);
        }
        return node;
    }

    /** The distinct nodes of the plan. */
    private static List<LogicalPlan> nodes(LogicalPlan plan) {
        Set<LogicalPlan> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<LogicalPlan> pending = new ArrayDeque<>(List.of(plan));
        while (!pending.isEmpty()) {
            LogicalPlan node = pending.pop();
            if (seen.add(node)) {
                node.children().forEach(pending::push);
            }
        }
        return List.copyOf(seen);
    }
}
