package io.sluice.sql;

import io.sluice.common.SluiceException;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.TableSource;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Plans a stored view's query when the view is read, as Spark does: in the view's own database
 * (its unqualified names mean what they meant when it was created), with temporary views and
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
            java.util.List<String> chain = new java.util.ArrayList<>(expanding);
            java.util.Collections.reverse(chain);
            throw new SluiceException("view " + view.qualifiedName() + " refers to itself: " + String.join(" -> ", chain)
                    + " -> " + view.qualifiedName());
        }
        expanding.push(view.qualifiedName());
        try {
            LogicalPlan plan = SqlFrontEnd.plan(view.sql(), new Scoped(catalog, view.database()));
            return view.columns().isEmpty() ? plan
                    : QueryTranslator.renameColumns(plan, view.columns(), "view " + view.qualifiedName());
        } catch (SluiceException e) {
            throw new SluiceException("view " + view.qualifiedName() + ": " + e.getMessage(), e);
        } finally {
            expanding.pop();
        }
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
