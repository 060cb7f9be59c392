package io.sluice.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How a task's {@code OutOfMemoryError} is classified, in JVMs of their own with a 96 MiB heap
 * under two collectors ({@link TaskErrorsProbe}): one allocation too large for the heap, or past
 * the VM's array limit, fails only the task; a heap filled by many small allocations stops the
 * worker, although it frees everything once the filling task's objects are gone.
 */
class TaskErrorsTest {
    @Test
    void oneOversizedAllocationIsTheTasksAndAnExhaustedHeapIsFatalWithG1() throws Exception {
        assertClassified("-XX:+UseG1GC");
    }

    @Test
    void oneOversizedAllocationIsTheTasksAndAnExhaustedHeapIsFatalWithTheSerialCollector() throws Exception {
        assertClassified("-XX:+UseSerialGC");
    }

    @Test
    void otherJvmErrorsAreClassifiedByKind() {
        long mark = TaskErrors.heapMark();
        assertThat(TaskErrors.isFatal(new StackOverflowError(), mark)).isFalse();
        assertThat(TaskErrors.isFatal(new NoClassDefFoundError("x"), mark)).isFalse();
        assertThat(TaskErrors.isFatal(new ExceptionInInitializerError("x"), mark)).isFalse();
        assertThat(TaskErrors.isFatal(new OutOfMemoryError("Metaspace"), mark)).isTrue();
        assertThat(TaskErrors.isFatal(new OutOfMemoryError("Direct buffer memory"), mark)).isTrue();
        assertThat(TaskErrors.isFatal(new InternalError("x"), mark)).isTrue();
    }

    private static void assertClassified(String collector) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process probe = new ProcessBuilder(List.of(java.toString(), "-Xmx96m", collector, "-cp",
                System.getProperty("java.class.path"), TaskErrorsProbe.class.getName()))
                .redirectErrorStream(true).start();
        boolean ended = probe.waitFor(60, TimeUnit.SECONDS);
        String out = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!ended) {
            probe.destroyForcibly();
        }
        assertThat(ended).as(out).isTrue();
        assertThat(out).as(collector)
                .contains("past-vm-limit fatal=false (Requested array size exceeds VM limit)")
                .contains("oversized fatal=false (Java heap space)")
                .contains("exhausted fatal=true (Java heap space)");
    }
}
