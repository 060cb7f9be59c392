package io.sluice.sql;

/**
 * Where SQL text's quoted parts and comments end, as a dialect reads them: the one scanner that the
 * statement splitter, the length checks and the pre-parsers ({@link SparkSyntax},
 * {@link LateralViews}, {@link QueryOrganization}) share, so that none of them splits or matches
 * inside a literal another reads differently. In {@link SqlDialect#SPARK spark} a backslash escapes
 * the next character inside {@code '…'} and {@code "…"} (so {@code 'it\'s;'} is one literal);
 * in {@link SqlDialect#ANSI ansi}, and in text already rewritten for Calcite, it is an ordinary
 * character. Everywhere a doubled quote is one quote; backticks never escape. Unclosed quoted text
 * or a comment runs to the end (the parser reports it).
 */
final class SqlLexemes {
    private SqlLexemes() {
    }

    /** Whether a quoted part ({@code '…'}, {@code "…"} or {@code `…`}) opens at {@code c}. */
    static boolean isQuote(char c) {
        return c == '\'' || c == '"' || c == '`';
    }

    /** Index just past the quoted text whose opening quote is at {@code at}. */
    static int quotedEnd(String sql, int at, SqlDialect dialect) {
        char quote = sql.charAt(at);
        boolean escapes = dialect == SqlDialect.SPARK && quote != '`';
        int n = sql.length();
        int i = at + 1;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\' && escapes) {
                i += 2;
            } else if (c == quote && i + 1 < n && sql.charAt(i + 1) == quote) {
                i += 2;
            } else if (c == quote) {
                return i + 1;
            } else {
                i++;
            }
        }
        return n;
    }

    /** Whether a comment ({@code --} or {@code /*}) opens at {@code i}. */
    static boolean startsComment(String sql, int i) {
        return i + 1 < sql.length() && ((sql.charAt(i) == '-' && sql.charAt(i + 1) == '-')
                || (sql.charAt(i) == '/' && sql.charAt(i + 1) == '*'));
    }

    /** Index just past the comment opening at {@code i} (a line comment ends after its line break). */
    static int commentEnd(String sql, int i) {
        if (sql.charAt(i) == '-') {
            int eol = sql.indexOf('\n', i);
            return eol < 0 ? sql.length() : eol + 1;
        }
        int close = sql.indexOf("*/", i + 2);
        return close < 0 ? sql.length() : close + 2;
    }

    /** Index just past the quoted text or comment at {@code i}, or {@code i} when neither opens there. */
    static int skipLexeme(String sql, int i, SqlDialect dialect) {
        if (isQuote(sql.charAt(i))) {
            return quotedEnd(sql, i, dialect);
        }
        return startsComment(sql, i) ? commentEnd(sql, i) : i;
    }
}
