package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.ClusterJobRunner;
import io.sluice.coordinator.QueryService;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Cluster deploy mode on the coordinator: each submitted jar gets its own {@link JobClassLoader}
 * (parent: Sluice's classes, so the job sees the API and nothing of other jobs) and its main runs on
 * a thread of its own, on which {@link Session#create()} answers a session bound to this
 * coordinator. What the job prints on {@code System.out} (from that thread and the threads it
 * starts) is captured and returned; other threads' output goes where it went before.
 *
 * <p>A job is trusted code with the cluster's secret: it runs inside the coordinator's JVM, as a
 * Spark driver in cluster mode runs inside the cluster. It must not call {@code System.exit}.
 */
public final class ClusterJobs implements ClusterJobRunner {
    /** The most of a job's output kept and returned. */
    static final int MAX_OUTPUT_BYTES = 16 << 20;

    /** The session engine bound to the current job's thread (and the threads it starts); null elsewhere. */
    private static final InheritableThreadLocal<QueryEngine> BOUND = new InheritableThreadLocal<>();
    private static final InheritableThreadLocal<OutputStream> CAPTURE = new InheritableThreadLocal<>();
    private static final AtomicLong JOBS = new AtomicLong();

    private final QueryService queries;

    ClusterJobs(QueryService queries) {
        this.queries = requireNonNull(queries, "queries is null");
    }

    /** Makes {@code coordinator} run jars submitted in cluster deploy mode ({@code POST /v1/submit}). */
    public static void acceptJobsOn(io.sluice.coordinator.Coordinator coordinator) {
        coordinator.acceptJobs(new ClusterJobs(coordinator.queries()));
    }

    /** The engine of the cluster job running on this thread, or null. */
    static QueryEngine bound() {
        return BOUND.get();
    }

    @Override
    public Outcome run(byte[] jar, String mainClass, List<String> args) {
        routeStandardOutput();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        OutputStream capped = new OutputStream() {
            @Override
            public void write(int b) {
                if (output.size() < MAX_OUTPUT_BYTES) {
                    output.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                output.write(b, off, Math.max(0, Math.min(len, MAX_OUTPUT_BYTES - output.size())));
            }
        };
        String[] error = {null};
        try (JobClassLoader loader = JobClassLoader.of(jar)) {
            String className = mainClass != null ? mainClass : loader.manifestMainClass();
            if (className == null) {
                return new Outcome(1, "", "the job jar names no Main-Class; give one with --class");
            }
            Thread job = new Thread(() -> {
                // the job's tables and views are its own, over the cluster's shared catalog
                BOUND.set(new CoordinatorEngine(queries, queries.newSessionCatalog()));
                CAPTURE.set(capped);
                try {
                    loader.mainMethod(className).invoke(null, (Object) args.toArray(new String[0]));
                } catch (InvocationTargetException e) {
                    error[0] = "job " + className + " failed: " + e.getCause();
                } catch (SluiceException | IllegalAccessException e) {
                    error[0] = e.getMessage();
                } catch (RuntimeException | LinkageError e) {
                    error[0] = "job " + className + " failed: " + e;
                } finally {
                    System.out.flush();
                    CAPTURE.remove();
                    BOUND.remove();
                }
            }, "sluice-cluster-job-" + JOBS.incrementAndGet());
            job.setContextClassLoader(loader);
            job.start();
            job.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error[0] = "interrupted while the job ran";
        } catch (IOException e) {
            error[0] = "could not release the job's jar: " + e.getMessage();
        }
        String printed = output.toString(StandardCharsets.UTF_8);
        return new Outcome(error[0] == null ? 0 : 1, printed, error[0]);
    }

    /** Once per JVM: {@code System.out} writes to the current job's capture when there is one. */
    private static synchronized void routeStandardOutput() {
        if (System.out instanceof RoutedOutput) {
            return;
        }
        System.setOut(new RoutedOutput(System.out));
    }

    /** A stream that writes to the current thread's job capture, or else to the stream it replaced. */
    private static final class RoutedOutput extends PrintStream {
        RoutedOutput(PrintStream original) {
            super(new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    target(original).write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    target(original).write(b, off, len);
                }

                @Override
                public void flush() throws IOException {
                    target(original).flush();
                }
            }, true, StandardCharsets.UTF_8);
        }

        private static OutputStream target(PrintStream original) {
            OutputStream capture = CAPTURE.get();
            return capture != null ? capture : original;
        }
    }
}
