package io.sluice.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a script into statements on semicolons. A tiny lexer ({@link SqlLexemes}) rather than a
 * regex, because a semicolon inside a string, a quoted name or a comment must not split, and where a
 * string ends depends on the dialect (Spark's {@code 'it\'s'}). The script is read in the dialect it
 * starts in until a {@code SET sluice.sql.dialect = …} in it changes it, as running it would.
 */
final class StatementSplitter {
    private static final Pattern SET_DIALECT = Pattern.compile(
            "(?is)SET\\s+sluice\\.sql\\.dialect\\s*(?:=|\\s+TO\\s+)\\s*(['\"]?)(spark|ansi)\\1\\s*");

    private StatementSplitter() {
    }

    /** Where one statement sits in the script: {@code [start, end)}, without the semicolon. */
    record Segment(int start, int end) {
    }

    /** The non-empty statements of {@code script} read from the start in {@code dialect}; comment-only pieces count as empty. */
    static List<Segment> segments(String script, SqlDialect dialect) {
        List<Segment> out = new ArrayList<>();
        SqlDialect current = dialect;
        int start = 0;
        boolean content = false;
        int i = 0;
        int n = script.length();
        while (i < n) {
            char c = script.charAt(i);
            int skipped = SqlLexemes.skipLexeme(script, i, current);
            if (skipped > i) {
                content |= SqlLexemes.isQuote(c);
                i = skipped;
            } else if (c == ';') {
                if (content) {
                    out.add(new Segment(start, i));
                    current = dialectAfter(script.substring(start, i), current);
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

    /** The dialect after {@code statement} ran in {@code current}: another one only when it is a {@code SET sluice.sql.dialect}. */
    static SqlDialect dialectAfter(String statement, SqlDialect current) {
        Matcher set = SET_DIALECT.matcher(statement.substring(skipTrivia(statement, 0)));
        return set.matches() ? SqlDialect.valueOf(set.group(2).toUpperCase(Locale.ROOT)) : current;
    }

    /** Index of the first character at or after {@code from} that is not whitespace or comment. */
    static int skipTrivia(String sql, int from) {
        int i = from;
        while (i < sql.length()) {
            if (Character.isWhitespace(sql.charAt(i))) {
                i++;
            } else if (SqlLexemes.startsComment(sql, i)) {
                i = SqlLexemes.commentEnd(sql, i);
            } else {
                break;
            }
        }
        return i;
    }
}
