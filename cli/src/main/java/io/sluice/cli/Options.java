package io.sluice.cli;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.Setting;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Range checks for numeric options, reported as usage errors that name the option (and the setting it sets). */
final class Options {
    private Options() {
    }

    /** A port option's value: 0 (a free port, which the command names once bound) to 65535. */
    static int port(CommandSpec spec, String option, int value) {
        if (value < 0 || value > 65535) {
            throw new ParameterException(spec.commandLine(), option + " must be between 0 and 65535: " + value);
        }
        return value;
    }

    static int atLeast(CommandSpec spec, String option, int value, int min) {
        if (value < min) {
            throw new ParameterException(spec.commandLine(), option + " must be at least " + min + ": " + value);
        }
        return value;
    }

    /** {@code value} of an option that sets {@code setting}, within the setting's declared bounds. */
    static <T> T within(CommandSpec spec, String option, Setting<T> setting, T value) {
        try {
            return setting.check(value);
        } catch (SluiceException e) {
            throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
        }
    }
}
