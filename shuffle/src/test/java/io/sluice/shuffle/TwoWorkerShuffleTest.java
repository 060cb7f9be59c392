package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two workers' shuffle services on 127.0.0.1 ("w1" and "w2", each a server, a client and an
 * environment over its own directory) and a limited root allocator that must be empty after each
 * test.
 */
abstract class TwoWorkerShuffleTest {
    /** The job of every shuffle in these tests: shuffle ids start with "j-". */
    static final String JOB = "j";

    @TempDir
    Path dir1;
    @TempDir
    Path dir2;

    RootAllocator root;
    ShuffleServer server1;
    ShuffleServer server2;
    ShuffleClient client1;
    ShuffleClient client2;
    ShuffleEnvironment env1;
    ShuffleEnvironment env2;

    @BeforeEach
    void startWorkers() {
        root = new RootAllocator(256L << 20);
        server1 = new ShuffleServer("127.0.0.1", 0, dir1).start();
        server2 = new ShuffleServer("127.0.0.1", 0, dir2).start();
        client1 = new ShuffleClient("w1");
        client2 = new ShuffleClient("w2");
        env1 = new ShuffleEnvironment("w1", "127.0.0.1", server1.port(), dir1, client1).forJob(JOB);
        env2 = new ShuffleEnvironment("w2", "127.0.0.1", server2.port(), dir2, client2).forJob(JOB);
    }

    @AfterEach
    void stopWorkers() {
        client1.close();
        client2.close();
        server1.close();
        server2.close();
        assertThat(root.getAllocatedMemory()).isZero();
        root.close();
    }
}
