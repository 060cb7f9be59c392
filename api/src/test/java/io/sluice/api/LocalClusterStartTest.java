package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.coordinator.Coordinator;
import io.sluice.coordinator.CoordinatorSettings;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The embedded cluster's start: its workers start as soon as the coordinator's actor system is
 * bound, while the coordinator finishes starting (every test of an embedded cluster runs queries on
 * workers started so), so the coordinator tells that address first, and a coordinator that fails
 * to start takes the workers started for it down with it.
 */
class LocalClusterStartTest {
    @Test
    void theCoordinatorTellsItsClusterAddressBeforeItIsReady() throws Exception {
        List<String> told = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        Coordinator coordinator = Coordinator.start(CoordinatorSettings.defaults("127.0.0.1", 0, -1), address -> {
            told.add(address);
            threads.add(Thread.currentThread());
        });
        try {
            assertThat(told).containsExactly(coordinator.clusterAddress());
            assertThat(threads).containsExactly(Thread.currentThread());
        } finally {
            coordinator.halt();
        }
        // before it is ready: a coordinator whose HTTP endpoint cannot bind, the last step of its
        // start, has told its address all the same
        List<String> toldBeforeFailing = new ArrayList<>();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> Coordinator.start(CoordinatorSettings.defaults("127.0.0.1", 0, taken.getLocalPort()),
                    toldBeforeFailing::add)).hasMessageContaining("cannot serve HTTP on 127.0.0.1:" + taken.getLocalPort());
        }
        assertThat(toldBeforeFailing).hasSize(1).allMatch(address -> address.startsWith("pekko://"));
    }

    @Test
    void aCoordinatorThatFailsToStartStopsTheWorkersStartedForIt() throws Exception {
        Set<Thread> before = nodeThreads();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> LocalCluster.start(LocalCluster.Options.of(2).withHttpPort(taken.getLocalPort())))
                    .hasMessageContaining("cannot serve HTTP on 127.0.0.1:" + taken.getLocalPort());
        }
        // the workers' actor systems (each a dispatcher of threads named for the system) have ended
        long deadline = System.nanoTime() + 20_000_000_000L;
        Set<Thread> left = nodeThreads();
        while (!before.containsAll(left) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            left = nodeThreads();
        }
        assertThat(left).isSubsetOf(before);
    }

    /** Live threads of actor systems and worker slots in this JVM. */
    private static Set<Thread> nodeThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> t.getName().startsWith("sluice-pekko") || t.getName().startsWith("sluice-scheduler"))
                .collect(Collectors.toSet());
    }
}
