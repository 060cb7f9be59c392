package io.sluice.cli.shell;

import static java.util.Objects.requireNonNull;

import io.sluice.sql.SqlDialect;
import io.sluice.sql.SqlFrontEnd;
import java.util.ArrayList;
import java.util.List;

/**
 * A script's statements, split as the engine splits them ({@link SqlFrontEnd#splitStatements}: a
 * {@code ;} inside quotes or a comment does not end one, nor one after Spark's {@code \\'} inside a
 * string), each with the line it starts on.
 */
public final class SqlStatements {
    /** Appended to typed text to learn whether it ended outside any statement, quote or comment. */
    private static final String SENTINEL = "\nx";

    private SqlStatements() {
    }

    /** One statement, without its {@code ;}, and the 1-based line of the script it starts on. */
    public record Statement(String text, int line) {
        public Statement {
            requireNonNull(text, "text is null");
        }
    }

    /** The non-empty statements of {@code script}, in order, read from the start in the default dialect (Spark's). */
    public static List<Statement> split(String script) {
        return split(script, SqlDialect.SPARK);
    }

    /** The same, reading the script's literals in {@code dialect} until a {@code SET sluice.sql.dialect} in it. */
    public static List<Statement> split(String script, SqlDialect dialect) {
        List<Statement> out = new ArrayList<>();
        int from = 0;
        int line = 1;
        for (String text : SqlFrontEnd.splitStatements(script, dialect)) {
            int at = script.indexOf(text, from);
            for (int i = from; i < at; i++) {
                if (script.charAt(i) == '\n') {
                    line++;
                }
            }
            out.add(new Statement(text, line));
            for (int i = at; i < at + text.length(); i++) {
                if (script.charAt(i) == '\n') {
                    line++;
                }
            }
            from = at + text.length();
        }
        return out;
    }

    /**
     * Whether typed text is ready to run: every statement in it ended by a {@code ;} (or it holds
     * none), and no quote or comment left open. A statement appended to text that ends that way
     * stays a statement of its own; appended to an unended statement, a quote or a comment, it is
     * swallowed.
     */
    public static boolean complete(String text, SqlDialect dialect) {
        return SqlFrontEnd.splitStatements(text + SENTINEL, dialect).size()
                == SqlFrontEnd.splitStatements(text, dialect).size() + 1;
    }
}
