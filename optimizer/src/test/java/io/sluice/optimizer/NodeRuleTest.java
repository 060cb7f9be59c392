package io.sluice.optimizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.plan.Union;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The walk the optimizer does for node-local rules: order, identity, and what is revisited (a shared node: once). */
class NodeRuleTest {
    private static final LogicalPlan T = new TableScan(RuleTesting.T);

    /** A node rule that records the nodes it is offered and rewrites them with {@code fn}. */
    private record Recording(ApplyOrder applyOrder, UnaryOperator<LogicalPlan> fn, List<String> seen)
            implements NodeRule {
        Recording(ApplyOrder order, UnaryOperator<LogicalPlan> fn) {
            this(order, fn, new ArrayList<>());
        }

        @Override
        public String name() {
            return "Recording";
        }

        @Override
        public LogicalPlan applyToNode(LogicalPlan node) {
            seen.add(node.describe());
            return fn.apply(node);
        }
    }

    /** Union(Limit 1 over Limit 2 over t, Limit 3 over t). */
    private static LogicalPlan plan() {
        return new Union(List.of(new Limit(new Limit(T, 0, 2), 0, 1), new Limit(T, 0, 3)));
    }

    @Test
    void topDownOffersParentsBeforeChildrenLeftToRight() {
        Recording rule = new Recording(LogicalRule.ApplyOrder.TOP_DOWN, n -> n);
        rule.apply(plan());
        // the scan of t is one instance under both branches: offered once
        assertThat(rule.seen()).containsExactly("Union: all", "Limit: fetch=1", "Limit: fetch=2", "TableScan: t",
                "Limit: fetch=3");
    }

    @Test
    void bottomUpOffersChildrenBeforeParents() {
        Recording rule = new Recording(LogicalRule.ApplyOrder.BOTTOM_UP, n -> n);
        rule.apply(plan());
        assertThat(rule.seen()).containsExactly("TableScan: t", "Limit: fetch=2", "Limit: fetch=1", "Limit: fetch=3",
                "Union: all");
    }

    @Test
    void nothingChangedGivesTheSameInstanceInEitherOrder() {
        LogicalPlan plan = plan();
        for (LogicalRule.ApplyOrder order : List.of(LogicalRule.ApplyOrder.TOP_DOWN, LogicalRule.ApplyOrder.BOTTOM_UP)) {
            assertThat(new Recording(order, n -> n).apply(plan)).as(order.toString()).isSameAs(plan);
        }
    }

    @Test
    void onlyTheAncestorsOfAChangedNodeAreRebuilt() {
        LogicalPlan plan = plan();
        LogicalPlan untouched = plan.children().get(1);
        UnaryOperator<LogicalPlan> bumpTwo = n -> n instanceof Limit l && l.fetch() == 2 ? new Limit(l.input(), 0, 20) : n;
        for (LogicalRule.ApplyOrder order : List.of(LogicalRule.ApplyOrder.TOP_DOWN, LogicalRule.ApplyOrder.BOTTOM_UP)) {
            LogicalPlan out = new Recording(order, bumpTwo).apply(plan);
            assertThat(out.explain()).as(order.toString()).isEqualTo("""
                    Union: all
                      Limit: fetch=1
                        Limit: fetch=20
                          TableScan: t
                      Limit: fetch=3
                        TableScan: t
                    """);
            assertThat(out.children().get(1)).as("sibling subtree shared").isSameAs(untouched);
            assertThat(out.children().get(0).children().get(0).children().get(0)).isSameAs(T);
        }
    }

    @Test
    void bottomUpSeesRewrittenChildrenAndDoesNotRevisitAReplacement() {
        // Merges a limit into the limit below it; bottom-up, a chain of three collapses in one walk.
        UnaryOperator<LogicalPlan> merge = n -> n instanceof Limit upper && upper.input() instanceof Limit lower
                ? new Limit(lower.input(), 0, Math.min(upper.fetch(), lower.fetch())) : n;
        Recording rule = new Recording(LogicalRule.ApplyOrder.BOTTOM_UP, merge);
        LogicalPlan out = rule.apply(new Limit(new Limit(new Limit(T, 0, 3), 0, 2), 0, 1));
        assertThat(out.explain()).isEqualTo("""
                Limit: fetch=1
                  TableScan: t
                """);
        assertThat(rule.seen()).containsExactly("TableScan: t", "Limit: fetch=3", "Limit: fetch=2", "Limit: fetch=1");
    }

    @Test
    void topDownContinuesIntoTheReplacementsChildrenNotTheReplacementItself() {
        // Raises an odd fetch by two: the replacement would match again if it were offered again.
        UnaryOperator<LogicalPlan> raise = n -> n instanceof Limit l && l.fetch() % 2 == 1
                ? new Limit(l.input(), 0, l.fetch() + 2) : n;
        Recording rule = new Recording(LogicalRule.ApplyOrder.TOP_DOWN, raise);
        LogicalPlan out = rule.apply(new Limit(new Limit(T, 0, 3), 0, 1));
        assertThat(rule.seen()).containsExactly("Limit: fetch=1", "Limit: fetch=3", "TableScan: t");
        assertThat(out.explain()).isEqualTo("""
                Limit: fetch=3
                  Limit: fetch=5
                    TableScan: t
                """);
    }

    /**
     * A chain of 40 unions each over the one below twice (2^40 paths, as a chain of WITH queries
     * each read twice): each node is offered once in either order and its parents share its rewrite.
     */
    @Test
    void aSharedNodeIsRewrittenOnceAndItsParentsShareTheRewrite() {
        LogicalPlan plan = new Limit(T, 0, 1);
        for (int i = 0; i < 40; i++) {
            plan = new Union(List.of(plan, plan));
        }
        UnaryOperator<LogicalPlan> bump = n -> n instanceof Limit l ? new Limit(l.input(), 0, l.fetch() + 1) : n;
        for (LogicalRule.ApplyOrder order : List.of(LogicalRule.ApplyOrder.TOP_DOWN, LogicalRule.ApplyOrder.BOTTOM_UP)) {
            Recording rule = new Recording(order, bump);
            LogicalPlan out = rule.apply(plan);
            assertThat(rule.seen()).as(order.toString()).hasSize(42);
            assertThat(out.children().get(0)).as("both inputs the same rewrite").isSameAs(out.children().get(1));
            LogicalPlan leaf = out;
            while (!(leaf instanceof Limit)) {
                leaf = leaf.children().get(0);
            }
            assertThat(((Limit) leaf).fetch()).isEqualTo(2);
        }
        assertThat(PlanSignature.of(plan).nodeCount()).as("node count, saturated").isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void theOptimizerWalksNodeRulesAndRejectsOrdersWithoutANodeRewrite() {
        Recording rule = new Recording(LogicalRule.ApplyOrder.BOTTOM_UP, n -> n);
        LogicalOptimizer.Result r = new LogicalOptimizer(List.of(rule), 4).run(plan());
        assertThat(r.passes()).isEqualTo(1);
        assertThat(rule.seen()).hasSize(5);

        LogicalRule liar = new LogicalRule() {
            @Override
            public String name() {
                return "Liar";
            }

            @Override
            public ApplyOrder applyOrder() {
                return ApplyOrder.TOP_DOWN;
            }

            @Override
            public LogicalPlan apply(LogicalPlan plan) {
                return plan;
            }
        };
        assertThatThrownBy(() -> new LogicalOptimizer(List.of(liar), 4))
                .hasMessageContaining("Liar declares TOP_DOWN but is not a NodeRule");
        assertThatThrownBy(() -> new Recording(LogicalRule.ApplyOrder.SELF, n -> n).apply(T))
                .hasMessageContaining("must apply TOP_DOWN or BOTTOM_UP");
    }

    @Test
    void standardRulesDeclareTheirOrder() {
        for (LogicalRule rule : LogicalOptimizer.standardRules(StatisticsEstimator::new, new EvaluatingConstantFolder())) {
            if (rule instanceof PruneColumns) {
                assertThat(rule.applyOrder()).isEqualTo(LogicalRule.ApplyOrder.SELF);
            } else if (rule instanceof NodeRule) {
                assertThat(rule.applyOrder()).as(rule.name()).isNotEqualTo(LogicalRule.ApplyOrder.SELF);
            }
        }
    }
}
