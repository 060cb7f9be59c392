package io.sluice.optimizer;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.ConstantFolder;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.StatisticsContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the rules in passes until a pass yields a plan whose {@link PlanSignature} was seen before,
 * in any earlier pass or as the input: then the plan has reached a fixed point (the last pass changed
 * nothing) or a cycle (say passes yield A, B, A: the third pass repeats the first, and more passes
 * would only repeat the cycle). {@code maxPasses} is only the safety net; reaching it logs a warning.
 * {@link Result#repeatedPass()} tells which pass's plan came back (0: the input).
 *
 * <p>Each rule declares how it is applied ({@link LogicalRule#applyOrder()}): a {@link NodeRule}
 * rewrites single nodes and this class walks the plan for it, top-down or bottom-up, rebuilding a
 * parent only when a child changed; any other rule walks the plan itself.
 */
public final class LogicalOptimizer {
    private static final Logger LOG = LoggerFactory.getLogger(LogicalOptimizer.class);

    /** Enough for the standard rules to settle on any plan the tests know, with room to spare. */
    public static final int DEFAULT_MAX_PASSES = 3;
    /** How long optimizing one plan may take by default ({@code sluice.optimizer.timeout}). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final List<LogicalRule> rules;
    private final int maxPasses;
    private final boolean skipFailedRules;
    private final Duration timeout;

    public LogicalOptimizer(List<LogicalRule> rules, int maxPasses) {
        this(rules, maxPasses, false);
    }

    /**
     * @param skipFailedRules a rule that throws is skipped, keeping the plan from before it
     *                        ({@code sluice.optimizer.skip-failed-rules}); otherwise the query fails
     *                        with the rule's name and the cause
     */
    public LogicalOptimizer(List<LogicalRule> rules, int maxPasses, boolean skipFailedRules) {
        this(rules, maxPasses, skipFailedRules, DEFAULT_TIMEOUT);
    }

    private LogicalOptimizer(List<LogicalRule> rules, int maxPasses, boolean skipFailedRules, Duration timeout) {
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.skipFailedRules = skipFailedRules;
        this.rules = List.copyOf(requireNonNull(rules, "rules is null"));
        for (LogicalRule rule : this.rules) {
            if (rule.applyOrder() != LogicalRule.ApplyOrder.SELF && !(rule instanceof NodeRule)) {
                throw new IllegalArgumentException("rule " + rule.name() + " declares " + rule.applyOrder()
                        + " but is not a NodeRule, so it has no node-local rewrite to walk with");
            }
        }
        if (maxPasses < 1) {
            throw new IllegalArgumentException("sluice.optimizer.max-passes must be positive: " + maxPasses);
        }
        this.maxPasses = maxPasses;
    }

    /**
     * This optimizer giving up on a plan (a "query too complex" error) once optimizing it took
     * longer than {@code timeout}; checked after each rule, so one rule's own run is not cut short.
     */
    public LogicalOptimizer withTimeout(Duration timeout) {
        return new LogicalOptimizer(rules, maxPasses, skipFailedRules, timeout);
    }

    /**
     * The standard rules at the default pass cap; estimates from {@code statistics} (a fresh context
     * per use), constants folded by {@code constants}.
     */
    public static LogicalOptimizer standard(Supplier<StatisticsContext> statistics, ConstantFolder constants) {
        return new LogicalOptimizer(standardRules(statistics, constants), DEFAULT_MAX_PASSES);
    }

    /** The standard rules with join reordering on, exhaustive up to {@link ReorderJoins#DEFAULT_DP_LIMIT} leaves. */
    public static List<LogicalRule> standardRules(Supplier<StatisticsContext> statistics, ConstantFolder constants) {
        return standardRules(true, ReorderJoins.DEFAULT_DP_LIMIT, statistics, constants);
    }

    /**
     * The standard rules, in order: decorrelate subqueries into joins first (the other rules do not
     * look into subquery plans), choose how grouping sets are computed (from the finest grouping's
     * estimated size), mark a costly subplan read by several consumers as shared (before filters are
     * pushed into each copy), then simplify expressions (so constant predicates are literals),
     * then remove trivial nodes, merge filters, factor what every branch of an OR shares (a join key
     * in each branch stands alone), derive from an OR over a join's two sides what each side's rows
     * must satisfy, push filters (pushing can expose join equalities, which then
     * become keys), plan a left join filtered on a right key being NULL as the anti join it is, sink semi and anti joins into the input of an inner join they filter, reorder
     * inner joins once their predicates are keys ({@code joinReorder},
     * {@code sluice.optimizer.join-reorder}; exhaustive up to {@code dpLimit} relations,
     * {@code sluice.optimizer.join-reorder.dp-limit}), merge projections, push limits, and prune
     * columns last, once the shape is settled (then the struct fields nobody reads). Cost-based rules take their estimates from
     * {@code statistics}: the optimizer sees no file, so the caller says where table statistics come from.
     * It evaluates nothing either: {@code constants} folds constant expressions.
     */
    public static List<LogicalRule> standardRules(boolean joinReorder, int dpLimit,
            Supplier<StatisticsContext> statistics, ConstantFolder constants) {
        List<LogicalRule> rules = new ArrayList<>(List.of(
                new DecorrelateSubqueries(),
                new ChooseGroupingSetPlan(statistics),
                new ShareRepeatedSubplans(),
                new SimplifyExpressions(constants),
                new EliminateTrivialNodes(),
                new MergeFilters(),
                new FactorCommonDisjuncts(),
                new InferSidePredicatesFromDisjunctions(),
                new PushDownFilter(),
                new ExtractEquijoinPredicate(),
                new LeftJoinIsNullToAntiJoin(),
                new PushSemiJoinBelowJoin(statistics)));
        if (joinReorder) {
            rules.add(new ReorderJoins(dpLimit, statistics));
        }
        rules.addAll(List.of(
                new MergeProjections(),
                new PushDownLimit(),
                new PruneColumns(),
                new PruneNestedFields()));
        return List.copyOf(rules);
    }

    /**
     * The optimized plan and how the loop ended: {@code passes} run; {@code fixedPoint} true when a
     * plan repeated (false when the cap stopped the loop); {@code repeatedPass} the pass whose plan
     * the last pass repeated (0 for the input; {@code passes - 1} for a plain fixed point; -1 at
     * the cap); {@code trace} each rule's rewrite and how the loop ended, for EXPLAIN VERBOSE.
     */
    public record Result(LogicalPlan plan, int passes, boolean fixedPoint, int repeatedPass, List<String> trace) {
        public Result {
            requireNonNull(plan, "plan is null");
            trace = List.copyOf(trace);
        }
    }

    /**
     * One application of {@code rule} to the whole plan: a {@link NodeRule} is walked here in the
     * order it declares (ignoring any {@code apply} override, so every node rule walks the same way);
     * any other rule recurses itself.
     */
    static LogicalPlan applyOnce(LogicalRule rule, LogicalPlan plan) {
        return rule instanceof NodeRule nodeRule ? NodeRule.rewrite(nodeRule, plan) : rule.apply(plan);
    }

    public LogicalPlan optimize(LogicalPlan plan) {
        return run(plan).plan();
    }

    public Result run(LogicalPlan plan) {
        Map<PlanSignature, Integer> seen = new HashMap<>();
        seen.put(PlanSignature.of(plan), 0);
        List<String> trace = new ArrayList<>();
        long start = System.nanoTime();
        for (int pass = 1; pass <= maxPasses; pass++) {
            for (LogicalRule rule : rules) {
                checkTime(start, rule);
                LogicalPlan next;
                try {
                    next = applyOnce(rule, plan);
                } catch (RuntimeException e) {
                    if (!skipFailedRules) {
                        throw new OptimizerRuleException(rule.name(), e);
                    }
                    LOG.warn("optimizer rule {} failed and was skipped: {}", rule.name(), e.toString());
                    trace.add("pass " + pass + ", " + rule.name() + " failed and was skipped: " + e);
                    continue;
                }
                if (next != plan) {
                    trace.add("pass " + pass + ", after " + rule.name() + ":\n" + next.explain());
                }
                plan = next;
            }
            Integer earlier = seen.putIfAbsent(PlanSignature.of(plan), pass);
            if (earlier != null) {
                if (earlier == pass - 1) {
                    trace.add("fixed point at pass " + pass + ": the plan equals "
                            + (earlier == 0 ? "the input" : "pass " + earlier + "'s"));
                } else {
                    trace.add("cycle: pass " + pass + " repeats " + (earlier == 0 ? "the input" : "pass " + earlier));
                }
                return new Result(plan, pass, true, earlier, trace);
            }
        }
        LOG.warn("logical optimizer stopped at sluice.optimizer.max-passes = {} without reaching a fixed point", maxPasses);
        trace.add("stopped at the cap of " + maxPasses + " passes");
        return new Result(plan, maxPasses, false, -1, trace);
    }

    private void checkTime(long start, LogicalRule next) {
        long elapsed = System.nanoTime() - start;
        if (elapsed > timeout.toNanos()) {
            throw new SluiceException("query too complex: optimizing its plan took " + elapsed / 1_000_000 + " ms, more than "
                    + "sluice.optimizer.timeout (" + timeout.toMillis() + " ms)"
                    + " before rule " + next.name());
        }
    }
}
