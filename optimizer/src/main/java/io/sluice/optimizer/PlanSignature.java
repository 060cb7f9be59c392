package io.sluice.optimizer;

import io.sluice.common.HashMix;

import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryExpr;

/**
 * A cheap identity of a plan: its node count and a 64-bit hash of every node's description and
 * expressions, counting and hashing the nodes of subquery plans nested in expressions too. Two plans with different signatures differ; equal signatures almost surely mean
 * equal plans.
 *
 * <p>Caveats: plans that differ only in what {@code describe()} and the expressions do not show
 * share a signature; a 64-bit collision would stop optimization one pass early. Neither changes
 * results, only how far the plan is optimized.
 */
public record PlanSignature(int nodeCount, long hash) {
    public static PlanSignature of(LogicalPlan plan) {
        long[] state = {0, 0x9E3779B97F4A7C15L};
        visit(plan, state);
        return new PlanSignature((int) state[0], state[1]);
    }

    private static void visit(LogicalPlan plan, long[] state) {
        state[0]++;
        state[1] = HashMix.fold(state[1], hash64(plan.getClass().getName()));
        state[1] = HashMix.fold(state[1], hash64(plan.describe()));
        state[1] = HashMix.fold(state[1], plan.expressions().hashCode());
        state[1] = HashMix.fold(state[1], plan.children().size());
        // Plans nested in expressions (subqueries) count and hash like children, marked apart from them.
        for (Expr e : plan.expressions()) {
            for (SubqueryExpr s : SubqueryExpr.in(e)) {
                state[1] = HashMix.fold(state[1], hash64("subquery"));
                visit(s.subquery(), state);
            }
        }
        for (LogicalPlan child : plan.children()) {
            visit(child, state);
        }
    }

    /** FNV-1a over the string's chars: 64 bits, unlike {@code String.hashCode}. */
    static long hash64(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }
}
