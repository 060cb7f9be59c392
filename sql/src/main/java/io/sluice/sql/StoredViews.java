package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.TableSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

/**
 * Plans a stored view's query when the view is read, as Spark does: in the view's own database
 * (its unqualified names mean what they meant when it was created) and its own dialect (its
 * {@code DIV}, NULL order and casts too), with temporary views and
 * tables out of sight, and its declared column names given to the result. A view reached again
 * while it is being planned (one replaced to read itself) is an error naming the chain.
 */
final class StoredViews {
    private static final ThreadLocal<Deque<String>> EXPANDING = ThreadLocal.withInitial(ArrayDeque::new);

    private StoredViews() {
    }

    static LogicalPlan plan(CatalogView view, InMemoryCatalog catalog) {
        Deque<String> expanding = EXPANDING.get();
        if (expanding.contains(view.qualifiedName())) {
            List<String> chain = new ArrayList<>(expanding);
            Collections.reverse(chain);
            throw new SluiceException("view " + view.qualifiedName() + " refers to itself: " + String.join(" -> ", chain)
                    + " -> " + view.qualifiedName());
        }
        expanding.push(view.qualifiedName());
        try {
            LogicalPlan plan = SqlFrontEnd.plan(readBack(view), new Scoped(catalog, view.database()));
            return view.columns().isEmpty() ? plan
                    : QueryTranslator.renameColumns(plan, view.columns(), "view " + view.qualifiedName());
        } catch (SluiceException e) {
            throw new SluiceException("view " + view.qualifiedName() + ": " + e.getMessage(), e);
        } finally {
            expanding.pop();
        }
    }

    /**
     * The text a view is stored as: its query from {@code queryStart} as the parser read it
     * ({@link SparkSyntax}'s spelling, which reads the same in every dialect), with each division
     * that was written {@code DIV} spelled {@code DIV} again (the rewrite kept its length), so that
     * reading it back finds it an integral division.
     */
    static String storedText(SparkSyntax.Rewritten rewritten, int queryStart) {
        StringBuilder text = new StringBuilder(rewritten.text());
        for (int at : rewritten.integerDivisions()) {
            text.replace(at, at + "DIV".length(), "DIV");
        }
        return text.substring(queryStart).strip();
    }

    /** A stored view's query as the parser gets it, in the dialect the view was created in. */
    private static SparkSyntax.Rewritten readBack(CatalogView view) {
        // the stored text is already in Calcite's spelling: only DIV is read again (in ansi, which changes nothing else)
        SparkSyntax.Rewritten text = SparkSyntax.rewrite(view.sql(), SqlDialect.ANSI);
        return new SparkSyntax.Rewritten(text.text(), view.dialect(), text.integerDivisions());
    }

    /** {@code catalog} as a stored view of {@code database} sees it. */
    static Catalog scope(InMemoryCatalog catalog, String database) {
        return new Scoped(catalog, database);
    }

    /** The catalog as the view's database sees it. */
    private record Scoped(InMemoryCatalog catalog, String database) implements Catalog {
        @Override
        public TableSource table(String name) {
            return catalog.table(name, database);
        }

        @Override
        public LogicalPlan view(String name) {
            return catalog.view(name, database);
        }

        @Override
        public String currentDatabase() {
            return database;
        }
    }
}
