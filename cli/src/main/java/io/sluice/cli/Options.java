package io.sluice.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Range checks for numeric options, reported as usage errors that name the option. */
final class Options {
    private Options() {
    }

    static int port(CommandSpec spec, String option, int value, boolean zeroAllowed) {
        int min = zeroAllowed ? 0 : 1;
        if (value < min || value > 65535) {
            throw new ParameterException(spec.commandLine(), option + " must be between " + min + " and 65535: " + value);
        }
        return value;
    }

    static int atLeast(CommandSpec spec, String option, int value, int min) {
        if (value < min) {
            throw new ParameterException(spec.commandLine(), option + " must be at least " + min + ": " + value);
        }
        return value;
    }
}
