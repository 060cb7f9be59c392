package io.sluice.api;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base of test classes that compare the cluster with DuckDB: a subclass's {@code @BeforeAll} sets
 * {@link #both} with {@link DuckDbComparison#start} over {@link #data}; this class closes it and
 * checks for leaked buffers after each test.
 */
abstract class DuckDbComparisonTest {
    @TempDir
    static Path data;

    static DuckDbComparison both;

    @AfterAll
    static void stopCluster() throws Exception {
        if (both != null) {
            both.close();
            both = null;
        }
    }

    @AfterEach
    void noLeakedBuffers() {
        ClusterTesting.assertNoLeakedBuffers(both.session());
    }
}
