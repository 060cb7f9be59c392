package io.sluice.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Generates random queries with nested, correlated subqueries over three small tables
 * {@code r(a, b, c)}, {@code s(a, b, c)} and {@code w(a, b)} of small integers with NULLs: EXISTS,
 * NOT EXISTS, [NOT] IN, ANY/ALL and scalar subqueries in WHERE (under AND, OR, NOT), in the select
 * list (also inside CASE), in HAVING and in a join's ON condition; correlated by equalities and by
 * other comparisons, to the enclosing query or one further out, with outer references in the
 * subquery's WHERE, select list, aggregate arguments, below a join and under GROUP BY; subqueries
 * with ORDER BY ... LIMIT/OFFSET, window functions over a correlated input, and correlated inputs
 * of left and right outer joins.
 *
 * <p>DuckDB refuses a correlated preserved input of a right join: {@link #duckQuery()} is the query
 * last generated spelled for DuckDB, each such right join written as the left join it equals.
 */
final class RandomSubqueryGenerator {
    static final String[] TABLES = {"r", "s", "w"};
    private static final String[] OPS = {"=", "<>", "<", "<=", ">", ">="};
    private static final String[] AGGREGATES = {"count(*)", "count(%s)", "sum(%s)", "min(%s)", "max(%s)"};

    /** A relation in scope: its alias and columns. */
    private record Scope(String alias, List<String> columns) {
        String column(Random random) {
            return alias + "." + columns.get(random.nextInt(columns.size()));
        }
    }

    private final Random random;
    private int aliases;
    /** Right joins of the query being generated: marker -> {Sluice text, DuckDB text}. */
    private final Map<String, String[]> spellings = new LinkedHashMap<>();
    private String duck;

    RandomSubqueryGenerator(long seed) {
        this.random = new Random(seed);
    }

    /** The rows of one table as a DuckDB query: {@code rows} rows of values 0..4, about a fifth NULL. */
    String tableQuery(String table) {
        int columns = table.equals("w") ? 2 : 3;
        int rows = 5 + random.nextInt(8);
        StringBuilder out = new StringBuilder("SELECT * FROM (VALUES ");
        for (int i = 0; i < rows; i++) {
            out.append(i == 0 ? "(" : ", (");
            for (int c = 0; c < columns; c++) {
                out.append(c == 0 ? "" : ", ").append(random.nextInt(5) == 0 ? "NULL" : "CAST(" + random.nextInt(5) + " AS BIGINT)");
            }
            out.append(')');
        }
        return out.append(") AS v (").append(columns == 2 ? "a, b" : "a, b, c").append(')').toString();
    }

    private static List<String> columnsOf(String table) {
        return table.equals("w") ? List.of("a", "b") : List.of("a", "b", "c");
    }

    private String table() {
        return TABLES[random.nextInt(TABLES.length)];
    }

    /** A random query for Sluice; {@link #duckQuery()} then gives the same query for DuckDB. */
    String query() {
        spellings.clear();
        String q = generate();
        String sluice = q;
        duck = q;
        // Markers may nest (a derived table holding another): resolve the latest first, repeatedly.
        List<String> markers = new ArrayList<>(spellings.keySet());
        for (int i = markers.size() - 1; i >= 0; i--) {
            String[] texts = spellings.get(markers.get(i));
            sluice = sluice.replace(markers.get(i), texts[0]);
            duck = duck.replace(markers.get(i), texts[1]);
        }
        return sluice;
    }

    /** The last query {@link #query()} made, as DuckDB accepts it. */
    String duckQuery() {
        return duck;
    }

    private String generate() {
        aliases = 0;
        String table = table();
        return switch (random.nextInt(6)) {
            case 0 -> { // HAVING: only the grouping column is in scope
                List<Scope> scopes = List.of(new Scope("o", List.of("a")));
                yield "SELECT o.a, count(*) FROM " + table + " AS o GROUP BY o.a HAVING " + bool(scopes, 0);
            }
            case 1 -> { // a join's ON condition
                String other = table();
                List<Scope> scopes = List.of(new Scope("o", columnsOf(table)), new Scope("p", columnsOf(other)));
                yield "SELECT o.a, o.b, p.b FROM " + table + " AS o JOIN " + other + " AS p ON o.a = p.a AND "
                        + bool(scopes, 0);
            }
            case 2 -> { // the select list
                List<Scope> scopes = List.of(new Scope("o", columnsOf(table)));
                yield "SELECT o.a, o.b, " + value(scopes, 0) + " AS x FROM " + table + " AS o";
            }
            default -> { // WHERE, maybe with a value in the select list too
                List<Scope> scopes = List.of(new Scope("o", columnsOf(table)));
                String select = random.nextInt(4) == 0 ? ", " + value(scopes, 0) + " AS x" : "";
                yield "SELECT o.a, o.b" + select + " FROM " + table + " AS o WHERE " + bool(scopes, 0);
            }
        };
    }

    /**
     * {@code sql} with every {@code [NOT] EXISTS (q)} spelled {@code (SELECT count(*) FROM (q)) > 0}
     * ({@code = 0}): the same query, which DuckDB plans differently. Rewrites the last EXISTS first,
     * so each one rewritten holds no other.
     */
    static String existsAsCount(String sql) {
        String out = sql;
        for (int at = out.lastIndexOf("EXISTS ("); at >= 0; at = out.lastIndexOf("EXISTS (", at - 1)) {
            int open = at + "EXISTS ".length();
            int close = matching(out, open);
            boolean not = at >= 4 && out.startsWith("NOT ", at - 4);
            int from = not ? at - 4 : at;
            String body = out.substring(open + 1, close);
            out = out.substring(0, from) + "((SELECT count(*) FROM (" + body + ") AS ex) " + (not ? "= 0" : "> 0") + ")"
                    + out.substring(close + 1);
            if (from == 0) {
                break;
            }
            at = from;
        }
        return out;
    }

    private static int matching(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced parentheses in " + s);
    }

    private String column(List<Scope> scopes) {
        // Mostly the nearest scope, sometimes one further out.
        Scope s = random.nextInt(3) == 0 ? scopes.get(random.nextInt(scopes.size())) : scopes.get(scopes.size() - 1);
        return s.column(random);
    }

    private String op() {
        return OPS[random.nextInt(OPS.length)];
    }

    private String simple(List<Scope> scopes) {
        return switch (random.nextInt(3)) {
            case 0 -> column(scopes) + " " + op() + " " + random.nextInt(5);
            case 1 -> column(scopes) + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            default -> column(scopes) + " " + op() + " " + column(scopes);
        };
    }

    String bool(List<Scope> scopes, int depth) {
        if (depth >= 2 || random.nextInt(6) == 0) {
            return simple(scopes);
        }
        return switch (random.nextInt(11)) {
            case 0, 1 -> "EXISTS (" + subquery(scopes, depth, "1") + ")";
            case 2 -> "NOT EXISTS (" + subquery(scopes, depth, "1") + ")";
            case 3 -> column(scopes) + " IN (" + subquery(scopes, depth, null) + ")";
            case 4 -> column(scopes) + " NOT IN (" + subquery(scopes, depth, null) + ")";
            case 5 -> column(scopes) + " " + op() + (random.nextBoolean() ? " ANY (" : " ALL (")
                    + subquery(scopes, depth, null) + ")";
            case 6 -> column(scopes) + " " + op() + " " + scalar(scopes, depth);
            case 7 -> "(" + bool(scopes, depth + 1) + " OR " + bool(scopes, depth + 1) + ")";
            case 8 -> "(" + bool(scopes, depth + 1) + " AND " + bool(scopes, depth + 1) + ")";
            case 9 -> "NOT (" + bool(scopes, depth + 1) + ")";
            default -> "(" + simple(scopes) + " OR " + bool(scopes, depth + 1) + ")";
        };
    }

    private String value(List<Scope> scopes, int depth) {
        return switch (random.nextInt(4)) {
            case 0 -> scalar(scopes, depth);
            case 1 -> "CASE WHEN " + bool(scopes, depth) + " THEN 'y' ELSE 'n' END";
            case 2 -> "coalesce(" + scalar(scopes, depth) + ", -1) + 1";
            default -> bool(scopes, depth);
        };
    }

    /** A scalar subquery: an aggregate over a correlated subquery body, sometimes through a derived table. */
    private String scalar(List<Scope> scopes, int depth) {
        if (random.nextInt(6) == 0) {
            // a global aggregate over a grouped, correlated derived table
            String inner = subquery(scopes, depth, "g");
            return "(SELECT max(x.g) FROM (" + inner + ") AS x)";
        }
        return "(" + subquery(scopes, depth, "agg") + ")";
    }

    /**
     * A subquery whose WHERE mostly correlates it with {@code scopes}: selecting {@code "1"}, an
     * aggregate ({@code "agg"}), a grouped count named g ({@code "g"}), or one column (null).
     */
    private String subquery(List<Scope> scopes, int depth, String select) {
        String table = table();
        String alias = "i" + (++aliases);
        Scope inner = new Scope(alias, columnsOf(table));
        StringBuilder from = new StringBuilder(table + " AS " + alias);
        List<Scope> here = new ArrayList<>(scopes);
        here.add(inner);
        int shape = random.nextInt(10);
        if (shape == 0) {
            // an outer join with a correlated derived table: left join (its preserved input), or
            // right join (its preserved input; DuckDB gets the equal left join)
            String other = table();
            String j = "j" + (++aliases);
            String derived = "(SELECT * FROM " + other + " AS d" + j + " WHERE d" + j + ".b " + (random.nextBoolean() ? "=" : op())
                    + " " + column(scopes) + ") AS " + j;
            String on = alias + ".a = " + j + ".a";
            String marker = "__join" + spellings.size() + "__";
            if (random.nextBoolean()) {
                String text = derived + " LEFT JOIN " + table + " AS " + alias + " ON " + on;
                spellings.put(marker, new String[] {text, text});
            } else {
                spellings.put(marker, new String[] {table + " AS " + alias + " RIGHT JOIN " + derived + " ON " + on,
                        derived + " LEFT JOIN " + table + " AS " + alias + " ON " + on});
            }
            from = new StringBuilder(marker);
            here.add(new Scope(j, columnsOf(other)));
        } else if (shape <= 2) {
            String other = table();
            String j = "j" + (++aliases);
            from.append(" JOIN ").append(other).append(" AS ").append(j).append(" ON ").append(alias).append(".a = ")
                    .append(j).append(".a");
            if (random.nextBoolean()) {
                // an outer reference in the join condition
                from.append(" AND ").append(j).append(".b ").append(op()).append(' ').append(column(scopes));
            }
            here.add(new Scope(j, columnsOf(other)));
        }
        List<String> where = new ArrayList<>();
        int correlations = random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(2); // sometimes uncorrelated
        for (int i = 0; i < correlations; i++) {
            String outer = column(scopes);
            String mine = inner.column(random);
            where.add(random.nextInt(3) == 0 ? mine + " " + op() + " " + outer : mine + " = " + outer);
        }
        if (random.nextInt(3) == 0) {
            where.add(simple(List.of(inner)));
        }
        if (depth < 2 && random.nextInt(4) == 0) {
            where.add(bool(here, depth + 1));
        }
        String body = " FROM " + from + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where));
        String column = inner.column(random);
        String nulls = random.nextBoolean() ? " NULLS FIRST" : " NULLS LAST";
        if ("1".equals(select)) {
            if (random.nextInt(4) == 0) {
                // only the number of rows matters: LIMIT and OFFSET with an order that may tie
                return "SELECT 1" + body + " ORDER BY " + column + nulls + " LIMIT " + random.nextInt(3)
                        + (random.nextBoolean() ? " OFFSET " + random.nextInt(3) : "");
            }
            return "SELECT 1" + body;
        }
        if ("agg".equals(select)) {
            switch (random.nextInt(6)) {
                case 0 -> { // the first value in an order: one row at most, whichever of ties
                    return "SELECT " + column + body + " ORDER BY " + column + (random.nextBoolean() ? " DESC" : "") + nulls
                            + " LIMIT 1" + (random.nextInt(3) == 0 ? " OFFSET 1" : "");
                }
                case 1 -> { // an aggregate over a window over the correlated rows
                    return "SELECT max(x.r) FROM (SELECT " + window(inner) + " AS r" + body + ") AS x";
                }
                case 2 -> { // an aggregate over the first rows in an order (the order decides the set of values)
                    return "SELECT " + (random.nextBoolean() ? "count(*)" : "sum(x.c)") + " FROM (SELECT " + column + " AS c" + body
                            + " ORDER BY " + column + nulls + " LIMIT " + (1 + random.nextInt(3)) + ") AS x";
                }
                default -> {
                    // below
                }
            }
            String agg = String.format(AGGREGATES[random.nextInt(AGGREGATES.length)],
                    random.nextInt(5) == 0 ? column + " + " + column(scopes) : column);
            return "SELECT " + agg + body;
        }
        if ("g".equals(select)) {
            return "SELECT " + column + " AS gk, count(*) AS g" + body + " GROUP BY " + column;
        }
        return switch (random.nextInt(8)) {
            case 0 -> "SELECT " + column + " + " + column(scopes) + body; // an outer reference in the select list
            case 5, 7 -> "SELECT " + window(inner) + body; // a window over the correlated rows
            case 6 -> "SELECT " + column + body + " ORDER BY " + column + nulls + " LIMIT " + (1 + random.nextInt(3))
                    + (random.nextBoolean() ? " OFFSET 1" : ""); // the values decide, not which tied row
            case 1 -> "SELECT DISTINCT " + column + body;
            default -> "SELECT " + column + body;
        };
    }

    /** A window function whose value does not depend on how ties are ordered. */
    private String window(Scope inner) {
        String c = inner.column(random);
        String d = inner.column(random);
        return switch (random.nextInt(5)) {
            case 0 -> "rank() OVER (ORDER BY " + c + ")";
            case 1 -> "count(*) OVER (PARTITION BY " + c + ")";
            case 2 -> "sum(" + c + ") OVER (PARTITION BY " + d + ")";
            case 3 -> "dense_rank() OVER (PARTITION BY " + d + " ORDER BY " + c + " DESC)";
            default -> "max(" + c + ") OVER (ORDER BY " + d + ")";
        };
    }
}
