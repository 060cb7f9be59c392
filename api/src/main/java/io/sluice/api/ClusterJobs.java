package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.Settings;
import io.sluice.coordinator.ClusterJobRunner;
import io.sluice.coordinator.HttpSettingsDeclaration;
import io.sluice.coordinator.QueryService;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
    private final long maxJarBytes;
    private final Duration maxRunTime;

    ClusterJobs(QueryService queries, long maxJarBytes, Duration maxRunTime) {
        this.queries = requireNonNull(queries, "queries is null");
        this.maxJarBytes = maxJarBytes;
        this.maxRunTime = requireNonNull(maxRunTime, "maxRunTime is null");
    }

    /**
     * Makes {@code coordinator} run jars submitted in cluster deploy mode ({@code POST /v1/submit}),
     * limited by the {@code sluice.coordinator.job-jar.*} settings. Only for a coordinator started
     * with {@code --allow-job-jars}: it lets anyone with the secret run code on the coordinator.
     */
    public static void acceptJobsOn(io.sluice.coordinator.Coordinator coordinator) {
        coordinator.acceptJobs(new ClusterJobs(coordinator.queries(),
                Settings.systemProperty(HttpSettingsDeclaration.JOB_JAR_MAX_BYTES),
                Settings.systemProperty(HttpSettingsDeclaration.JOB_TIMEOUT)));
    }

    /** Whether {@code -Dsluice.coordinator.allow-job-jars=true} allows job jars without the flag. */
    public static boolean allowedBySystemProperty() {
        return Settings.systemProperty(HttpSettingsDeclaration.ALLOW_JOB_JARS);
    }

    @Override
    public long maxJarBytes() {
        return maxJarBytes;
    }

    @Override
    public Duration maxRunTime() {
        return maxRunTime;
    }

    /** The engine of the cluster job running on this thread, or null. */
    static QueryEngine bound() {
        return BOUND.get();
    }

    @Override
    public Outcome run(byte[] jar, String mainClass, List<String> args, Duration timeout,
            CompletableFuture<Void> cancel) {
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
            String stopped = awaitEnd(job, timeout, cancel);
            if (stopped != null) {
                error[0] = "job " + className + " " + stopped;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error[0] = "interrupted while the job ran";
        } catch (IOException e) {
            error[0] = "could not release the job's jar: " + e.getMessage();
        }
        String printed = output.toString(StandardCharsets.UTF_8);
        return new Outcome(error[0] == null ? 0 : 1, printed, error[0]);
    }

    /**
     * Waits for the job's thread to end; past {@code timeout}, or when {@code cancel} completes,
     * interrupts it and waits up to 10 s more. Returns why it was stopped, or null when it ended by itself.
     */
    private static String awaitEnd(Thread job, Duration timeout, CompletableFuture<Void> cancel)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (job.isAlive() && !cancel.isDone() && System.nanoTime() < deadline) {
            job.join(Math.max(1, Math.min(100, (deadline - System.nanoTime()) / 1_000_000)));
        }
        if (!job.isAlive()) {
            return null;
        }
        String why = cancel.isDone() ? "cancelled: its client disconnected" : "timed out after " + timeout.toSeconds()
                + " s (sluice.coordinator.job-jar.timeout)";
        job.interrupt();
        job.join(10_000);
        return why + (job.isAlive() ? "; it ignored the interrupt and still runs" : "; interrupted");
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
