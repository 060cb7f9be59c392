package io.sluice.cli;

import io.sluice.api.Session;
import io.sluice.common.SluiceException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice cancel ID}: cancels a running query (its tasks stop, its slots and shuffle files
 * are freed, its client gets an error saying it was cancelled).
 */
@Command(name = "cancel", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Cancels a running query by the id 'sluice jobs' shows (q12), or by its job id (job12).")
final class CancelCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CoordinatorHttpOption coordinator = new CoordinatorHttpOption();

    @Parameters(index = "0", paramLabel = "ID", description = "The query to cancel.")
    String id;

    @Override
    public Integer call() {
        try (Session session = coordinator.connect()) {
            if (!session.cancel(id)) {
                throw new SluiceException("no running query " + id + " (see 'sluice jobs')");
            }
        }
        spec.commandLine().getErr().println("cancelled " + id);
        return 0;
    }
}
