package io.sluice.cli;

import io.sluice.api.Session;
import io.sluice.plan.SluiceException;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.jar.JarFile;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice submit}: runs a job jar's main class in this process (client mode, as Spark's
 * driver in client deploy mode), with {@code Session.create()} pointed at an embedded cluster or
 * at a running coordinator. Sluice's own classes come from this process, so the jar need not
 * bundle them; its own output goes to stdout.
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

    @Parameters(index = "0", paramLabel = "JAR", description = "The job jar.")
    Path jar;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments for the job's main method.")
    List<String> args = List.of();

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(jar)) {
            throw new SluiceException("job jar not found: " + jar);
        }
        String className = mainClass != null ? mainClass : manifestMainClass();
        System.setProperty(Session.MASTER_PROPERTY, target.coordinator != null
                ? target.coordinator.uriHost() + ":" + target.coordinator.port()
                : "local[" + Options.atLeast(spec, "--local", target.workers, 1) + "]");
        PrintStream logs = System.out;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = mainMethod(loader, className);
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

    private String manifestMainClass() throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            String name = file.getManifest() == null ? null : file.getManifest().getMainAttributes().getValue("Main-Class");
            if (name == null) {
                throw new SluiceException("job jar " + jar + " names no Main-Class; give one with --class");
            }
            return name;
        }
    }

    private static Method mainMethod(ClassLoader loader, String className) {
        try {
            Method main = Class.forName(className, true, loader).getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers())) {
                throw new SluiceException(className + ".main is not static");
            }
            return main;
        } catch (ClassNotFoundException e) {
            throw new SluiceException("class " + className + " not found in the job jar");
        } catch (NoSuchMethodException e) {
            throw new SluiceException("class " + className + " has no main(String[]) method");
        }
    }
}
