package io.sluice.cli.shell;

import java.util.Locale;
import java.util.Set;

/**
 * What a statement gives back, told by its first word: a result to print (a query, {@code SHOW},
 * {@code DESCRIBE}, {@code EXPLAIN}), or only a status (DDL, {@code INSERT}, {@code SET}), which
 * the csv, tsv and json formats leave out so that a script's output is its queries' results.
 */
enum StatementKind {
    /** Rows to print. */
    QUERY,
    /** {@code SET name = value}: in force for the statements after it. */
    SETTING,
    /** {@code RESET}: the session's settings back to their defaults. */
    RESET,
    /** Anything else: DDL, writes; a status only. */
    COMMAND;

    private static final Set<String> QUERY_WORDS = Set.of("SELECT", "WITH", "VALUES", "TABLE", "FROM", "SHOW",
            "DESCRIBE", "DESC", "EXPLAIN", "LIST");

    static StatementKind of(String statement) {
        String word = firstWord(statement);
        if (QUERY_WORDS.contains(word)) {
            return QUERY;
        }
        return switch (word) {
            case "SET" -> SETTING;
            case "RESET" -> RESET;
            default -> COMMAND;
        };
    }

    /** The first word, upper case, past white space, comments and opening parentheses. */
    static String firstWord(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == '(') {
                i++;
            } else if (sql.startsWith("--", i)) {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (sql.startsWith("/*", i)) {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
            } else {
                break;
            }
        }
        int end = i;
        while (end < n && Character.isLetter(sql.charAt(end))) {
            end++;
        }
        return sql.substring(i, end).toUpperCase(Locale.ROOT);
    }
}
