package io.sluice.coordinator;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.UserFunctionCall;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryExpr;

/**
 * Refuses a client's plan that calls user functions unless this coordinator runs client code
 * ({@code --allow-job-jars}): a user function's class, shipped in its jar or named on the class
 * path, runs on the workers, so it is code from whoever holds the secret, as a submitted job is.
 */
final class UserFunctionGate {
    private UserFunctionGate() {
    }

    static void check(LogicalPlan plan, boolean allowed) {
        if (allowed) {
            return;
        }
        String found = find(plan);
        if (found != null) {
            throw new SluiceException("the plan calls user function " + found + ", but this coordinator does not run"
                    + " client code: start it with --allow-job-jars (-D"
                    + HttpSettingsDeclaration.ALLOW_JOB_JARS.name() + "=true)");
        }
    }

    private static String find(LogicalPlan plan) {
        for (Expr e : plan.expressions()) {
            String found = find(e);
            if (found != null) {
                return found;
            }
        }
        for (LogicalPlan child : plan.children()) {
            String found = find(child);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static String find(Expr e) {
        if (e instanceof UserFunctionCall call) {
            return call.name() + " (" + call.className() + ")";
        }
        if (e instanceof SubqueryExpr subquery) {
            String found = find(subquery.subquery());
            if (found != null) {
                return found;
            }
        }
        for (Expr child : e.children()) {
            String found = find(child);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
