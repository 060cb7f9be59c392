package io.sluice.sql;

import io.sluice.common.SluiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Calcite's SQL parser, used only to turn text into a syntax tree. Names keep their case, because
 * {@link io.sluice.common.types.Schema#indexOf} matches case-insensitively itself; the lenient
 * conformance admits {@code LIMIT}, {@code OFFSET}, {@code !=} and {@code %}.
 *
 * <p>Calcite reserves many words that Spark SQL and DuckDB accept as names ({@code value},
 * {@code one}, {@code year}, {@code date}, {@code position}, ...). When the parser stops at such a
 * word, the word is quoted at that spot and the statement parsed again; words DuckDB reserves too
 * ({@link #ALWAYS_RESERVED}: {@code select}, {@code from}, {@code order}, ...) are never quoted, so
 * their errors stay errors. A keyword used as a keyword never stops the parser, so it is never
 * quoted; error positions are reported in the user's text.
 */
final class CalciteParser {
    private static final SqlParser.Config CONFIG = SqlParser.config()
            .withQuoting(Quoting.DOUBLE_QUOTE)
            .withUnquotedCasing(Casing.UNCHANGED)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(false)
            .withConformance(SqlConformanceEnum.LENIENT);

    private static final SqlAbstractParserImpl.Metadata METADATA = SqlParser.create("", CONFIG).getMetadata();
    private static final Pattern ENCOUNTERED = Pattern.compile("Encountered \"(.*)\"");
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z_0-9]*");
    /** Quoting one word per attempt; a statement needing more than this many is not worth saving. */
    private static final int MAX_QUOTED_WORDS = 64;
    /**
     * PostgreSQL's and DuckDB's reserved words, plus the join and predicate words they keep apart;
     * not DEFAULT, which Spark SQL reads as a name (the database {@code default.t}).
     */
    private static final Set<String> ALWAYS_RESERVED = Set.of("ALL", "ANALYSE", "ANALYZE", "AND", "ANY", "ARRAY",
            "AS", "ASC", "ASYMMETRIC", "BETWEEN", "BOTH", "BY", "CASE", "CAST", "CHECK", "COLLATE", "COLUMN",
            "CONSTRAINT", "CREATE", "CROSS", "CURRENT_DATE", "DEFERRABLE", "DESC", "DISTINCT", "DO",
            "ELSE", "END", "EXCEPT", "EXISTS", "FALSE", "FETCH", "FOR", "FOREIGN", "FROM", "FULL", "GRANT",
            "GROUP", "HAVING", "ILIKE", "IN", "INITIALLY", "INNER", "INTERSECT", "INTERVAL", "INTO", "IS", "JOIN",
            "LATERAL", "LEADING", "LEFT", "LIKE", "LIMIT", "NATURAL", "NOT", "NULL", "OFFSET", "ON", "ONLY", "OR",
            "ORDER", "OUTER", "OVER", "PLACING", "PRIMARY", "REFERENCES", "RETURNING", "RIGHT", "SELECT", "SOME",
            "SYMMETRIC", "TABLE", "THEN", "TO", "TRAILING", "TRUE", "UNION", "UNIQUE", "USING", "VALUES",
            "VARIADIC", "WHEN", "WHERE", "WINDOW", "WITH");

    private CalciteParser() {
    }

    /**
     * Parses one statement, {@code sql} being {@code rewritten}'s text or that text with parts blanked
     * out, and applies the dialect to the tree ({@link DialectTree}); a syntax error becomes a
     * one-line message with line and column.
     */
    static Parsed parse(String sql, SparkSyntax.Rewritten rewritten) {
        String text = LateralViews.rewrite(sql);
        Parsed parsed = parse(text);
        DialectTree.apply(parsed, rewritten, text);
        return parsed;
    }

    private static Parsed parse(String sql) {
        String text = sql;
        List<int[]> quoted = new ArrayList<>(); // {line, column} of each quote pair added, in the current text
        while (true) {
            try {
                return new Parsed(SqlParser.create(text, CONFIG).parseStmt(), quoted);
            } catch (SqlParseException e) {
                if (causedByStackOverflow(e)) {
                    // Calcite's generated parser turns any Throwable into a parse error
                    throw QueryLimits.tooComplex("it nests too deeply to parse");
                }
                int offset = quoted.size() < MAX_QUOTED_WORDS ? softReservedWordAt(text, e) : -1;
                if (offset < 0) {
                    throw syntaxError(e, quoted);
                }
                int end = wordEnd(text, offset);
                quoted.add(lineAndColumn(text, offset));
                text = text.substring(0, offset) + '"' + text.substring(offset, end) + '"' + text.substring(end);
            }
        }
    }

    /**
     * The offset of the word the parser stopped at, if Calcite reserves it but Spark SQL and DuckDB
     * do not; else -1. The parser reports the tokens it did not expect from the first one, which may
     * be an operator or a dot before the word ({@code + day}, {@code t.value}), so the first word of
     * those tokens is looked for in the text from the reported position on.
     */
    private static int softReservedWordAt(String text, SqlParseException e) {
        SqlParserPos pos = e.getPos();
        Matcher m = ENCOUNTERED.matcher(firstLine(e.getMessage()));
        if (pos == null || pos.getLineNum() <= 0 || !m.lookingAt()) {
            return -1;
        }
        int from = offsetOf(text, pos.getLineNum(), pos.getColumnNum());
        if (from < 0) {
            return -1;
        }
        Matcher word = WORD.matcher(m.group(1));
        if (!word.find() || !isSoftReserved(word.group())) {
            return softReservedWordBefore(text, from);
        }
        String found = word.group();
        int limit = Math.min(text.length(), from + 2 * m.group(1).length() + 16);
        for (int i = from; i < limit; i++) {
            boolean startsWord = i == 0 || !(Character.isLetterOrDigit(text.charAt(i - 1)) || text.charAt(i - 1) == '_');
            if (startsWord && text.regionMatches(true, i, found, 0, found.length())
                    && wordEnd(text, i) == i + found.length()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The offset of the word just before {@code offset} if it is soft-reserved, else -1: the parser
     * sometimes takes such a word as the keyword and stops at the token after it ({@code upper(value)}
     * stops at the parenthesis).
     */
    private static int softReservedWordBefore(String text, int offset) {
        int end = offset;
        while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        int start = end;
        while (start > 0 && (Character.isLetterOrDigit(text.charAt(start - 1)) || text.charAt(start - 1) == '_')) {
            start--;
        }
        boolean quoted = start > 0 && text.charAt(start - 1) == '"';
        return start < end && !quoted && Character.isLetter(text.charAt(start))
                && isSoftReserved(text.substring(start, end)) ? start : -1;
    }

    private static boolean isSoftReserved(String word) {
        String upper = word.toUpperCase(Locale.ROOT);
        return METADATA.isReservedWord(upper) && !ALWAYS_RESERVED.contains(upper);
    }

    /** Where the word (letters, digits, underscores) starting at {@code offset} ends. */
    static int wordEnd(String text, int offset) {
        int end = offset;
        while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
            end++;
        }
        return end;
    }

    /** The offset of 1-based {@code line} and {@code column} in {@code text}, or -1. */
    static int offsetOf(String text, int line, int column) {
        int offset = 0;
        for (int l = 1; l < line; l++) {
            offset = text.indexOf('\n', offset);
            if (offset < 0) {
                return -1;
            }
            offset++;
        }
        int at = offset + column - 1;
        return at < text.length() ? at : -1;
    }

    private static int[] lineAndColumn(String text, int offset) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new int[] {line, offset - lineStart + 1};
    }

    /** The column in the user's text of {@code column} in the text with {@code quoted} words quoted. */
    private static int userColumn(List<int[]> quoted, int line, int column) {
        for (int i = quoted.size() - 1; i >= 0; i--) { // undo the quotes added, latest first
            int[] q = quoted.get(i);
            if (q[0] == line && q[1] < column) {
                column -= 2;
            }
        }
        return column;
    }

    /** A parsed statement, and where words were quoted to parse it ({line, column} each). */
    record Parsed(SqlNode node, List<int[]> quoted) {
        private static final Pattern POSITIONED = Pattern.compile("(?s)line (\\d+), column (\\d+): (.*)");

        Parsed {
            quoted = List.copyOf(quoted);
        }

        /** The column in the text given to the parser of {@code column} on {@code line} in the text it read. */
        int textColumn(int line, int column) {
            return userColumn(quoted, line, column);
        }

        /**
         * {@code e}, raised while translating {@link #node}, with its "line L, column C:" position
         * moved back to the user's text (quoting shifted what follows on the same line).
         */
        SluiceException inUserText(SluiceException e) {
            Matcher m = POSITIONED.matcher(e.getMessage());
            if (quoted.isEmpty() || !m.matches()) {
                return e;
            }
            int line = Integer.parseInt(m.group(1));
            int column = userColumn(quoted, line, Integer.parseInt(m.group(2)));
            return new SluiceException("line " + line + ", column " + column + ": " + m.group(3), e);
        }
    }

    private static SluiceException syntaxError(SqlParseException e, List<int[]> quoted) {
        String detail = firstLine(e.getMessage());
        SqlParserPos pos = e.getPos();
        if (pos == null || pos.getLineNum() <= 0) {
            return new SluiceException("SQL syntax error: " + detail, e);
        }
        // Calcite repeats the position inside its message; say it once, up front.
        detail = detail.replace(" at line " + pos.getLineNum() + ", column " + pos.getColumnNum(), "");
        if (detail.endsWith(".")) {
            detail = detail.substring(0, detail.length() - 1);
        }
        int column = userColumn(quoted, pos.getLineNum(), pos.getColumnNum());
        return new SluiceException("SQL syntax error at line " + pos.getLineNum() + ", column "
                + column + ": " + detail + reservedWordHint(detail), e);
    }

    /**
     * Column names such as {@code day}, {@code year} or {@code value} are reserved words to Calcite;
     * when one trips the parser, say how to use it as a name.
     */
    private static String reservedWordHint(String detail) {
        Matcher m = ENCOUNTERED.matcher(detail);
        if (!m.lookingAt()) {
            return "";
        }
        String[] words = m.group(1).replaceAll("<[^>]*>", " ").split("[^A-Za-z_0-9]+");
        for (int i = words.length - 1; i >= 0; i--) {
            String word = words[i];
            if (!word.isEmpty() && Character.isLetter(word.charAt(0))
                    && METADATA.isReservedWord(word.toUpperCase(Locale.ROOT))) {
                return " ('" + word + "' is a reserved word; write `" + word + "` to use it as a name)";
            }
        }
        return "";
    }

    private static boolean causedByStackOverflow(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StackOverflowError) {
                return true;
            }
        }
        return false;
    }

    private static String firstLine(String message) {
        if (message == null || message.isBlank()) {
            return "invalid SQL";
        }
        String line = message.strip();
        int eol = line.indexOf('\n');
        return (eol < 0 ? line : line.substring(0, eol)).strip();
    }
}
