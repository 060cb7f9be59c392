package io.sluice.logical.plan;

import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.WindowCall;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Plans the window calls of a select list (and its QUALIFY and ORDER BY; or of a DataFrame
 * selection) as {@link Window} nodes over the query's input (after grouping, when there is one),
 * then re-expresses those expressions over the windows' output columns.
 *
 * <p>Calls sharing PARTITION BY and ORDER BY share a node. Nodes are stacked with the longest sort
 * (partition keys then order keys) lowest, so a window whose keys are a prefix of another's sits
 * above it and finds its input already partitioned and sorted: no second exchange or sort.
 */
public final class WindowPlanner {
    private final LogicalPlan plan;
    private final Map<WindowCall, String> columns;

    private WindowPlanner(LogicalPlan plan, Map<WindowCall, String> columns) {
        this.plan = plan;
        this.columns = columns;
    }

    public static boolean any(List<Expr> exprs) {
        return exprs.stream().anyMatch(Exprs::containsWindow);
    }

    /** Window nodes over {@code input} computing every window call in {@code exprs}. */
    public static WindowPlanner plan(LogicalPlan input, List<Expr> exprs) {
        Set<WindowCall> calls = new LinkedHashSet<>();
        for (Expr e : exprs) {
            collect(e, calls);
        }
        Map<List<Object>, List<WindowCall>> groups = new LinkedHashMap<>();
        for (WindowCall call : calls) {
            groups.computeIfAbsent(List.of(call.partitionBy(), call.orderBy()), k -> new ArrayList<>()).add(call);
        }
        List<List<WindowCall>> ordered = new ArrayList<>(groups.values());
        ordered.sort(Comparator.comparingInt((List<WindowCall> g) -> sortLength(g.get(0))).reversed());
        Set<String> taken = new HashSet<>();
        input.schema().names().forEach(n -> taken.add(n.toLowerCase(Locale.ROOT)));
        Map<WindowCall, String> columns = new HashMap<>();
        LogicalPlan plan = input;
        for (List<WindowCall> group : ordered) {
            List<Expr> windowExprs = new ArrayList<>();
            for (WindowCall call : group) {
                String name = call.name();
                for (int i = 1; taken.contains(name.toLowerCase(Locale.ROOT)); i++) {
                    name = "__window_" + i;
                }
                taken.add(name.toLowerCase(Locale.ROOT));
                columns.put(call, name);
                windowExprs.add(name.equals(call.name()) ? call : new Alias(call, name));
            }
            plan = new Window(plan, windowExprs);
        }
        return new WindowPlanner(plan, columns);
    }

    private static int sortLength(WindowCall call) {
        List<SortKey> order = call.orderBy();
        return call.partitionBy().size() + order.size();
    }

    private static void collect(Expr e, Set<WindowCall> out) {
        if (e instanceof WindowCall call) {
            out.add(call);
            return;
        }
        for (Expr child : e.children()) {
            collect(child, out);
        }
    }

    public LogicalPlan plan() {
        return plan;
    }

    /** {@code e} with each window call replaced by the column computing it. */
    public Expr rewrite(Expr e) {
        return Exprs.transformUp(e, x -> x instanceof WindowCall call ? new Column(columns.get(call)) : x);
    }
}
