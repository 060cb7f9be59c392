package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.Generate;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.WindowPlanner;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans a DataFrame's select list: an {@code explode} as a {@link Generate} below the projection, its
 * new columns in its place; window functions ({@code Column.over}) computed by window nodes first.
 */
final class SelectPlanner {
    private SelectPlanner() {
    }

    static Projection projection(LogicalPlan plan, List<Expr> exprs) {
        LogicalPlan input = plan;
        int generator = generatorIndex(exprs);
        if (generator >= 0) {
            Expr item = exprs.get(generator);
            ExplodeCall call = (ExplodeCall) Exprs.unalias(item);
            List<String> names = Generate.generatedFields(call.function(), call.input(), input.schema()).stream()
                    .map(Field::name).toList();
            if (item instanceof Alias a) {
                if (names.size() != 1) {
                    throw new SluiceException(call + " makes " + names.size() + " columns " + names + "; alias() names one");
                }
                names = List.of(a.alias());
            }
            input = new Generate(input, call.function(), call.input(), call.outer(), names);
            List<Expr> replaced = new ArrayList<>(exprs.subList(0, generator));
            names.forEach(n -> replaced.add(new io.sluice.logical.expr.Column(n)));
            replaced.addAll(exprs.subList(generator + 1, exprs.size()));
            exprs = replaced;
        }
        if (WindowPlanner.any(exprs)) {
            WindowPlanner windows = WindowPlanner.plan(plan, exprs);
            input = windows.plan();
            exprs = exprs.stream().map(e -> {
                Expr rewritten = windows.rewrite(e);
                return rewritten.name().equals(e.name()) ? rewritten : new Alias(rewritten, e.name());
            }).toList();
        }
        return new Projection(input, exprs);
    }

    private static int generatorIndex(List<Expr> exprs) {
        int found = -1;
        for (int i = 0; i < exprs.size(); i++) {
            if (Exprs.unalias(exprs.get(i)) instanceof ExplodeCall) {
                if (found >= 0) {
                    throw new SluiceException("select() takes at most one explode()");
                }
                found = i;
            }
        }
        return found;
    }
}
