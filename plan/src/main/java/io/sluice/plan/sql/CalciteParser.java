package io.sluice.plan.sql;

import io.sluice.plan.SluiceException;
import java.util.Locale;
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
 * {@link io.sluice.plan.types.Schema#indexOf} matches case-insensitively itself; the lenient
 * conformance admits {@code LIMIT}, {@code OFFSET}, {@code !=} and {@code %}.
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

    private CalciteParser() {
    }

    /** Parses one statement; a syntax error becomes a one-line message with line and column. */
    static SqlNode parse(String sql) {
        try {
            return SqlParser.create(sql, CONFIG).parseStmt();
        } catch (SqlParseException e) {
            throw syntaxError(e);
        }
    }

    private static SluiceException syntaxError(SqlParseException e) {
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
        return new SluiceException("SQL syntax error at line " + pos.getLineNum() + ", column "
                + pos.getColumnNum() + ": " + detail + reservedWordHint(detail), e);
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
                return " ('" + word + "' is a reserved word; write \"" + word + "\" to use it as a name)";
            }
        }
        return "";
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
