package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryExpr;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Limits on what one statement may ask, so that careless or hostile input gets a clean "query too
 * complex" (or "too long") error instead of exhausting a thread's stack or the heap: the text's
 * length, its parenthesis nesting (checked before Calcite's recursive parser sees it) and the
 * nesting of the planned expressions and nodes (checked without recursion). The limits are far
 * above what people write: TPC-H nests parentheses 5 deep and expressions about 12.
 */
public final class QueryLimits {
    public static final int MAX_SQL_CHARS = 1 << 20;
    public static final int MAX_PARENTHESES = 128;
    /** Expressions inside each other, and plan nodes above each other, counted together. */
    public static final int MAX_DEPTH = 256;

    private QueryLimits() {
    }

    /** Checks a statement's (or script's) text before it is parsed. */
    public static void checkText(String sql) {
        if (sql.length() > MAX_SQL_CHARS) {
            throw new SluiceException("SQL text of " + sql.length() + " characters exceeds the limit of "
                    + MAX_SQL_CHARS);
        }
        int depth = 0;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int close = sql.indexOf(c, i + 1);
                i = close < 0 ? n : close + 1; // a doubled quote reads as close-and-reopen: same result
                continue;
            }
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
                continue;
            }
            if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                continue;
            }
            if (c == '(' && ++depth > MAX_PARENTHESES) {
                throw tooComplex("parentheses nest more than " + MAX_PARENTHESES + " deep");
            } else if (c == ')') {
                depth--;
            }
            i++;
        }
    }

    /** Checks a planned statement: nodes and expressions (subqueries included) nest at most {@link #MAX_DEPTH}. */
    public static void checkPlan(LogicalPlan plan) {
        if (plan == null) {
            return;
        }
        Deque<Object> pending = new ArrayDeque<>();
        Deque<Integer> depths = new ArrayDeque<>();
        pending.push(plan);
        depths.push(1);
        while (!pending.isEmpty()) {
            Object item = pending.pop();
            int depth = depths.pop();
            if (depth > MAX_DEPTH) {
                throw tooComplex("expressions and plan nodes nest more than " + MAX_DEPTH + " deep");
            }
            if (item instanceof LogicalPlan p) {
                for (LogicalPlan child : p.children()) {
                    pending.push(child);
                    depths.push(depth + 1);
                }
                for (Expr e : p.expressions()) {
                    pending.push(e);
                    depths.push(depth + 1);
                }
            } else if (item instanceof Expr e) {
                for (Expr child : e.children()) {
                    pending.push(child);
                    depths.push(depth + 1);
                }
                if (e instanceof SubqueryExpr s) {
                    pending.push(s.subquery());
                    depths.push(depth + 1);
                }
            }
        }
    }

    /** The error for a statement past a limit, or one whose processing ran out of stack. */
    public static SluiceException tooComplex(String why) {
        return new SluiceException("query too complex: " + why);
    }
}
