package io.sluice.optimizer.logical;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import io.sluice.plan.logical.LogicalPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the rules in passes until a pass yields a plan whose {@link PlanSignature} was seen before,
 * in any earlier pass or as the input: then the plan has reached a fixed point (or a cycle, which
 * would repeat forever). {@code maxPasses} is only the safety net; reaching it logs a warning.
 */
public final class LogicalOptimizer {
    private static final Logger LOG = LoggerFactory.getLogger(LogicalOptimizer.class);

    public static final int DEFAULT_MAX_PASSES = 3;

    private final List<LogicalRule> rules;
    private final int maxPasses;

    public LogicalOptimizer(List<LogicalRule> rules, int maxPasses) {
        this.rules = List.copyOf(requireNonNull(rules, "rules is null"));
        if (maxPasses < 1) {
            throw new IllegalArgumentException("sluice.optimizer.max-passes must be positive: " + maxPasses);
        }
        this.maxPasses = maxPasses;
    }

    public static LogicalOptimizer standard() {
        return new LogicalOptimizer(List.of(new PruneColumns()), DEFAULT_MAX_PASSES);
    }

    /** The optimized plan and how the loop ended. */
    public record Result(LogicalPlan plan, int passes, boolean fixedPoint, List<String> trace) {
    }

    public LogicalPlan optimize(LogicalPlan plan) {
        return run(plan).plan();
    }

    public Result run(LogicalPlan plan) {
        Set<PlanSignature> seen = new HashSet<>(8);
        seen.add(PlanSignature.of(plan));
        List<String> trace = new ArrayList<>();
        for (int pass = 1; pass <= maxPasses; pass++) {
            for (LogicalRule rule : rules) {
                LogicalPlan next = rule.apply(plan);
                if (next != plan) {
                    trace.add("pass " + pass + ", after " + rule.name() + ":\n" + next.explain());
                }
                plan = next;
            }
            if (!seen.add(PlanSignature.of(plan))) {
                trace.add("fixed point at pass " + pass);
                return new Result(plan, pass, true, trace);
            }
        }
        LOG.warn("logical optimizer stopped at sluice.optimizer.max-passes = {} without reaching a fixed point", maxPasses);
        trace.add("stopped at the cap of " + maxPasses + " passes");
        return new Result(plan, maxPasses, false, trace);
    }
}
