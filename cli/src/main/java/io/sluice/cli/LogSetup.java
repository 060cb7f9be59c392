package io.sluice.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Chooses what a command logs before the first logger exists (Logback reads its configuration,
 * conf/logback.xml, once, at the first logger), by setting the system properties that file reads:
 * {@value #LEVEL} is INFO for the node commands and with {@code --verbose}, else WARN, so clients
 * print results and errors only; a node also gets {@value #FILE}, its own log file under
 * {@value #DIRECTORY} ({@code $SLUICE_LOG_DIR}, which bin/sluice passes):
 * {@code coordinator-HOST.log}, {@code worker-ID.log} (several workers may share a host),
 * {@code local-HOST.log}. Properties already set (by {@code -D}) are left alone.
 */
final class LogSetup {
    static final String LEVEL = "sluice.log.level";
    static final String FILE = "sluice.log.file";
    static final String DIRECTORY = "sluice.log.dir";
    static final String VERBOSE = "--verbose";
    private static final Set<String> NODE_COMMANDS = Set.of("coordinator", "worker", "local");

    private LogSetup() {
    }

    static void configure(String[] args) {
        List<String> arguments = List.of(args);
        String command = arguments.stream().filter(a -> !a.startsWith("-")).findFirst().orElse("");
        boolean node = NODE_COMMANDS.contains(command);
        if (System.getProperty(LEVEL) == null) {
            System.setProperty(LEVEL, node || arguments.contains(VERBOSE) ? "INFO" : "WARN");
        }
        String directory = System.getProperty(DIRECTORY);
        if (node && System.getProperty(FILE) == null && directory != null && !directory.isBlank()) {
            System.setProperty(FILE, Path.of(directory, command + "-" + nodeName(command, arguments) + ".log").toString());
        }
    }

    private static String nodeName(String command, List<String> arguments) {
        for (int i = 0; command.equals("worker") && i < arguments.size(); i++) {
            String argument = arguments.get(i);
            String id = argument.equals("--id") && i + 1 < arguments.size() ? arguments.get(i + 1)
                    : argument.startsWith("--id=") ? argument.substring("--id=".length()) : null;
            if (id != null) {
                return id.replaceAll("[^A-Za-z0-9._-]", "_");
            }
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
