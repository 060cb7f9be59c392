package io.sluice.cli.shell;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Tab completion: SQL keywords, the session's tables, and the columns of the tables the text names.
 * Names come from {@link CatalogNames}; when the engine cannot be asked, keywords are still offered.
 */
final class SqlCompleter implements Completer {
    static final List<String> KEYWORDS = List.of("ADD", "ALL", "ALTER", "ANALYZE", "AND", "AS", "ASC", "BETWEEN", "BY",
            "CASE", "CAST", "COLUMNS", "COMPUTE", "CREATE", "CROSS", "CSV", "DATABASE", "DELETE", "DESC", "DESCRIBE",
            "DISTINCT", "DROP", "ELSE", "END", "EXCEPT", "EXISTS", "EXPLAIN", "EXTERNAL", "FALSE", "FIRST", "FROM",
            "FULL", "FUNCTIONS", "GROUP", "HAVING", "IF", "IN", "INNER", "INSERT", "INTERSECT", "INTO", "IS", "JOIN",
            "JSON", "LAST", "LEFT", "LIKE", "LIMIT", "LOCATION", "NOT", "NULL", "NULLS", "OFFSET", "ON", "OPTIONS", "OR",
            "ORDER", "OUTER", "OVER", "OVERWRITE", "PARQUET", "PARTITION", "PARTITIONED", "RESET", "RIGHT", "SELECT",
            "SET", "SHOW", "STATISTICS", "STORED", "TABLE", "TABLES", "THEN", "TRUE", "UNION", "USE", "USING",
            "VALUES", "VIEW", "WHEN", "WHERE", "WINDOW", "WITH");

    private final CatalogNames names;

    SqlCompleter(CatalogNames names) {
        this.names = requireNonNull(names, "names is null");
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        for (String keyword : KEYWORDS) {
            candidates.add(candidate(keyword, "keyword"));
        }
        List<String> tables;
        try {
            tables = names.tables();
        } catch (RuntimeException e) {
            return; // the engine cannot answer now: keywords only
        }
        tables.forEach(t -> candidates.add(candidate(t, "table")));
        for (String table : named(line.line(), tables)) {
            try {
                names.columns(table).forEach(c -> candidates.add(candidate(c, "column of " + table)));
            } catch (RuntimeException e) {
                // this table's columns cannot be had now: offer the rest
            }
        }
    }

    /** The tables among {@code tables} that {@code text} names, each once. */
    static Set<String> named(String text, List<String> tables) {
        Set<String> words = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= text.length(); i++) {
            if (i < text.length() && SqlLineParser.identifierPart(text.charAt(i))) {
                word.append(text.charAt(i));
            } else if (!word.isEmpty()) {
                words.add(word.toString().toLowerCase(Locale.ROOT));
                word.setLength(0);
            }
        }
        Set<String> out = new LinkedHashSet<>();
        for (String table : tables) {
            if (words.contains(table.toLowerCase(Locale.ROOT))) {
                out.add(table);
            }
        }
        return out;
    }

    private static Candidate candidate(String value, String group) {
        return new Candidate(value, value, group, null, null, null, true);
    }
}
