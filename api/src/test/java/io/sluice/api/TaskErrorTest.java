package io.sluice.api;

import static io.sluice.api.Functions.col;
import static io.sluice.api.Functions.udf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.logical.expr.UserFunction;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.worker.Worker;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user function that throws a JVM error on a real embedded cluster: the error fails its task and,
 * after the attempts, the query, named in the message; no worker stops (every one stays registered
 * and open) and the next query answers right.
 */
public class TaskErrorTest {
    @TempDir
    static Path data;
    static DuckDbOracle duck;
    static Session session;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        session = Session.local(LocalCluster.Options.of(2).withSetting("sluice.task.max-attempts", "4"));
        ClusterTesting.createKeyedCsvTable(duck, session, data);
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }

    /** Recurses without end. */
    public static final class Recurse implements UserFunction {
        @Override
        public Object call(Object[] args) {
            return depth((Long) args[0]);
        }

        private static long depth(long n) {
            return depth(n + 1) + 1;
        }
    }

    /**
     * Asks for one array of 16 GiB, past the VM's array limit: refused at once, without the full
     * collections a merely too large array costs first (which on a loaded machine stall the
     * embedded cluster's heartbeats).
     */
    public static final class Oversized implements UserFunction {
        @Override
        public Object call(Object[] args) {
            long[] huge = new long[Integer.MAX_VALUE];
            return huge.length + (Long) args[0];
        }
    }

    /**
     * Asks for one array twice the heap's size, under the VM's array limit: after the collections
     * the JVM runs first, "Java heap space" with the heap's long-lived space far from full, which is
     * the task's alone (TaskErrors).
     */
    public static final class OversizedForTheHeap implements UserFunction {
        @Override
        public Object call(Object[] args) {
            long[] huge = new long[(int) Math.min(Integer.MAX_VALUE - 8L, Runtime.getRuntime().maxMemory() / 4)];
            return huge.length + (Long) args[0];
        }
    }

    /** Its class initializer throws: ExceptionInInitializerError, then NoClassDefFoundError on later use. */
    public static final class BrokenInitializer implements UserFunction {
        private static final long BASE = Long.parseLong(System.getProperty("sluice.test.no-such-property", "x"));

        @Override
        public Object call(Object[] args) {
            return BASE + (Long) args[0];
        }
    }

    @Test
    void aStackOverflowFailsTheQueryAndNoWorker() throws Exception {
        assertFailsNamingAndClusterServes(Recurse.class, "java.lang.StackOverflowError");
    }

    @Test
    void anOversizedAllocationFailsTheQueryAndNoWorker() throws Exception {
        assertFailsNamingAndClusterServes(Oversized.class, "java.lang.OutOfMemoryError");
    }

    @Test
    void anAllocationLargerThanTheHeapFailsTheQueryAndNoWorker() throws Exception {
        assertFailsNamingAndClusterServes(OversizedForTheHeap.class, "java.lang.OutOfMemoryError: Java heap space");
    }

    @Test
    void aBrokenClassFailsTheQueryAndNoWorker() throws Exception {
        assertFailsNamingAndClusterServes(BrokenInitializer.class, "Error");
        assertThatThrownBy(() -> session.sql("SELECT v FROM t")
                .select(udf(BrokenInitializer.class, DataType.INT64, col("v")).as("x")).collect())
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining(BrokenInitializer.class.getName())
                .hasMessageMatching("(?s).*(ExceptionInInitializerError|NoClassDefFoundError).*");
    }

    private static void assertFailsNamingAndClusterServes(Class<? extends UserFunction> function, String error)
            throws Exception {
        LocalCluster cluster = session.localCluster();
        assertThatThrownBy(() -> session.sql("SELECT v FROM t").select(udf(function, DataType.INT64, col("v")).as("x"))
                .collect())
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("failed 4 times (sluice.task.max-attempts)")
                .hasMessageContaining(error)
                .hasMessageContaining("its worker goes on");
        for (Worker w : cluster.workers()) {
            assertThat(w.isClosed()).as(w.workerId() + " closed").isFalse();
        }
        assertThat(cluster.coordinator().workers()).as("registered workers").hasSize(2);
        String query = "SELECT k, sum(v) AS s, count(*) AS c FROM t GROUP BY k ORDER BY k";
        assertThat(DuckDbOracle.normalize(session.sql(query).collect())).isEqualTo(duck.query(query));
        ClusterTesting.awaitNoLeakedBuffers(session);
    }
}
