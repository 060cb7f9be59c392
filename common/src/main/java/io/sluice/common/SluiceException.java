package io.sluice.common;

/**
 * An error the user can cause: bad SQL, an unknown table or column, a type mismatch, a missing or
 * malformed file. The message names the thing at fault; these never kill a node.
 */
public class SluiceException extends RuntimeException {
    public SluiceException(String message) {
        super(message);
    }

    public SluiceException(String message, Throwable cause) {
        super(message, cause);
    }
}
