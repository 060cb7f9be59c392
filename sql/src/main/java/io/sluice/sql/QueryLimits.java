package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryExpr;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
    /** Distinct plan nodes and expressions of one statement (a WITH query read twice counts once). */
    public static final int MAX_NODES = 50_000;

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
            int skipped = SqlLexemes.skipLexeme(sql, i, SqlDialect.SPARK);
            if (skipped > i) {
                i = skipped;
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

    /**
     * Checks a planned statement: nodes and expressions (subqueries included) nest at most {@link
     * #MAX_DEPTH}, and there are at most {@link #MAX_NODES} distinct ones. A node shared by several
     * parents (a WITH query read twice) counts once, as every later step plans it once: the
     * optimizer's and the physical planner's walks and the stage cutter visit a shared node once
     * (the stage cutter refuses a stage whose tasks would run a shared operator too many times).
     * The walk here visits each shared node once too.
     */
    public static void checkPlan(LogicalPlan plan) {
        if (plan == null) {
            return;
        }
        Map<Object, Long> done = new IdentityHashMap<>(); // the height of each item
        Deque<Object> pending = new ArrayDeque<>();
        Set<Object> opened = Collections.newSetFromMap(new IdentityHashMap<>());
        pending.push(plan);
        while (!pending.isEmpty()) {
            Object item = pending.peek();
            if (done.containsKey(item)) {
                pending.pop();
                continue;
            }
            List<Object> parts = parts(item);
            if (opened.add(item)) {
                parts.forEach(pending::push);
                continue;
            }
            pending.pop();
            long height = 0;
            for (Object part : parts) {
                height = Math.max(height, done.get(part));
            }
            if (height + 1 > MAX_DEPTH) {
                throw tooComplex("expressions and plan nodes nest more than " + MAX_DEPTH + " deep");
            }
            done.put(item, height + 1);
            if (done.size() > MAX_NODES) {
                throw tooComplex("the plan has more than " + MAX_NODES + " distinct nodes and expressions");
            }
        }
    }

    /** The plans and expressions directly below {@code item}. */
    private static List<Object> parts(Object item) {
        List<Object> parts = new ArrayList<>();
        if (item instanceof LogicalPlan p) {
            parts.addAll(p.children());
            parts.addAll(p.expressions());
        } else if (item instanceof Expr e) {
            parts.addAll(e.children());
            if (e instanceof SubqueryExpr s) {
                parts.add(s.subquery());
            }
        }
        return parts;
    }

    /** The error for a statement past a limit, or one whose processing ran out of stack. */
    public static SluiceException tooComplex(String why) {
        return new SluiceException("query too complex: " + why);
    }
}
