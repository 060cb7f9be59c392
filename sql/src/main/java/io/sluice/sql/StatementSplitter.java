package io.sluice.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a script into statements on semicolons. A tiny lexer rather than a regex, because a
 * semicolon inside a string, a quoted name or a comment must not split.
 */
final class StatementSplitter {
    private StatementSplitter() {
    }

    /** Where one statement sits in the script: {@code [start, end)}, without the semicolon. */
    record Segment(int start, int end) {
    }

    /** The non-empty statements of {@code script}; comment-only pieces count as empty. */
    static List<Segment> segments(String script) {
        List<Segment> out = new ArrayList<>();
        int start = 0;
        boolean content = false;
        int i = 0;
        int n = script.length();
        while (i < n) {
            char c = script.charAt(i);
            if (c == '\'' || c == '"') {
                content = true;
                i = skipQuoted(script, i);
            } else if (startsComment(script, i)) {
                i = skipComment(script, i);
            } else if (c == ';') {
                if (content) {
                    out.add(new Segment(start, i));
                }
                start = i + 1;
                content = false;
                i++;
            } else {
                content |= !Character.isWhitespace(c);
                i++;
            }
        }
        if (content) {
            out.add(new Segment(start, n));
        }
        return out;
    }

    /** Index of the first character at or after {@code from} that is not whitespace or comment. */
    static int skipTrivia(String sql, int from) {
        int i = from;
        while (i < sql.length()) {
            if (Character.isWhitespace(sql.charAt(i))) {
                i++;
            } else if (startsComment(sql, i)) {
                i = skipComment(sql, i);
            } else {
                break;
            }
        }
        return i;
    }

    private static boolean startsComment(String s, int i) {
        return i + 1 < s.length() && ((s.charAt(i) == '-' && s.charAt(i + 1) == '-')
                || (s.charAt(i) == '/' && s.charAt(i + 1) == '*'));
    }

    /** Index just past the comment starting at {@code i}; an unclosed comment runs to the end. */
    private static int skipComment(String s, int i) {
        if (s.charAt(i) == '-') {
            int eol = s.indexOf('\n', i);
            return eol < 0 ? s.length() : eol + 1;
        }
        int close = s.indexOf("*/", i + 2);
        return close < 0 ? s.length() : close + 2;
    }

    /**
     * Index just past the quoted text starting at {@code i}. A doubled quote is an escaped quote,
     * which the loop handles by leaving and re-entering; an unclosed quote runs to the end, and the
     * parser reports it.
     */
    private static int skipQuoted(String s, int i) {
        char quote = s.charAt(i);
        int close = s.indexOf(quote, i + 1);
        return close < 0 ? s.length() : close + 1;
    }
}
