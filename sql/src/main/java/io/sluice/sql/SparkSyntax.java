package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * <li>{@code first(…)} and {@code last(…)} become {@code first_value(…)} and {@code last_value(…)}, the
 *     same functions, since Calcite's parser refuses Spark's {@code first(x, true)};</li>
 * <li>{@code a DIV b} becomes {@code a / b}, and the offset of that {@code /} is kept, so that the
 *     division is made an integral one after parsing ({@link DialectTree});</li>
 * <li>in a hint ({@code /*+ REPARTITION(4, k) *}{@code /}) numbers and hint names become quoted names,
 *     since Calcite reads a hint's options only when all are names or all are literals, and its
 *     names only when not reserved ({@code COALESCE});</li>
 * <li>{@code exists(} and {@code filter(} that open no subquery (nor a FILTER's WHERE) become the
 *     quoted names {@code "exists"(} and {@code "filter"(}: Spark's higher-order functions;</li>
 * <li>number suffixes: {@code 2.5D} (a double) becomes {@code 2.5E0}, {@code 7L} (a bigint) {@code 7};</li>
 * <li>{@code TABLESAMPLE (n PERCENT)} becomes {@code TABLESAMPLE BERNOULLI(n)},
 *     {@code (BUCKET x OUT OF y)} {@code BERNOULLI(100x/y)} and {@code TABLESAMPLE (n ROWS)}
 *     {@code TABLESAMPLE SYSTEM(0) REPEATABLE(n)} (Calcite's sample takes a percentage only), which
 *     {@link TableSamples} reads back as Spark means them; a {@code REPEATABLE (seed)} after a
 *     percentage is Calcite's own.</li>
 * </ul>
 * Comments and string literals are left alone. Every rewrite but {@code <=>}, an escaped quote inside
 * a quoted name, first/last, exists/filter calls and TABLESAMPLE keeps the text's length, so error positions stay the user's.
 */
final class SparkSyntax {
    /** Words after which a word is not an operand, so a following {@code DIV} is a name, not an operator. */
    private static final Set<String> NOT_OPERAND_END = Set.of("SELECT", "BY", "AS", "FROM", "WHERE", "AND", "OR",
            "NOT", "ON", "WHEN", "THEN", "ELSE", "CASE", "HAVING", "DISTINCT", "ALL", "IN", "IS", "LIKE", "RLIKE");

    private static final Pattern BUCKET = Pattern.compile("(?i)\\s*BUCKET\\s+(\\d{1,9})\\s+OUT\\s+OF\\s+(\\d{1,9})\\s*");

    private static final Pattern REPEATABLE = Pattern.compile("(?i)\\s*REPEATABLE\\s*\\(\\s*(-?\\d{1,18})\\s*\\)");

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
                } else if ((word.equals("FIRST") || word.equals("LAST")) && next < n && sql.charAt(next) == '('
                        && !lastWord.equals("NULLS")) {
                    // Calcite's parser refuses first(x, true); first_value is the same function, aggregate and window
                    out.append(sql, i, end).append("_value");
                    lastWord = word;
                } else if ((word.equals("EXISTS") || word.equals("FILTER")) && isFunctionCall(sql, next)) {
                    // the higher-order functions exists(arr, x -> ..) and filter(arr, x -> ..): Calcite reads
                    // these words as EXISTS (subquery) and an aggregate's FILTER (WHERE ..) only
                    out.append('"').append(sql, i, end).append('"');
                    lastWord = word;
                } else if (word.equals("TABLESAMPLE") && next < n && sql.charAt(next) == '(') {
                    int sampled = sample(sql, next, out);
                    if (sampled > next) {
                        i = sampled;
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

    /** Whether {@code (} at {@code open} starts arguments rather than a subquery or a FILTER's WHERE. */
    private static boolean isFunctionCall(String sql, int open) {
        if (open >= sql.length() || sql.charAt(open) != '(') {
            return false;
        }
        int start = LateralViews.skipSpaces(sql, open + 1);
        if (start >= sql.length() || !Character.isLetter(sql.charAt(start)) && sql.charAt(start) != '_') {
            return start < sql.length() && sql.charAt(start) != '(' && sql.charAt(start) != ')';
        }
        String first = sql.substring(start, CalciteParser.wordEnd(sql, start)).toUpperCase(Locale.ROOT);
        return !Set.of("SELECT", "WITH", "VALUES", "WHERE", "FROM", "TABLE").contains(first);
    }

    /**
     * Appends Calcite's spelling of the Spark sample whose {@code (} is at {@code open} (after
     * {@code TABLESAMPLE}), its {@code REPEATABLE (seed)} and the alias after them, which Calcite wants
     * before {@code TABLESAMPLE} (so it is moved there); returns where the sample ends, or {@code open}
     * (appending nothing) when it is not one Sluice reads.
     */
    private static int sample(String sql, int open, StringBuilder out) {
        int close = sql.indexOf(')', open);
        if (close < 0) {
            return open;
        }
        String inside = sql.substring(open + 1, close).strip();
        String[] words = inside.split("\\s+");
        Matcher bucket = BUCKET.matcher(inside);
        String spec;
        if (words.length == 2 && words[1].equalsIgnoreCase("PERCENT")) {
            spec = "BERNOULLI(" + words[0] + ")";
        } else if (words.length == 2 && words[1].equalsIgnoreCase("ROWS") && words[0].matches("\\d{1,9}")) {
            spec = "SYSTEM(0) REPEATABLE(" + words[0] + ")";
        } else if (bucket.matches()) { // x/y of the rows, as Spark's (Spark refuses an ON too)
            spec = "BERNOULLI(" + bucketPercent(bucket) + ")";
        } else {
            return open;
        }
        int end = close + 1;
        Matcher repeatable = REPEATABLE.matcher(sql).region(end, sql.length());
        if (repeatable.lookingAt()) {
            spec += spec.startsWith("SYSTEM") ? "" : " REPEATABLE(" + repeatable.group(1) + ")";
            end = repeatable.end();
        }
        int at = LateralViews.skipSpaces(sql, end);
        int aliasAt = at;
        if (sql.regionMatches(true, at, "AS", 0, 2) && CalciteParser.wordEnd(sql, at) == at + 2) {
            aliasAt = LateralViews.skipSpaces(sql, at + 2);
        }
        StringBuilder alias = new StringBuilder();
        int aliasEnd = aliasAt;
        if (aliasAt < sql.length() && sql.charAt(aliasAt) == '`') {
            aliasEnd = requote(sql, aliasAt, '`', '"', alias);
        } else if (aliasAt < sql.length() && (Character.isLetter(sql.charAt(aliasAt)) || sql.charAt(aliasAt) == '_')) {
            aliasEnd = CalciteParser.wordEnd(sql, aliasAt);
            alias.append(sql, aliasAt, aliasEnd);
            if (aliasAt == at && LateralViews.endsRelation(alias.toString())) {
                alias.setLength(0);
                aliasEnd = aliasAt;
            }
        }
        out.append(alias.isEmpty() ? "" : "AS " + alias + " ").append("TABLESAMPLE ").append(spec);
        return alias.isEmpty() ? end : aliasEnd;
    }

    /** The percentage {@code BUCKET x OUT OF y} samples, {@code 100 * x / y}, exact to 30 digits. */
    private static String bucketPercent(Matcher bucket) {
        BigDecimal x = new BigDecimal(bucket.group(1));
        BigDecimal y = new BigDecimal(bucket.group(2));
        if (y.signum() == 0) {
            throw new SluiceException("TABLESAMPLE (" + bucket.group().strip() + "): the bucket count must be above 0");
        }
        return x.movePointRight(2).divide(y, 30, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
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
