package io.sluice.examples;

import io.sluice.logical.expr.UserFunction;

/**
 * A user-defined function of the demonstration job: an order's size band from its quantity. Run
 * with {@code sluice submit}, the workers load it from the job's jar.
 */
public final class OrderSize implements UserFunction {
    @Override
    public Object call(Object[] args) {
        if (args[0] == null) {
            return null;
        }
        long quantity = ((Number) args[0]).longValue();
        return quantity <= 0 ? "none" : quantity < 5 ? "small" : "large";
    }
}
