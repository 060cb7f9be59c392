package io.sluice.cli.shell;

import static java.util.Objects.requireNonNull;

import io.sluice.sql.SqlDialect;
import java.util.List;
import java.util.function.Supplier;
import org.jline.reader.CompletingParsedLine;
import org.jline.reader.EOFError;
import org.jline.reader.Parser;

/**
 * How the line editor reads SQL: Enter runs the text only once every statement in it is ended by
 * {@code ;} outside quotes and comments (else the editor opens another line of the same entry), and
 * the word completed is the identifier before the cursor. Quotes are read in the shell's current
 * dialect (in Spark's, {@code \'} inside a string does not end it). The editor itself has no escape
 * characters: a backslash is SQL text.
 */
final class SqlLineParser implements Parser {
    private final Supplier<SqlDialect> dialect;

    /** {@code dialect}: the dialect the shell's next entry is read in. */
    SqlLineParser(Supplier<SqlDialect> dialect) {
        this.dialect = requireNonNull(dialect, "dialect is null");
    }

    @Override
    public CompletingParsedLine parse(String line, int cursor, ParseContext context) {
        if (context == ParseContext.ACCEPT_LINE && !SqlStatements.complete(line, dialect.get())) {
            throw new EOFError(-1, cursor, "the statement is not ended by ';'", ";");
        }
        int start = cursor;
        while (start > 0 && identifierPart(line.charAt(start - 1))) {
            start--;
        }
        return new Word(line, cursor, line.substring(start, cursor));
    }

    @Override
    public boolean isEscapeChar(char ch) {
        return false;
    }

    static boolean identifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** The text and the identifier being typed at the cursor (everything completion needs); nothing is escaped. */
    private record Word(String line, int cursor, String word) implements CompletingParsedLine {
        @Override
        public int wordCursor() {
            return word.length();
        }

        @Override
        public int rawWordCursor() {
            return word.length();
        }

        @Override
        public int rawWordLength() {
            return word.length();
        }

        @Override
        public CharSequence escape(CharSequence candidate, boolean complete) {
            return candidate;
        }

        @Override
        public int wordIndex() {
            return 0;
        }

        @Override
        public List<String> words() {
            return List.of(word);
        }
    }
}
