package io.sluice.cli.shell;

import io.sluice.common.SluiceException;

/** A failure as one line a user reads: a user error's own message, for anything else its type too. */
public final class ErrorText {
    private ErrorText() {
    }

    /** The message of the first {@link SluiceException} in the chain; else the root cause's type and message. */
    public static String message(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SluiceException) {
                return oneLine(t.getMessage());
            }
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root.getMessage() == null ? "" : ": " + root.getMessage();
        return oneLine(root.getClass().getSimpleName() + text);
    }

    public static String oneLine(String s) {
        return s == null ? "unknown error" : s.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }
}
