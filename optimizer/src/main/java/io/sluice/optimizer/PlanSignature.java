package io.sluice.optimizer;

import io.sluice.common.HashMix;

import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryExpr;
import java.util.IdentityHashMap;
import java.util.Map;

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
        return of(plan, new IdentityHashMap<>());
    }

    /** Each node's signature from its own and its inputs', computed once per node however often it is shared. */
    private static PlanSignature of(LogicalPlan plan, Map<LogicalPlan, PlanSignature> known) {
        PlanSignature memo = known.get(plan);
        if (memo != null) {
            return memo;
        }
        long count = 1;
        long hash = 0x9E3779B97F4A7C15L;
        hash = HashMix.fold(hash, hash64(plan.getClass().getName()));
        hash = HashMix.fold(hash, hash64(plan.describe()));
        hash = HashMix.fold(hash, plan.expressions().hashCode());
        hash = HashMix.fold(hash, plan.children().size());
        // Plans nested in expressions (subqueries) count and hash like children, marked apart from them.
        for (Expr e : plan.expressions()) {
            for (SubqueryExpr s : SubqueryExpr.in(e)) {
                hash = HashMix.fold(hash, hash64("subquery"));
                PlanSignature sub = of(s.subquery(), known);
                count += sub.nodeCount();
                hash = HashMix.fold(hash, sub.hash());
            }
        }
        for (LogicalPlan child : plan.children()) {
            PlanSignature sub = of(child, known);
            count += sub.nodeCount();
            hash = HashMix.fold(hash, sub.hash());
        }
        PlanSignature signature = new PlanSignature((int) Math.min(count, Integer.MAX_VALUE), hash);
        known.put(plan, signature);
        return signature;
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
