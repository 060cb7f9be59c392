package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.plan.Generate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Hive's and Spark's {@code LATERAL VIEW [OUTER] explode(e) t [AS] c [, ...]}, which Calcite does not
 * parse, rewritten in the text before parsing to the standard join it means:
 * {@code CROSS JOIN UNNEST(e) AS t(c, ...)}, or with OUTER (or {@code explode_outer})
 * {@code LEFT JOIN UNNEST(e) AS t(c, ...) ON TRUE}; {@code posexplode} and {@code inline} stay
 * inside the UNNEST ({@code UNNEST(posexplode(e))}), which {@link Unnests#call} reads. It reads text already rewritten by {@link SparkSyntax}
 * (Spark's backslash escapes decoded), whose quoted strings and names are skipped; the rest of
 * the text is unchanged, so positions before the first LATERAL VIEW stay where they were.
 */
final class LateralViews {
    /** Words that end a LATERAL VIEW's column list when no AS introduces it. */
    private static final Set<String> CLAUSES = Set.of("WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "LATERAL",
            "JOIN", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "UNION", "EXCEPT", "INTERSECT", "WINDOW", "ON", "FETCH",
            "CLUSTER", "DISTRIBUTE", "SORT", "QUALIFY", "NATURAL", "USING", "MINUS", "ANTI", "SEMI");

    private LateralViews() {
    }

    static String rewrite(String sql) {
        StringBuilder out = null;
        int copied = 0;
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (SqlLexemes.isQuote(c)) {
                i = skipQuoted(sql, i);
                continue;
            }
            if (startsWord(sql, i, "LATERAL")) {
                int view = skipSpaces(sql, i + "LATERAL".length());
                if (view > i + "LATERAL".length() && startsWord(sql, view, "VIEW")) {
                    int[] end = new int[1];
                    String join = parseView(sql, skipSpaces(sql, view + "VIEW".length()), end);
                    if (out == null) {
                        out = new StringBuilder();
                    }
                    out.append(sql, copied, i).append(join);
                    copied = end[0];
                    i = end[0];
                    continue;
                }
            }
            i++;
        }
        return out == null ? sql : out.append(sql.substring(copied)).toString();
    }

    /** The join for one LATERAL VIEW whose text starts at {@code at} (after VIEW); {@code end[0]} gets where it ends. */
    private static String parseView(String sql, int at, int[] end) {
        boolean outer = false;
        if (startsWord(sql, at, "OUTER")) {
            outer = true;
            at = skipSpaces(sql, at + "OUTER".length());
        }
        int nameEnd = CalciteParser.wordEnd(sql, at);
        String function = sql.substring(at, nameEnd).toLowerCase(Locale.ROOT);
        if (Generate.Function.named(function) == null) {
            throw new SluiceException("LATERAL VIEW supports explode, posexplode and inline (and their _outer forms), not '"
                    + sql.substring(at, nameEnd) + "'");
        }
        outer |= Generate.Function.isOuter(function);
        boolean explode = Generate.Function.named(function) == Generate.Function.EXPLODE;
        int open = skipSpaces(sql, nameEnd);
        if (open >= sql.length() || sql.charAt(open) != '(') {
            throw new SluiceException("LATERAL VIEW " + function + " needs its argument in parentheses");
        }
        int close = matchingParenthesis(sql, open);
        String argument = sql.substring(open + 1, close);
        int next = skipSpaces(sql, close + 1);
        int aliasEnd = CalciteParser.wordEnd(sql, next);
        if (aliasEnd == next || isClause(sql, next, aliasEnd)) {
            throw new SluiceException("LATERAL VIEW " + function + "(" + argument + ") needs a table alias");
        }
        String alias = sql.substring(next, aliasEnd);
        end[0] = aliasEnd;
        List<String> columns = new ArrayList<>();
        int cursor = skipSpaces(sql, aliasEnd);
        boolean as = startsWord(sql, cursor, "AS");
        if (as) {
            cursor = skipSpaces(sql, cursor + 2);
        }
        while (true) {
            int wordEnd = CalciteParser.wordEnd(sql, cursor);
            if (wordEnd == cursor || (!as && isClause(sql, cursor, wordEnd))) {
                break;
            }
            columns.add(sql.substring(cursor, wordEnd));
            end[0] = wordEnd;
            int comma = skipSpaces(sql, wordEnd);
            if (comma >= sql.length() || sql.charAt(comma) != ',') {
                break;
            }
            cursor = skipSpaces(sql, comma + 1);
        }
        String generator = explode ? argument : Generate.Function.named(function).sqlName() + "(" + argument + ")";
        String relation = "UNNEST(" + generator + ") AS " + alias + (columns.isEmpty() ? "" : "(" + String.join(", ", columns) + ")");
        return outer ? "LEFT JOIN " + relation + " ON TRUE" : "CROSS JOIN " + relation;
    }

    private static boolean isClause(String sql, int from, int to) {
        return endsRelation(sql.substring(from, to));
    }

    /** Whether {@code word} is a keyword that may follow a relation in FROM (so it is not the relation's alias). */
    static boolean endsRelation(String word) {
        return CLAUSES.contains(word.toUpperCase(Locale.ROOT));
    }

    private static int matchingParenthesis(String sql, int open) {
        int depth = 0;
        int i = open;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (SqlLexemes.isQuote(c)) {
                i = skipQuoted(sql, i);
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
            i++;
        }
        throw new SluiceException("LATERAL VIEW: unbalanced parentheses");
    }

    /** Where the quoted text at {@code at} of text rewritten for Calcite ends (no backslash escapes are left in it). */
    static int skipQuoted(String sql, int at) {
        return SqlLexemes.quotedEnd(sql, at, SqlDialect.ANSI);
    }

    static int skipSpaces(String sql, int at) {
        while (at < sql.length() && Character.isWhitespace(sql.charAt(at))) {
            at++;
        }
        return at;
    }

    private static boolean startsWord(String sql, int at, String word) {
        return sql.regionMatches(true, at, word, 0, word.length()) && (at == 0 || !isWordChar(sql.charAt(at - 1)))
                && (at + word.length() >= sql.length() || !isWordChar(sql.charAt(at + word.length())));
    }

    static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }
}
