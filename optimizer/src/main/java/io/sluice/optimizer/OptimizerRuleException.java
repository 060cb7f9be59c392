package io.sluice.optimizer;

import io.sluice.common.SluiceException;

/**
 * A logical rule threw: names the rule and the cause. Reported to the user like other query
 * errors; {@code sluice.optimizer.skip-failed-rules=true} skips the rule instead.
 */
public final class OptimizerRuleException extends SluiceException {
    public OptimizerRuleException(String rule, RuntimeException cause) {
        super("optimizer rule " + rule + " failed: " + cause, cause);
    }
}
