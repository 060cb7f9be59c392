package io.sluice.sql;

import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.function.FunctionInfo;
import io.sluice.logical.function.FunctionLibrary;
import io.sluice.logical.plan.Generate;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code SHOW [SYSTEM|ALL] FUNCTIONS [[LIKE] 'pattern']} and {@code DESCRIBE FUNCTION [EXTENDED] name},
 * as Spark answers them: the first one row per function name (aliases included), column
 * {@code function}, sorted; the second rows of text in column {@code function_desc}. A pattern is
 * Spark's: {@code *} any characters, {@code |} between alternatives ({@code %} also matches any
 * characters), case-insensitive.
 */
final class FunctionStatements {
    private static final Pattern SHOW = Pattern.compile(
            "(?is)SHOW\\s+(?:SYSTEM\\s+|ALL\\s+)?FUNCTIONS(?:\\s+(?:LIKE\\s+)?'(?<pattern>(?:[^']|'')*)')?\\s*;?\\s*");
    private static final Pattern DESCRIBE = Pattern.compile(
            "(?is)(?:DESCRIBE|DESC)\\s+FUNCTION\\s+(?<extended>EXTENDED\\s+)?(?<name>[A-Za-z_][A-Za-z0-9_]*|`[^`]+`|\"[^\"]+\")\\s*;?\\s*");

    private FunctionStatements() {
    }

    /** The statement {@code text} (from {@code start}) is, if it is one of these; else null. */
    static Statement parse(String text, int start) {
        Matcher show = SHOW.matcher(text).region(start, text.length());
        if (show.matches()) {
            String pattern = show.group("pattern");
            return new Statement.Query(show(pattern == null ? null : pattern.replace("''", "'")));
        }
        Matcher describe = DESCRIBE.matcher(text).region(start, text.length());
        if (describe.matches()) {
            String name = describe.group("name");
            // a backtick name arrives double-quoted (SparkSyntax rewrote it for Calcite)
            boolean quoted = name.startsWith("`") || name.startsWith("\"");
            return new Statement.Query(describe(quoted ? name.substring(1, name.length() - 1) : name));
        }
        return null;
    }

    private static LogicalPlan show(String pattern) {
        Pattern matcher = pattern == null ? null : Pattern.compile(regex(pattern), Pattern.CASE_INSENSITIVE);
        TreeSet<String> names = new TreeSet<>();
        for (FunctionInfo f : FunctionLibrary.builtIn().functions()) {
            names.add(f.name());
            names.addAll(f.aliases());
        }
        List<String> rows = new ArrayList<>();
        for (String name : names) {
            if (matcher == null || matcher.matcher(name).matches()) {
                rows.add(name);
            }
        }
        return textRows("function", rows);
    }

    /** A Spark function-name pattern as a regular expression. */
    private static String regex(String pattern) {
        StringBuilder out = new StringBuilder();
        for (String alternative : pattern.strip().split("\\|")) {
            out.append(out.length() == 0 ? "" : "|").append("(?:");
            for (char c : alternative.strip().toCharArray()) {
                out.append(c == '*' || c == '%' ? ".*" : Pattern.quote(String.valueOf(c)));
            }
            out.append(')');
        }
        return out.toString();
    }

    private static LogicalPlan describe(String name) {
        FunctionInfo f = FunctionLibrary.builtIn().describe(name);
        List<String> rows = new ArrayList<>();
        rows.add("Function: " + f.name());
        if (!f.aliases().isEmpty()) {
            rows.add("Aliases: " + String.join(", ", f.aliases()));
        }
        rows.add("Kind: " + f.kind().name().toLowerCase(Locale.ROOT));
        rows.add("Usage: " + f.usage() + " - " + f.description());
        return textRows("function_desc", rows);
    }

    /**
     * One text column of the given rows, in order: one array exploded, so that hundreds of rows are
     * one small plan rather than a union of hundreds of one-row branches.
     */
    private static LogicalPlan textRows(String column, List<String> values) {
        if (values.isEmpty()) {
            return QueryTranslator.constantRows(List.of(column), List.of());
        }
        List<Expr> literals = new ArrayList<>(values.size());
        values.forEach(v -> literals.add(Literal.of(v)));
        LogicalPlan rows = new Generate(QueryTranslator.oneRow(), new ScalarFunction(ScalarFunction.Function.ARRAY, literals),
                false, List.of(column));
        return new Projection(rows, List.of(new Column(column)));
    }
}
