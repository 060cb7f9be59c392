package io.sluice.datasource.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.sluice.common.SluiceException;

/**
 * A line that is not one JSON object, or a value that does not fit its column: thrown while a line
 * is read and handled by the table's mode. No stack trace: in PERMISSIVE or DROPMALFORMED mode it is
 * an expected, per-line event.
 */
final class JsonRowException extends RuntimeException {
    private static final int MAX_TEXT = 100;

    JsonRowException(String message) {
        super(message, null, false, false);
    }

    /** The token at the parser, for a message: its text, cut short. */
    static String describe(JsonParser parser) {
        try {
            String text = parser.getText();
            if (text == null) {
                return "the end of the line";
            }
            return "'" + shorten(text) + "'";
        } catch (java.io.IOException e) {
            return "unreadable text";
        }
    }

    static String shorten(String text) {
        return text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) + "..." : text;
    }

    /** The FAILFAST error for a line: names the file and the line. */
    static SluiceException malformedLine(JsonLines lines, Exception cause) {
        String what = cause instanceof JsonProcessingException p ? p.getOriginalMessage() : cause.getMessage();
        int nl = what.indexOf('\n');
        if (nl >= 0) {
            what = what.substring(0, nl);
        }
        return new SluiceException(lines.path() + ": line " + lines.lineNumber() + ": malformed JSON record: " + what
                + " (the mode option PERMISSIVE or DROPMALFORMED reads past such lines)", cause);
    }
}
