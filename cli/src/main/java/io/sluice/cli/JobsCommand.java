package io.sluice.cli;

import io.sluice.api.Session;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/** {@code sluice jobs}: the queries a coordinator is running, as JSON (id, job, elapsed time, text). */
@Command(name = "jobs", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Lists the queries a coordinator is running, one JSON array on stdout.")
final class JobsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CoordinatorHttpOption coordinator = new CoordinatorHttpOption();

    @Override
    public Integer call() {
        try (Session session = coordinator.connect()) {
            PrintWriter out = spec.commandLine().getOut();
            out.println(session.runningQueries());
            out.flush();
        }
        return 0;
    }
}
