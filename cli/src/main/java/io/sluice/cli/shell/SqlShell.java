package io.sluice.cli.shell;

import static java.util.Objects.requireNonNull;

import io.sluice.api.Session;
import io.sluice.cli.shell.SqlStatements.Statement;
import io.sluice.kernels.QueryResult;
import io.sluice.sql.SqlDialect;
import io.sluice.sql.SqlFrontEnd;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The interactive {@code sluice sql}: a JLine line editor on the terminal. An entry runs once its
 * statements are ended by {@code ;} (Enter before that continues it on a new line); entries are kept
 * in a history file across runs. Tab completes keywords, tables and columns. Ctrl-C while a
 * statement runs cancels it on the cluster and returns to the prompt; at the prompt it clears the
 * entry; Ctrl-D (or {@code exit;}, {@code quit;}) leaves. A failing statement prints its error and
 * skips the rest of its entry.
 */
public final class SqlShell {
    static final String PROMPT = "sluice> ";
    static final String CONTINUATION = "     -> ";
    /** Entries that leave the shell, as Spark's {@code spark-sql} takes them. */
    private static final Set<String> LEAVE = Set.of("exit", "quit");

    private final Session session;
    private final OutputFormat format;
    private final boolean progress;
    private final Path history;

    public SqlShell(Session session, OutputFormat format, boolean progress, Path history) {
        this.session = requireNonNull(session, "session is null");
        this.format = requireNonNull(format, "format is null");
        if (format.toFile()) {
            throw new IllegalArgumentException("the shell prints results; it writes no " + format + " file");
        }
        this.progress = progress;
        this.history = requireNonNull(history, "history is null");
    }

    /** The history file: {@code $SLUICE_HISTORY}, else {@code ~/.sluice_history}. */
    public static Path historyFile(Map<String, String> environment) {
        String named = environment.get("SLUICE_HISTORY");
        if (named != null && !named.isBlank()) {
            return Path.of(named);
        }
        return Path.of(System.getProperty("user.home"), ".sluice_history");
    }

    /** Reads and runs entries until Ctrl-D. */
    public void run() throws IOException {
        try (Terminal terminal = TerminalBuilder.builder().name("sluice").system(true).build()) {
            PrintWriter out = terminal.writer();
            StatementRunner runner = new StatementRunner(session, progress ? out : null);
            ResultPrinter printer = new ResultPrinter(format, null, out, out);
            AtomicReference<SqlDialect> dialect = new AtomicReference<>(SqlDialect.SPARK);
            CatalogNames names = new CatalogNames(sql -> QueryResult.fromIpc(runner.query(sql)));
            LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("sluice")
                    .parser(new SqlLineParser(dialect::get))
                    .completer(new SqlCompleter(names))
                    .variable(LineReader.HISTORY_FILE, history)
                    .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION)
                    // '!' is SQL ('!='), not a history event
                    .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                    .option(LineReader.Option.CASE_INSENSITIVE, true)
                    .build();
            // outside readLine (which handles Ctrl-C itself), Ctrl-C cancels the running statement
            terminal.handle(Terminal.Signal.INT, signal -> runner.cancel());
            out.println("Sluice SQL shell. End statements with ';'. Ctrl-C cancels a running query, Ctrl-D leaves.");
            out.flush();
            while (true) {
                String entry;
                try {
                    entry = reader.readLine(PROMPT);
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                if (!runEntry(entry, dialect, runner, printer, names, out)) {
                    break;
                }
            }
            reader.getHistory().save();
        }
    }

    /** Runs an entry's statements until one fails; false when one of them is {@code exit} or {@code quit}. */
    private static boolean runEntry(String entry, AtomicReference<SqlDialect> dialect, StatementRunner runner,
            ResultPrinter printer, CatalogNames names, PrintWriter out) {
        for (Statement statement : SqlStatements.split(entry, dialect.get())) {
            if (LEAVE.contains(statement.text().toLowerCase(Locale.ROOT))) {
                return false;
            }
            boolean ok = run(statement.text(), runner, printer, out);
            names.forget();
            if (ok) {
                dialect.set(SqlFrontEnd.dialectAfter(statement.text(), dialect.get()));
            }
            if (!ok) {
                break;
            }
        }
        return true;
    }

    /** Runs one statement and prints its result, or its error; false when it failed or was cancelled. */
    private static boolean run(String statement, StatementRunner runner, ResultPrinter printer, PrintWriter out) {
        StatementKind kind = StatementKind.of(statement);
        long start = System.nanoTime();
        try {
            byte[] result = runner.run(statement, kind);
            printer.print(kind, result, Duration.ofNanos(System.nanoTime() - start));
            return true;
        } catch (RuntimeException e) {
            double seconds = (System.nanoTime() - start) / 1e9;
            out.println(runner.cancelled()
                    ? String.format(Locale.ROOT, "query cancelled (%.2f s)", seconds)
                    : "error: " + ErrorText.message(e));
            out.flush();
            return false;
        }
    }
}
