package io.sluice.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import picocli.CommandLine.Option;

/** {@code --config FILE} and {@code --conf NAME=VALUE}, shared by the node commands ({@link SluiceConf}). */
final class ConfOptions {
    @Option(names = "--conf", paramLabel = "NAME=VALUE",
            description = "A setting (docs/configuration.md), repeatable; overrides the configuration file and SLUICE_* "
                    + "variables. E.g. sluice.task.timeout=10m, sluice.scheduler.mode=fair.")
    LinkedHashMap<String, String> conf = new LinkedHashMap<>();

    @Option(names = "--config", paramLabel = "FILE", description = "A HOCON settings file (default: $SLUICE_CONF if set).")
    Path config;

    /** The settings of the file, the environment and the flags. */
    SluiceConf load() {
        return SluiceConf.load(config, System.getenv(), conf);
    }
}
