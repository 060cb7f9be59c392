package io.sluice.cli.shell;

import static java.util.Objects.requireNonNull;

import io.sluice.api.Session;
import io.sluice.cli.shell.SqlStatements.Statement;
import io.sluice.common.SluiceException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * Runs a script ({@code -f}, {@code -e} or piped stdin) statement by statement, printing every
 * result in order. The first failing statement stops the script with an error naming its line.
 */
public final class ScriptRunner {
    private final StatementRunner runner;
    private final ResultPrinter printer;

    /** {@code progress}: where the progress bar is drawn while a statement runs; null for none. */
    public ScriptRunner(Session session, ResultPrinter printer, PrintWriter progress) {
        this.runner = new StatementRunner(session, progress);
        this.printer = requireNonNull(printer, "printer is null");
    }

    /**
     * The statements of {@code script}, checked before anything runs: a file format ({@code arrow},
     * {@code parquet}) writes one result, so the script must hold exactly one statement with rows.
     */
    public static List<Statement> statements(String script, OutputFormat format) {
        List<Statement> statements = SqlStatements.split(script);
        if (format.toFile()) {
            List<String> lines = statements.stream().filter(s -> StatementKind.of(s.text()) == StatementKind.QUERY)
                    .map(s -> String.valueOf(s.line())).toList();
            if (lines.size() != 1) {
                throw new SluiceException("--format " + format.name().toLowerCase(Locale.ROOT)
                        + " writes one result to --output, but the script has " + lines.size()
                        + " statements with rows" + (lines.isEmpty() ? "" : " (at lines " + String.join(", ", lines) + ")"));
            }
        }
        return statements;
    }

    /** Runs the statements in order, printing each result; throws at the first that fails, naming its line. */
    public void run(List<Statement> statements) {
        for (Statement statement : statements) {
            StatementKind kind = StatementKind.of(statement.text());
            byte[] result;
            try {
                result = runner.run(statement.text(), kind);
            } catch (RuntimeException e) {
                throw new SluiceException("statement at line " + statement.line() + ": " + ErrorText.message(e), e);
            }
            printer.print(kind, result, null);
        }
    }
}
