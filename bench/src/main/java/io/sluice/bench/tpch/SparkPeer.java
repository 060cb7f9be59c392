package io.sluice.bench.tpch;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.tpch.TpchData;
import io.sluice.tpch.TpchQueries;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Apache Spark as a peer engine of the TPC-H benchmark: runs the standalone runner built under
 * {@code bench/spark-peer} (Spark 4.2, {@code local[2]}) as a separate JVM on the same Parquet files
 * and query texts, and reads its one JSON line per query.
 *
 * <p>Guarantees: the child JVM binds 127.0.0.1 only, is killed ({@code destroyForcibly}) when it
 * outlives its time limit, and is never left running when {@link #run} returns. Its stderr
 * (Spark's logging) goes to {@code bench/spark-peer/target/spark-peer.log}. Answers come back in
 * the normalized form of {@link io.sluice.tpch.Answers}: longs, strings and nulls.
 */
final class SparkPeer {
    static final String BUILD_COMMAND = "mvn -f bench/spark-peer/pom.xml -DskipTests package";
    private static final String MAIN = "io.sluice.sparkpeer.SparkTpchRunner";
    private static final String WRITER = "io.sluice.sparkpeer.SparkTpchWriter";
    /** Allowance for the child JVM to start Spark and register the tables. */
    private static final long STARTUP_SECONDS = 120;

    private final Path home;

    private SparkPeer(Path home) {
        this.home = requireNonNull(home, "home");
    }

    /** One query's outcome on Spark: a median and an answer, or an error. */
    record Outcome(int query, double medianMs, List<List<Object>> answer, String error) {
        Outcome {
            if (error == null) {
                requireNonNull(answer, "answer");
            }
        }

        static Outcome failed(int query, String error) {
            return new Outcome(query, Double.NaN, null, requireNonNull(error, "error"));
        }
    }

    /**
     * The runner under {@code root/bench/spark-peer}.
     *
     * @throws IllegalStateException naming the build command when the runner is not built
     */
    static SparkPeer locate(Path root) {
        Path home = root.resolve("bench").resolve("spark-peer");
        Path target = home.resolve("target");
        if (!Files.isRegularFile(target.resolve("spark-peer.jar")) || !Files.isDirectory(target.resolve("lib"))) {
            throw new IllegalStateException("--spark needs the Spark runner built, and " + target
                    + " has none: run '" + BUILD_COMMAND + "' in " + root);
        }
        return new SparkPeer(home);
    }

    /** The repository root: the {@code sluice.root} property that bin/sluice sets, else the working directory. */
    static Path repositoryRoot() {
        String configured = System.getProperty("sluice.root");
        return (configured != null && !configured.isBlank() ? Path.of(configured) : Path.of("")).toAbsolutePath();
    }

    /**
     * Runs {@code queries} on Spark, each {@code warmups} + {@code runs} times, a run abandoned after
     * {@code timeoutSeconds}. Queries the runner did not report (it died or ran out of time) come back
     * as errors.
     */
    Map<Integer, Outcome> run(TpchData data, int[] queries, int runs, int warmups, long timeoutSeconds)
            throws IOException, InterruptedException {
        Path queryDirectory = Files.createTempDirectory("sluice-tpch-spark-queries");
        try {
            for (int query : queries) {
                Files.writeString(queryDirectory.resolve("q" + query + ".sql"), TpchQueries.forPeer(TpchQueries.text(query, data.scaleFactor())));
            }
            long limitSeconds = STARTUP_SECONDS + (long) queries.length * (runs + warmups) * timeoutSeconds;
            return collect(start(data, queryDirectory, runs, warmups, timeoutSeconds), queries, limitSeconds);
        } finally {
            try (Stream<Path> files = Files.walk(queryDirectory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    private Process start(TpchData data, Path queryDirectory, int runs, int warmups, long timeoutSeconds) throws IOException {
        return start(MAIN, List.of(data.directory().toAbsolutePath().toString(), queryDirectory.toString(),
                Integer.toString(runs), Integer.toString(warmups), Long.toString(timeoutSeconds)));
    }

    /** A runner JVM running {@code main} with {@code arguments}; its stderr goes to spark-peer.log. */
    private Process start(String main, List<String> arguments) throws IOException {
        Path target = home.resolve("target");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions());
        command.add("-cp");
        command.add(target.resolve("spark-peer.jar") + java.io.File.pathSeparator + target.resolve("lib") + "/*");
        command.add(main);
        command.addAll(arguments);
        return new ProcessBuilder(command)
                .directory(target.toFile())
                .redirectError(target.resolve("spark-peer.log").toFile())
                .start();
    }

    /**
     * Writes every table of {@code source} again with Spark into {@code target} ({@link TpchData.Writer}
     * for {@code sluice tpch --writer spark}); the runner is killed past {@code limitSeconds}.
     *
     * @throws IOException naming the log when the runner fails or runs out of time
     */
    void rewrite(TpchData source, Path target, long limitSeconds) throws IOException {
        List<String> arguments = new ArrayList<>(List.of(source.directory().toAbsolutePath().toString(),
                target.toAbsolutePath().toString()));
        arguments.addAll(source.tables().keySet());
        Process process = start(WRITER, arguments);
        process.getOutputStream().close();
        Thread echo = new Thread(() -> echoLines(process), "spark-writer-stdout");
        echo.setDaemon(true);
        echo.start();
        try {
            if (!process.waitFor(limitSeconds, TimeUnit.SECONDS)) {
                throw new IOException("the Spark writer ran over " + limitSeconds + " s and was killed; see "
                        + home.resolve("target/spark-peer.log"));
            }
            if (process.exitValue() != 0) {
                throw new IOException("the Spark writer exited with " + process.exitValue() + "; see "
                        + home.resolve("target/spark-peer.log"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while Spark wrote " + target, e);
        } finally {
            process.destroyForcibly();
        }
    }

    /** The Spark writer's progress lines ("wrote lineitem"), echoed as they come. */
    private static void echoLines(Process process) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                System.out.println("spark: " + line);
            }
        } catch (IOException e) {
            // the process was killed: rewrite() reports that
        }
    }

    /** Options of bench/spark-peer/jvm.options: one a line, '#' starts a comment line. */
    private List<String> jvmOptions() throws IOException {
        return Files.readAllLines(home.resolve("jvm.options")).stream()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .toList();
    }

    private Map<Integer, Outcome> collect(Process process, int[] queries, long limitSeconds) throws InterruptedException {
        Map<Integer, Outcome> outcomes = new LinkedHashMap<>();
        Thread reader = new Thread(() -> readLines(process, outcomes), "spark-peer-stdout");
        reader.setDaemon(true);
        reader.start();
        String failure;
        try {
            if (!process.waitFor(limitSeconds, TimeUnit.SECONDS)) {
                failure = "Spark runner over " + limitSeconds + " s, killed";
            } else if (process.exitValue() != 0) {
                failure = "Spark runner exited with " + process.exitValue() + ", see " + home.resolve("target/spark-peer.log");
            } else {
                failure = "not reported by the Spark runner";
            }
        } finally {
            process.destroyForcibly();
        }
        process.waitFor();
        reader.join(TimeUnit.SECONDS.toMillis(10));
        synchronized (outcomes) {
            for (int query : queries) {
                outcomes.putIfAbsent(query, Outcome.failed(query, failure));
            }
            return new LinkedHashMap<>(outcomes);
        }
    }

    private static void readLines(Process process, Map<Integer, Outcome> outcomes) {
        ObjectMapper json = new ObjectMapper();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.startsWith("{")) {
                    continue;
                }
                Outcome outcome;
                try {
                    outcome = parse(json.readTree(line));
                } catch (IOException | IllegalArgumentException e) {
                    System.err.println("ignoring a Spark runner line: " + e.getMessage());
                    continue;
                }
                System.out.printf(Locale.ROOT, "q%-3d spark  %s%n", outcome.query(), outcome.error() != null
                        ? "error: " + outcome.error()
                        : String.format(Locale.ROOT, "%.0f ms, %d rows", outcome.medianMs(), outcome.answer().size()));
                synchronized (outcomes) {
                    outcomes.put(outcome.query(), outcome);
                }
            }
        } catch (IOException e) {
            // the process was killed or its output is unreadable: the queries not reported get an error
        }
    }

    /** One JSON line of the runner (format in SparkTpchRunner's doc comment). */
    static Outcome parse(JsonNode line) {
        int query = line.path("query").asInt(-1);
        if (query < 1) {
            throw new IllegalArgumentException("Spark runner line without a query number: " + line);
        }
        if (line.hasNonNull("error")) {
            return Outcome.failed(query, line.get("error").asText());
        }
        List<List<Object>> answer = new ArrayList<>();
        for (JsonNode row : line.path("answer")) {
            List<Object> values = new ArrayList<>(row.size());
            for (JsonNode value : row) {
                values.add(value.isNull() ? null : value.isIntegralNumber() ? (Object) value.asLong() : value.asText());
            }
            answer.add(values);
        }
        return new Outcome(query, line.path("median_ms").asDouble(Double.NaN), answer, null);
    }
}
