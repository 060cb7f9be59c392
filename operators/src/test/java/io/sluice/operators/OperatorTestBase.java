package io.sluice.operators;

import io.sluice.operators.join.JoinTestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Base of operator tests that run plans through one {@link JoinTestSupport} per test class. */
public abstract class OperatorTestBase {
    public static JoinTestSupport support;

    @BeforeAll
    static void startSupport() throws Exception {
        support = new JoinTestSupport();
    }

    @AfterAll
    static void closeSupport() throws Exception {
        support.close();
    }
}
