package io.sluice.cli;

import io.sluice.api.AuthSecrets;
import io.sluice.api.JobClassLoader;
import io.sluice.api.JobSubmitter;
import io.sluice.api.Session;
import io.sluice.common.SluiceException;
import io.sluice.coordinator.ClusterJobRunner;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.jar.JarFile;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice submit}: runs a job jar's main class. In client mode (the default, as Spark's
 * driver in client deploy mode) it runs in this process, with {@code Session.create()} pointed at an
 * embedded cluster or at a running coordinator (over HTTPS with the same {@code --http-tls-*}
 * trust as the other client commands). In cluster mode ({@code --deploy-mode cluster
 * --coordinator HOST:PORT}) the jar is uploaded to the coordinator, which runs its main with a
 * session bound to itself; the job's output comes back to stdout and its failure to the exit code.
 * Either way Sluice's own classes come from the cluster, so the jar need not bundle them, and user
 * functions in the jar ({@code Functions.udf}) are loaded by the workers from the jar itself.
 */
@Command(name = "submit", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Runs a job jar's main class; Session.create() in the job reaches the given cluster.")
final class SubmitCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    SqlCommand.Target target;

    @Option(names = "--class", paramLabel = "CLASS", description = "The main class (default: the jar's Main-Class).")
    String mainClass;

    @Option(names = "--deploy-mode", paramLabel = "MODE", defaultValue = "client",
            description = "client (main runs here; default) or cluster (main runs on the coordinator; needs --coordinator).")
    String deployMode;

    @Parameters(index = "0", paramLabel = "JAR", description = "The job jar.")
    Path jar;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments for the job's main method.")
    List<String> args = List.of();

    @Mixin
    HttpTlsClientOptions httpTls = new HttpTlsClientOptions();

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(jar)) {
            throw new SluiceException("job jar not found: " + jar);
        }
        if (deployMode.equals("cluster")) {
            return submitToCluster();
        }
        if (!deployMode.equals("client")) {
            throw new SluiceException("--deploy-mode is client or cluster, not '" + deployMode + "'");
        }
        String className = mainClass != null ? mainClass : manifestMainClass();
        if (target.coordinator != null) {
            httpTls.applyToMaster(target.coordinator);
        } else {
            System.setProperty(Session.MASTER_PROPERTY, "local[" + Options.atLeast(spec, "--local", target.workers, 1) + "]");
        }
        PrintStream logs = System.out;
        try (JobClassLoader loader = JobClassLoader.of(jar)) {
            Method main = loader.mainMethod(className);
            System.setOut(Main.results);
            Thread.currentThread().setContextClassLoader(loader);
            main.invoke(null, (Object) args.toArray(new String[0]));
            return 0;
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SluiceException user) {
                throw user;
            }
            throw new SluiceException("job " + className + " failed: " + ErrorReporter.message(cause), cause);
        } finally {
            System.out.flush();
            System.setOut(logs);
        }
    }

    /** Cluster mode: the job runs on the coordinator; its output is printed here, its failure is ours. */
    private Integer submitToCluster() {
        if (target.coordinator == null) {
            throw new SluiceException("--deploy-mode cluster needs --coordinator HOST:HTTP_PORT");
        }
        ClusterJobRunner.Outcome outcome = JobSubmitter.submit(target.coordinator.uriHost(), target.coordinator.port(),
                AuthSecrets.configured(), httpTls.tls(target.coordinator), jar, mainClass, args);
        Main.results.print(outcome.output());
        Main.results.flush();
        if (outcome.error() != null) {
            throw new SluiceException(outcome.error());
        }
        return outcome.exitCode();
    }

    private String manifestMainClass() throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            String name = file.getManifest() == null ? null : file.getManifest().getMainAttributes().getValue("Main-Class");
            if (name == null) {
                throw new SluiceException("job jar " + jar + " names no Main-Class; give one with --class");
            }
            return name;
        }
    }
}
