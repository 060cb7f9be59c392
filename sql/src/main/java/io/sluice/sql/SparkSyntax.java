package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Spark SQL's spellings that Calcite's parser does not read, rewritten in the text before anything
 * else looks at it, into what it does read:
 * <ul>
 * <li>{@code `name`} (a backtick-quoted name) becomes {@code "name"}, Calcite's quoted name; in the
 *     {@link SqlDialect#SPARK spark} dialect {@code "text"} becomes the string literal {@code 'text'}
 *     (Spark's default), in {@link SqlDialect#ANSI ansi} it stays a quoted name;</li>
 * <li>{@code \'} inside a string literal becomes {@code ''} (Spark's escaped quote);</li>
 * <li>{@code a <=> b} becomes {@code a IS NOT DISTINCT FROM b};</li>
 * <li>{@code a REGEXP b} becomes {@code a RLIKE b} (Calcite reads RLIKE);</li>
 * <li>{@code a DIV b} becomes {@code a / b}, and the offset of that {@code /} is kept, so that the
 *     division is made an integral one after parsing ({@link DialectTree});</li>
 * <li>in a hint ({@code /*+ REPARTITION(4, k) *}{@code /}) numbers and hint names become quoted names,
 *     since Calcite reads a hint's options only when all are names or all are literals, and its
 *     names only when not reserved ({@code COALESCE});</li>
 * <li>number suffixes: {@code 2.5D} (a double) becomes {@code 2.5E0}, {@code 7L} (a bigint) {@code 7};</li>
 * <li>{@code TABLESAMPLE (n PERCENT)} becomes {@code TABLESAMPLE BERNOULLI(n)} and
 *     {@code TABLESAMPLE (n ROWS)} becomes {@code TABLESAMPLE SYSTEM(0) REPEATABLE(n)} (Calcite's
 *     sample takes a percentage only), which {@link TableSamples} reads back as Spark means them.</li>
 * </ul>
 * Comments and string literals are left alone. Every rewrite but {@code <=>}, an escaped quote inside
 * a quoted name and TABLESAMPLE keeps the text's length, so error positions stay the user's.
 */
final class SparkSyntax {
    /** Words after which a word is not an operand, so a following {@code DIV} is a name, not an operator. */
    private static final Set<String> NOT_OPERAND_END = Set.of("SELECT", "BY", "AS", "FROM", "WHERE", "AND", "OR",
            "NOT", "ON", "WHEN", "THEN", "ELSE", "CASE", "HAVING", "DISTINCT", "ALL", "IN", "IS", "LIKE", "RLIKE");

    private SparkSyntax() {
    }

    /** Text rewritten for Calcite, in a dialect, with the offsets of the {@code /} that were {@code DIV}. */
    record Rewritten(String text, SqlDialect dialect, List<Integer> integerDivisions) {
        Rewritten {
            requireNonNull(text, "text is null");
            requireNonNull(dialect, "dialect is null");
            integerDivisions = List.copyOf(integerDivisions);
        }

        /** The same rewrite, over {@code newText} (the text with parts blanked out, offsets unchanged). */
        Rewritten withText(String newText) {
            return new Rewritten(newText, dialect, integerDivisions);
        }
    }

    static Rewritten rewrite(String sql, SqlDialect dialect) {
        StringBuilder out = new StringBuilder(sql.length() + 16);
        List<Integer> divisions = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        String lastWord = "";
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                end = end < 0 ? n : end;
                out.append(sql, i, end);
                i = end;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                if (sql.startsWith("/*+", i)) {
                    out.append(sql.substring(i, end).replaceAll("(?<![A-Za-z0-9_\"])(\\d+)(?![A-Za-z0-9_\"])", "\"$1\"")
                            .replaceAll("([A-Za-z_][A-Za-z0-9_]*)(\\s*\\()", "\"$1\"$2"));
                } else {
                    out.append(sql, i, end);
                }
                i = end;
                continue;
            } else if (c == '\'') {
                i = copyString(sql, i, '\'', dialect, out);
                lastWord = "'";
            } else if (c == '`') {
                i = requote(sql, i, '`', '"', out);
                lastWord = "`";
            } else if (c == '"') {
                i = dialect == SqlDialect.SPARK ? copyString(sql, i, '"', dialect, out) : requote(sql, i, '"', '"', out);
                lastWord = "\"";
            } else if (c == '<' && sql.startsWith("<=>", i)) {
                out.append(" IS NOT DISTINCT FROM ");
                i += 3;
                lastWord = "";
            } else if (Character.isLetter(c) || c == '_') {
                int end = CalciteParser.wordEnd(sql, i);
                String word = sql.substring(i, end).toUpperCase(Locale.ROOT);
                int next = LateralViews.skipSpaces(sql, end);
                boolean afterOperand = !lastWord.isEmpty() && !NOT_OPERAND_END.contains(lastWord);
                if (word.equals("DIV") && afterOperand && startsOperand(sql, next)) {
                    divisions.add(out.length());
                    out.append("/  ");
                    lastWord = "";
                } else if (word.equals("REGEXP") && afterOperand && next < n && sql.charAt(next) != '(') {
                    out.append(Character.isUpperCase(sql.charAt(i)) ? "RLIKE " : "rlike ");
                    lastWord = "RLIKE";
                } else if (word.equals("TABLESAMPLE") && next < n && sql.charAt(next) == '(') {
                    int close = sql.indexOf(')', next);
                    String[] inside = close < 0 ? new String[0] : sql.substring(next + 1, close).strip().split("\\s+");
                    if (inside.length == 2 && inside[1].equalsIgnoreCase("PERCENT")) {
                        out.append("TABLESAMPLE BERNOULLI(").append(inside[0]).append(')');
                        i = close + 1;
                        lastWord = ")";
                        continue;
                    }
                    if (inside.length == 2 && inside[1].equalsIgnoreCase("ROWS") && inside[0].matches("\\d{1,9}")) {
                        out.append("TABLESAMPLE SYSTEM(0) REPEATABLE(").append(inside[0]).append(')');
                        i = close + 1;
                        lastWord = ")";
                        continue;
                    }
                    out.append(sql, i, end);
                    lastWord = word;
                } else {
                    out.append(sql, i, end);
                    lastWord = word;
                }
                i = end;
            } else if (Character.isDigit(c) && !lastWord.equals(".") && (i == 0 || !LateralViews.isWordChar(sql.charAt(i - 1)))) {
                i = number(sql, i, out);
                lastWord = "0";
            } else {
                out.append(c);
                if (Character.isDigit(c) || c == ')' || c == ']') {
                    lastWord = String.valueOf(c);
                } else if (!Character.isWhitespace(c)) {
                    lastWord = c == '.' ? lastWord : "";
                }
                i++;
            }
        }
        return new Rewritten(out.toString(), dialect, divisions);
    }

    /**
     * Copies the string literal quoted by {@code quote} starting at {@code start} as a Calcite literal
     * (single quotes, an inner {@code '} doubled); returns where it ends. In Spark's dialect a
     * backslash escapes as Spark's parser has it ({@code \\}, {@code \'}, {@code \"}, {@code \n},
     * {@code \t}, {@code \r}, {@code \b}, {@code \0}, {@code \Z}, a backslash, {@code u} and four hex digits, octal {@code \ddd};
     * {@code \%} and {@code \_} stay two characters for LIKE; any other {@code \x} is {@code x}); in
     * the ansi dialect a backslash is an ordinary character, as in DuckDB and PostgreSQL.
     */
    private static int copyString(String sql, int start, char quote, SqlDialect dialect, StringBuilder out) {
        out.append('\'');
        int i = start + 1;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\' && dialect == SqlDialect.SPARK && i + 1 < n) {
                i = unescape(sql, i, out);
            } else if (c == quote && i + 1 < n && sql.charAt(i + 1) == quote) {
                appendLiteralChar(quote, out);
                i += 2;
            } else if (c == quote) {
                out.append('\'');
                return i + 1;
            } else {
                appendLiteralChar(c, out);
                i++;
            }
        }
        return i;
    }

    /** Decodes the Spark escape at {@code i} (a backslash) into {@code out}; returns where it ends. */
    private static int unescape(String sql, int i, StringBuilder out) {
        char e = sql.charAt(i + 1);
        if (e == 'u' && i + 6 <= sql.length() && sql.substring(i + 2, i + 6).matches("[0-9A-Fa-f]{4}")) {
            appendLiteralChar((char) Integer.parseInt(sql.substring(i + 2, i + 6), 16), out);
            return i + 6;
        }
        if (e >= '0' && e <= '3' && i + 4 <= sql.length() && sql.substring(i + 2, i + 4).matches("[0-7]{2}")) {
            appendLiteralChar((char) Integer.parseInt(sql.substring(i + 1, i + 4), 8), out);
            return i + 4;
        }
        switch (e) {
            case '0' -> appendLiteralChar('\u0000', out);
            case 'b' -> out.append('\b');
            case 'n' -> out.append('\n');
            case 'r' -> out.append('\r');
            case 't' -> out.append('\t');
            case 'Z' -> out.append('\u001A');
            case '%', '_' -> out.append('\\').append(e);
            default -> appendLiteralChar(e, out);
        }
        return i + 2;
    }

    private static void appendLiteralChar(char c, StringBuilder out) {
        out.append(c == '\'' ? "''" : String.valueOf(c));
    }

    /**
     * Copies the text quoted by {@code from} starting at {@code start} as quoted by {@code to} (a
     * doubled {@code from} is one, a {@code to} inside is doubled); returns where it ends.
     */
    private static int requote(String sql, int start, char from, char to, StringBuilder out) {
        out.append(to);
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == from && i + 1 < sql.length() && sql.charAt(i + 1) == from) {
                out.append(from == to ? "" + from + from : String.valueOf(from));
                i += 2;
            } else if (c == from) {
                out.append(to);
                return i + 1;
            } else if (c == '\\' && from == '"' && to == '\'' && i + 1 < sql.length() && sql.charAt(i + 1) == '"') {
                out.append(to == '"' ? "\"\"" : "\"");
                i += 2;
            } else {
                if (c == to && from != to) {
                    out.append(to);
                }
                out.append(c);
                i++;
            }
        }
        return i;
    }

    /**
     * Copies the number starting at {@code start}; Spark's type suffixes {@code D} (a double: Calcite's
     * {@code E0}) and {@code L} (a bigint, what Sluice's integers are) are rewritten. Returns where it ends.
     */
    private static int number(String sql, int start, StringBuilder out) {
        int i = start;
        while (i < sql.length() && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
            i++;
        }
        if (i < sql.length() && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < sql.length() && (sql.charAt(j) == '+' || sql.charAt(j) == '-')) {
                j++;
            }
            if (j < sql.length() && Character.isDigit(sql.charAt(j))) {
                i = j;
                while (i < sql.length() && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
            }
        }
        out.append(sql, start, i);
        boolean exponent = sql.substring(start, i).toUpperCase(Locale.ROOT).contains("E");
        if (i < sql.length() && (i + 1 == sql.length() || !LateralViews.isWordChar(sql.charAt(i + 1)))) {
            char suffix = Character.toUpperCase(sql.charAt(i));
            if (suffix == 'D') {
                out.append(exponent ? " " : "E0");
                return i + 1;
            }
            if (suffix == 'L') {
                out.append(' ');
                return i + 1;
            }
        }
        return i;
    }

    private static boolean startsOperand(String sql, int i) {
        if (i >= sql.length()) {
            return false;
        }
        char c = sql.charAt(i);
        if (Character.isLetter(c) || c == '_') {
            String word = sql.substring(i, CalciteParser.wordEnd(sql, i)).toUpperCase(Locale.ROOT);
            return !Set.of("FROM", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "AS", "ON", "JOIN")
                    .contains(word);
        }
        return Character.isDigit(c) || c == '(' || c == '\'' || c == '"' || c == '`' || c == '-' || c == '+'
                || c == '.';
    }
}
