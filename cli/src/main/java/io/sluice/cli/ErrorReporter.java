package io.sluice.cli;

import io.sluice.cli.shell.ErrorText;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine;

/**
 * Turns failures into one {@code error: ...} line on stderr: users get the message that names the
 * thing at fault, not a stack trace. Set {@code SLUICE_DEBUG=1} to see the trace as well.
 */
final class ErrorReporter {
    static final int ERROR = 1;
    static final int USAGE = 2;

    private ErrorReporter() {
    }

    static int executionError(Exception e, CommandLine cmd, ParseResult parsed) {
        if (e instanceof ParameterException p) {
            return usageError(p, new String[0]);
        }
        cmd.getErr().println("error: " + message(e));
        if (debug()) {
            e.printStackTrace(cmd.getErr());
        }
        cmd.getErr().flush();
        return ERROR;
    }

    static int usageError(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        String message = oneLine(e.getMessage()).replaceFirst("^Error: ", "");
        cmd.getErr().println("error: " + message + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
        cmd.getErr().flush();
        return USAGE;
    }

    /** A user error's own message; for anything else its type too, since the message alone may be vague. */
    static String message(Throwable e) {
        return ErrorText.message(e);
    }

    static String oneLine(String s) {
        return ErrorText.oneLine(s);
    }

    private static boolean debug() {
        String flag = System.getenv("SLUICE_DEBUG");
        return flag != null && !flag.isEmpty() && !flag.equals("0");
    }
}
